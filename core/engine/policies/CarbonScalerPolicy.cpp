// SPDX-License-Identifier: MIT
#include "engine/policies/CarbonScalerPolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/PlanningTools.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <tuple>

namespace carbon3d {

std::vector<int> scaleLadder(const ExecutionMenu& menu) {
    std::map<int, int> fastestPerSize; // active GPUs -> option
    for (int k = 0; k < static_cast<int>(menu.size()); ++k) {
        const auto& option = menu[static_cast<std::size_t>(k)];
        auto it = fastestPerSize.find(option.gpusActive);
        if (it == fastestPerSize.end() ||
            option.workPerSecond > menu[static_cast<std::size_t>(it->second)].workPerSecond)
            fastestPerSize[option.gpusActive] = k;
    }
    std::vector<int> ladder;
    double rate = 0.0;
    for (const auto& [gpus, k] : fastestPerSize) {
        if (menu[static_cast<std::size_t>(k)].workPerSecond > rate) {
            ladder.push_back(k);
            rate = menu[static_cast<std::size_t>(k)].workPerSecond;
        }
    }
    return ladder;
}

std::vector<ScaleStep> scaleSteps(const CostModel& costs, const std::vector<int>& ladder) {
    std::vector<ScaleStep> steps;
    for (std::size_t step = 0; step < ladder.size(); ++step) {
        const int lower = step == 0 ? kPaused : ladder[step - 1];
        const int upper = ladder[step];
        steps.push_back({costs.workRate(upper) - costs.workRate(lower), costs.powerW(lower),
                         costs.embodiedGPerS(lower), costs.powerW(upper), costs.embodiedGPerS(upper)});
    }
    return steps;
}

double ScaleStep::valueAt(double ci) const {
    // costRateGPerS(upper, ci) - costRateGPerS(lower, ci), in the same arithmetic; the greedy ranks the
    // values to 9 significant digits (rankingValue), so round-off in a forecast is a tie.
    const double dCost =
        (upperPowerW * ci / 3.6e6 + upperEmbodiedGPerS) - (lowerPowerW * ci / 3.6e6 + lowerEmbodiedGPerS);
    // Free extra throughput (zero CI, or a step that draws no more power) is worth the most.
    return rankingValue(dCost > 0.0 ? rate / dCost : std::numeric_limits<double>::infinity());
}

ScalePlan planCarbonScaler(const CostModel& costs, const std::vector<int>& ladder,
                           const std::vector<ForecastPiece>& pieces, double work) {
    ScalePlan plan;
    plan.steps.assign(pieces.size(), -1);
    if (ladder.empty())
        return plan;
    // Looked up once: the plan pushes an item per piece and step, and replans at every decision.
    const std::vector<ScaleStep> steps = scaleSteps(costs, ladder);
    // (value, -piece, -step): the largest value first; ties to the earlier piece (run sooner, never later).
    using Item = std::tuple<double, std::ptrdiff_t, int>;
    std::priority_queue<Item> heap;
    auto push = [&](std::size_t piece, int step) {
        if (step >= static_cast<int>(ladder.size()) || !(pieces[piece].durationS > 0.0))
            return;
        heap.emplace(steps[static_cast<std::size_t>(step)].valueAt(pieces[piece].ciGPerKwh),
                     -static_cast<std::ptrdiff_t>(piece), -step);
    };
    for (std::size_t i = 0; i < pieces.size(); ++i)
        push(i, 0);
    while (plan.plannedWork < work && !heap.empty()) {
        const auto [value, negPiece, negStep] = heap.top();
        heap.pop();
        const auto piece = static_cast<std::size_t>(-negPiece);
        const int step = -negStep;
        plan.plannedWork += steps[static_cast<std::size_t>(step)].rate * pieces[piece].durationS;
        plan.steps[piece] = step;
        push(piece, step + 1);
    }
    plan.feasible = plan.plannedWork >= work;
    return plan;
}

namespace {

// Whether the greedy takes every (slot, step) item in the order of its worth alone at these carbon
// intensities: each step's worth falls (or stays) as the intensity rises, and no step is worth more than
// the one below it. Then the items a plan takes before any given one are exactly those worth more.
bool stepsTakenInValueOrder(const std::vector<ScaleStep>& steps, const std::vector<double>& values) {
    for (std::size_t k = 0; k < steps.size(); ++k) {
        double previous = std::numeric_limits<double>::infinity();
        for (double ci : values) {
            const double value = steps[k].valueAt(ci);
            if (value > previous || (k + 1 < steps.size() && steps[k + 1].valueAt(ci) > value))
                return false;
            previous = value;
        }
    }
    return true;
}

// The step the greedy plan gives the current slot (-1: none), without building the plan, when the forecast
// is the truth and stepsTakenInValueOrder holds; nullopt when no plan covers the work.
std::optional<int> firstPieceStepOnTheTruth(const std::vector<ScaleStep>& steps, CheaperSlots& slots,
                                            UtcSeconds now, double work) {
    const CheaperSlots::Current current = slots.advanceTo(now);
    double fullRate = 0.0;
    for (const ScaleStep& step : steps)
        fullRate += step.rate;
    if (fullRate * (current.secondsLeft + slots.secondsAfterCurrent()) < work)
        return std::nullopt; // every slot at the top of the ladder leaves work undone
    // Item (current slot, k) is taken when the items the greedy takes before it cover less than the work:
    // the current slot's lower steps, and every later slot's step worth strictly more (a tie goes to the
    // earlier slot, the current one). Worth falls with the carbon intensity, so those slots are the ones
    // below a point, which the tree sums.
    int taken = -1;
    double lowerSteps = 0.0; // work of the current slot's steps below k
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const double value = steps[k].valueAt(current.value);
        double before = lowerSteps;
        for (const ScaleStep& other : steps)
            before += other.rate * slots.secondsWhere([&](double ci) { return other.valueAt(ci) > value; });
        if (!(before < work))
            break;
        taken = static_cast<int>(k);
        lowerSteps += steps[k].rate * current.secondsLeft;
    }
    return taken;
}

} // namespace

void CarbonScalerPolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_ladder = scaleLadder(context.input.menu);
    m_steps = scaleSteps(context.costs, m_ladder);
    m_warnings.clear();
    m_trueSlots.reset();
    const SimulationInput& input = context.input;
    if (!m_steps.empty() &&
        forecastIsTheTruth(input.forecast, input.regions.front(), input.startUtc, input.deadlineUtc)) {
        m_trueSlots.emplace(input.regions.front(), input.startUtc, input.deadlineUtc);
        if (!stepsTakenInValueOrder(m_steps, m_trueSlots->values()))
            m_trueSlots.reset();
    }
}

Decision CarbonScalerPolicy::decide(const DecisionState& state) {
    // The truth's own slots answer without a forecast (in the start region, to the input's deadline); a run
    // that explains itself takes the plan below, whose reason quotes the forecast.
    if (m_trueSlots && state.region == 0 && !state.explain && state.deadlineUtc == m_trueSlots->windowEnd() &&
        state.nowUtc < state.deadlineUtc) {
        const std::optional<int> step =
            firstPieceStepOnTheTruth(m_steps, *m_trueSlots, state.nowUtc, state.workRemaining);
        if (step)
            return {*step < 0 ? kPaused : m_ladder[static_cast<std::size_t>(*step)], state.region};
    }
    const Forecast& forecast = state.forecast();
    const auto now = static_cast<double>(state.nowUtc);
    const auto deadline = static_cast<double>(state.deadlineUtc);
    // Grouped beyond the horizon: the greedy reads each piece's value and duration, not its day, and the
    // current piece, first, wins every tie as the earliest slot did; so the first piece's steps are the
    // same as over the ungrouped window (tst_policies carbonScalerDecidesTheSameOnGroupedPieces).
    const std::vector<ForecastPiece> pieces = windowPieces(forecast, now, std::max(now + 1.0, deadline));
    const ScalePlan plan = planCarbonScaler(*m_costs, m_ladder, pieces, state.workRemaining);
    if (!plan.feasible) {
        if (m_warnings.empty())
            m_warnings.push_back("carbonscaler: the deadline became too tight for the plan at " +
                                 formatIsoUtc(state.nowUtc) +
                                 " (overheads ate the slack); ran the largest "
                                 "size from there");
        return {m_ladder.back(), state.region,
                state.explain ? "the deadline became too tight for any plan: the largest size" : ""};
    }
    const int step = plan.steps.empty() ? -1 : plan.steps.front();
    const int option = step < 0 ? kPaused : m_ladder[static_cast<std::size_t>(step)];
    if (!state.explain)
        return {option, state.region};
    const ReasonUnits units(objective());
    const std::string sizes = std::to_string(m_ladder.size());
    return {
        option, state.region,
        std::string("the plan to the deadline gives each added size step to the slot where it buys the most "
                    "tokens per ") +
            units.forecastUnit() + "; at " + units.perKwh(forecast.valueAt(now)) + " this slot gets " +
            (step < 0 ? "none of the " + sizes + " steps: pauses"
                      : std::to_string(step + 1) + " of the " + sizes + " steps")};
}

PolicyInfo carbonScalerPolicyInfo() {
    PolicyInfo info{
        "carbonscaler",
        "Elastic scaling: greedy over (slot, size) items by marginal throughput / marginal carbon, sizes "
        "taken in increasing order, until the work is covered by the deadline.",
        "CarbonScaler (Hanafy et al., SIGMETRICS 2024)",
        {objectiveOption()},
        {},
        {0xCC79A7, LineDash::Solid, PlotMarker::PlusSquare},
        [](const PolicyOptions&) { return std::make_unique<CarbonScalerPolicy>(); }};
    info.traits.simplerPlan = SimplerPlan::ElasticScaling;
    return info;
}

} // namespace carbon3d
