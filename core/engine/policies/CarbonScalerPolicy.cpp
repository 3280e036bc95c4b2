// SPDX-License-Identifier: MIT
#include "engine/policies/CarbonScalerPolicy.h"

#include "domain/NumberText.h"
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

namespace {

// Whether planned work covers `work`, round-off forgiven: the work left is a difference of sums and a plan a
// sum in another order, so a plan that covers it exactly can fall short in the last bits, and taking one
// more whole item for that would change the schedule (1e-9 of the work is far above round-off and far below
// a second of any size's work).
bool covers(double planned, double work) {
    return planned >= work - 1e-9 * std::abs(work);
}

} // namespace

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
    while (!covers(plan.plannedWork, work) && !heap.empty()) {
        const auto [value, negPiece, negStep] = heap.top();
        heap.pop();
        const auto piece = static_cast<std::size_t>(-negPiece);
        const int step = -negStep;
        plan.plannedWork += steps[static_cast<std::size_t>(step)].rate * pieces[piece].durationS;
        plan.steps[piece] = step;
        push(piece, step + 1);
    }
    plan.feasible = covers(plan.plannedWork, work);
    return plan;
}

std::vector<OvershootTrim> overshootTrims(const CostModel& costs, const std::vector<int>& ladder,
                                          const std::vector<ForecastPiece>& pieces, const ScalePlan& plan,
                                          double work) {
    double surplus = plan.plannedWork - work;
    if (!plan.feasible || !(surplus > 0.0))
        return {};
    struct Active {
        std::size_t piece;
        double gramsPerWork;
    };
    std::vector<Active> active;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (plan.steps[i] < 0)
            continue;
        const int option = ladder[static_cast<std::size_t>(plan.steps[i])];
        active.push_back({i, costs.costRateGPerS(option, pieces[i].ciGPerKwh) / costs.workRate(option)});
    }
    std::stable_sort(active.begin(), active.end(),
                     [](const Active& a, const Active& b) { return a.gramsPerWork > b.gramsPerWork; });
    std::vector<OvershootTrim> trims;
    for (const Active& a : active) {
        const double rate = costs.workRate(ladder[static_cast<std::size_t>(plan.steps[a.piece])]);
        const double cut = std::min(surplus, rate * pieces[a.piece].durationS);
        trims.push_back({a.piece, cut, std::max(0.0, pieces[a.piece].durationS - cut / rate)});
        surplus -= cut;
        if (!(surplus > 0.0))
            break;
    }
    return trims;
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
    if (!covers(fullRate * (current.secondsLeft + slots.secondsAfterCurrent()), work))
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
        if (covers(before, work))
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
    m_trimSlotsUtc.clear();
    m_trimSlotsKnown = false;
    m_reservedWork = 0.0;
    m_slotSeconds = static_cast<double>(context.input.regions.front().stepSeconds);
    const SimulationInput& input = context.input;
    if (!m_steps.empty() &&
        forecastIsTheTruth(input.forecast, input.regions.front(), input.startUtc, input.deadlineUtc)) {
        m_trueSlots.emplace(input.regions.front(), input.startUtc, input.deadlineUtc);
        if (!stepsTakenInValueOrder(m_steps, m_trueSlots->values()))
            m_trueSlots.reset();
    }
}

std::map<std::string, std::string> CarbonScalerPolicy::options() const {
    return {{"overshoot", m_overshoot == Overshoot::TrimDirtiest ? "trim-dirtiest" : "finish-early"}};
}

Decision CarbonScalerPolicy::decide(const DecisionState& state) {
    // The truth's own slots answer without a forecast (in the start region, to the input's deadline); a run
    // that explains itself takes the plan below, whose reason quotes the forecast. The slot the overshoot
    // comes off is found by the first plan and planned again when the run reaches it.
    if (m_trueSlots && state.region == 0 && !state.explain && state.deadlineUtc == m_trueSlots->windowEnd() &&
        state.nowUtc < state.deadlineUtc) {
        if (retrimsAt(state.nowUtc))
            return planned(state);
        const std::optional<int> step = firstPieceStepOnTheTruth(m_steps, *m_trueSlots, state.nowUtc,
                                                                 state.workRemaining + m_reservedWork);
        if (step)
            return {*step < 0 ? kPaused : m_ladder[static_cast<std::size_t>(*step)], state.region};
    }
    return planned(state);
}

bool CarbonScalerPolicy::retrimsAt(UtcSeconds now) const {
    if (m_overshoot != Overshoot::TrimDirtiest)
        return false;
    const auto t = static_cast<double>(now);
    return !m_trimSlotsKnown || std::any_of(m_trimSlotsUtc.begin(), m_trimSlotsUtc.end(), [&](double slot) {
        return t >= slot && t < slot + m_slotSeconds;
    });
}

Decision CarbonScalerPolicy::planned(const DecisionState& state) {
    const Forecast& forecast = state.forecast();
    const auto now = static_cast<double>(state.nowUtc);
    const auto deadline = static_cast<double>(state.deadlineUtc);
    // Grouped beyond the horizon: the greedy reads each piece's value and duration, not its day, and the
    // current piece, first, wins every tie as the earliest slot did; so the first piece's steps are the
    // same as over the ungrouped window (tst_policies carbonScalerDecidesTheSameOnGroupedPieces).
    const std::vector<ForecastPiece> pieces = windowPieces(forecast, now, std::max(now + 1.0, deadline));
    // The surplus a plan takes off later slots stays in the work planned for until those slots come:
    // planned without it, a surplus larger than some item would drop that item and the run would no longer
    // be the plan (the paper's agent plans once and runs its plan). Where the surplus comes off is decided
    // by the first plan and again in each slot it named, on the truth's fast path and the plan alike, so
    // that the two decide the same.
    ScalePlan plan = planCarbonScaler(*m_costs, m_ladder, pieces, state.workRemaining + m_reservedWork);
    if (!plan.feasible && m_reservedWork > 0.0) {
        m_reservedWork = 0.0; // the slack has gone: plan the work alone
        plan = planCarbonScaler(*m_costs, m_ladder, pieces, state.workRemaining);
    }
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
    double trainSeconds = 0.0;
    if (retrimsAt(state.nowUtc)) {
        m_trimSlotsKnown = true;
        m_trimSlotsUtc.clear();
        m_reservedWork = 0.0;
        std::optional<double> currentRunSeconds; // set when the current slot is trimmed
        for (const OvershootTrim& trim :
             overshootTrims(*m_costs, m_ladder, pieces, plan, state.workRemaining)) {
            m_trimSlotsUtc.push_back(pieces[trim.piece].startUtc);
            if (trim.piece == 0)
                currentRunSeconds = trim.runSeconds;
            else
                m_reservedWork += trim.cutWork; // planned for until its slot comes
        }
        // The current slot is trimmed: it runs part of its time, or pauses throughout.
        if (currentRunSeconds && !(*currentRunSeconds > 0.0))
            return {kPaused, state.region,
                    state.explain ? "the plan's surplus is all of this slot's work: pauses" : ""};
        trainSeconds = currentRunSeconds.value_or(0.0);
    }
    if (!state.explain)
        return {option, state.region, {}, trainSeconds};
    const ReasonUnits units(objective());
    const std::string sizes = std::to_string(m_ladder.size());
    std::string reason =
        std::string("the plan to the deadline gives each added size step to the slot where it buys the most "
                    "tokens per ") +
        units.forecastUnit() + "; at " + units.perKwh(forecast.valueAt(now)) + " this slot gets " +
        (step < 0 ? "none of the " + sizes + " steps: pauses"
                  : std::to_string(step + 1) + " of the " + sizes + " steps");
    if (trainSeconds > 0.0)
        reason += ", for " + fixedNumber(trainSeconds / 60.0, 1) +
                  " min: the plan's surplus comes off the slot of most carbon per token";
    return {option, state.region, std::move(reason), trainSeconds};
}

PolicyInfo carbonScalerPolicyInfo() {
    PolicyInfo info{
        "carbonscaler",
        "Elastic scaling: greedy over (slot, size) items by marginal throughput / marginal carbon, sizes "
        "taken in increasing order, until the work is covered by the deadline.",
        "CarbonScaler (Hanafy et al., SIGMETRICS 2024)",
        {objectiveOption(),
         choiceOption("overshoot", "trim-dirtiest", {"trim-dirtiest", "finish-early"},
                      "trim-dirtiest (the paper's code: the plan's surplus comes off the slot of most carbon "
                      "per token) | finish-early (the job ends part-way through its last slot)")},
        {},
        {0xCC79A7, LineDash::Solid, PlotMarker::PlusSquare},
        [](const PolicyOptions& o) {
            return std::make_unique<CarbonScalerPolicy>(o.text("overshoot") == "finish-early"
                                                            ? CarbonScalerPolicy::Overshoot::FinishEarly
                                                            : CarbonScalerPolicy::Overshoot::TrimDirtiest);
        }};
    info.traits.simplerPlan = SimplerPlan::ElasticScaling;
    return info;
}

} // namespace carbon3d
