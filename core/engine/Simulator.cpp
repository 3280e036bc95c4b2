// SPDX-License-Identifier: MIT
#include "engine/Simulator.h"

#include "domain/InputError.h"
#include "domain/ModellingFields.h"
#include "engine/LowerBound.h"
#include "engine/PolicyRegistry.h"
#include "engine/PriceModel.h"
#include "engine/SpotStrikes.h"
#include "engine/forecast/Forecaster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

namespace carbon3d {

namespace {

// A signal the run does not have (no marginal companion, no forecast issued at this decision).
constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

// Completion within this many seconds after the deadline still counts as on time: the engine's
// own floating-point arithmetic (work / rate) must not turn an exact plan into a miss.
constexpr double kDeadlineToleranceS = 1e-3;

// Where a decision's training stops: `from` plus the part of the step it asks for (Decision::trainSeconds,
// up to the whole second), or the next decision point `next` when it asks for the whole step.
double partialTrainingEnd(const Decision& decision, double from, double next) {
    if (!(decision.trainSeconds > 0.0))
        return next;
    return std::min(next, from + std::ceil(decision.trainSeconds));
}

// The second a time falls in (records, notes and forecasts are kept to the second; the clock is exact).
UtcSeconds wholeSecond(double t) {
    return static_cast<UtcSeconds>(std::floor(t));
}

std::string number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

void validate(const SimulationInput& in) {
    const std::string& file = in.sourceName;
    if (in.regions.empty())
        throw InputError(file, 0, 0, "expected at least one region with a carbon trace, found none");
    for (const CarbonTrace& trace : in.regions) {
        if (trace.empty())
            throw InputError(file, 0, 0,
                             "expected a non-empty carbon trace for region '" + trace.regionId + "'");
        if (trace.stepSeconds <= 0 || kSecondsPerDay % trace.stepSeconds != 0)
            throw InputError(file, 0, 0,
                             "expected a trace step that divides a day (e.g. 300 or 3600 s), found " +
                                 std::to_string(trace.stepSeconds) + " s in region '" + trace.regionId + "'");
    }
    checkTracesCoverJob(in);
    // A forecast file forecasts one grid: replayed for a second region it would stand in for that one's too.
    if (const ForecastKindInfo* kind = findForecastKind(in.forecast.kind);
        kind != nullptr && kind->takesFile && in.regions.size() > 1)
        throw InputError(file, 0, 0,
                         "the " + kind->kind +
                             " forecast replays one region's forecast file: expected one region, "
                             "found " +
                             std::to_string(in.regions.size()));
    if (in.menu.empty())
        throw InputError(file, 0, 0, "expected at least one execution option on the menu, found none");
    for (std::size_t k = 0; k < in.menu.size(); ++k) {
        const ExecutionOption& option = in.menu[k];
        if (!(option.workPerSecond > 0.0) || !(option.activePowerW >= 0.0) || option.gpusActive < 1 ||
            option.gpusActive > in.gpusHeld)
            throw InputError(file, 0, 0,
                             "expected menu option " + std::to_string(k) +
                                 " to have positive throughput, non-negative power and 1.." +
                                 std::to_string(in.gpusHeld) + " active GPUs, found throughput " +
                                 number(option.workPerSecond) + ", power " + number(option.activePowerW) +
                                 " W, " + std::to_string(option.gpusActive) + " GPUs");
    }
    if (!(in.totalWork > 0.0))
        throw InputError(file, 0, 0, "expected positive total work, found " + number(in.totalWork));
    if (!(in.pue >= 1.0))
        throw InputError(file, 0, 0, "expected a PUE >= 1, found " + number(in.pue));
    if (!(in.idlePowerPerGpuW >= 0.0) || !(in.idlePowerPerNodeW >= 0.0) || !(in.embodiedGPerGpuSecond >= 0.0))
        throw InputError(file, 0, 0, "expected non-negative idle powers and embodied rate");
    if (in.gpusPerNode < 1)
        throw InputError(file, 0, 0,
                         "expected at least one GPU per node, found " + std::to_string(in.gpusPerNode));
    const ModellingOptions& m = in.modelling;
    if (!(m.reconfigurationSeconds >= 0.0) || !(m.resizeSeconds >= 0.0) || !(m.preemptionSeconds >= 0.0) ||
        !(m.migrationSeconds >= 0.0) || !(m.overheadPowerFraction >= 0.0) || !(m.overheadPowerW >= 0.0) ||
        !(m.decisionIntervalSeconds >= 0.0) || !(m.softDeadlinePenaltyGPerHour >= 0.0))
        throw InputError(file, 0, 0,
                         "expected non-negative overheads, overhead power fraction, decision interval "
                         "and deadline penalty");
    if (m.decisionIntervalSeconds > 0.0 && m.decisionIntervalSeconds < 60.0)
        throw InputError(file, 0, 0,
                         "expected a decision interval of at least 60 s (or 0 for trace slot boundaries, at "
                         "most every 30 min), found " +
                             number(m.decisionIntervalSeconds));
    if (in.deadlineUtc <= in.startUtc)
        throw InputError(file, 0, 0, "expected the deadline after the start");
    for (std::size_t r = 0; r < in.electricityUsdPerKwh.size() && r < in.regions.size(); ++r) {
        if (!in.electricityUsdPerKwh[r].empty() && in.electricityUsdPerKwh[r].size() != in.regions[r].size())
            throw InputError(file, 0, 0,
                             "expected region '" + in.regions[r].regionId +
                                 "' to have one electricity price " + "per slot of its carbon trace (" +
                                 std::to_string(in.regions[r].size()) + "), found " +
                                 std::to_string(in.electricityUsdPerKwh[r].size()));
    }
}

class Engine {
public:
    Engine(const SimulationInput& input, Policy& policy, const SimulationHooks& hooks)
        : m_in(input)
        , m_costs(input)
        , m_prices(input, m_costs)
        , m_policy(policy)
        , m_objective(policy.objective().value_or(Objective::Carbon))
        , m_hooks(hooks)
        , m_forecasters(input.regions.size()) {
        if (input.modelling.gpuCapacity == ModellingOptions::GpuCapacity::Spot)
            m_spot.emplace(input.modelling.spotPreemptionsPerGpuHour, input.gpusHeld,
                           static_cast<std::uint64_t>(input.modelling.spotSeed), input.startUtc);
        if (m_objective != Objective::Carbon) {
            // A replayed file forecasts carbon intensity; the planning view is priced in another unit.
            const ForecastKindInfo* kind = findForecastKind(input.forecast.kind);
            if (kind != nullptr && kind->takesFile)
                throw InputError(input.sourceName, 0, 0,
                                 "the " + kind->kind +
                                     " forecast predicts carbon intensity: expected the carbon "
                                     "objective, found " +
                                     objectiveName(m_objective));
            m_plan.emplace(planningView(input, m_prices, m_objective));
        }
    }

    RunResult run();

    // Smallest decision point >= x in `region`'s grid (the deadline is one too).
    UtcSeconds pointAtOrAfter(UtcSeconds x, int region) const {
        UtcSeconds grid = 0;
        const auto interval = static_cast<std::int64_t>(std::llround(m_in.modelling.decisionIntervalSeconds));
        if (interval > 0) {
            const std::int64_t k = (x - m_in.startUtc + interval - 1) / interval;
            grid = m_in.startUtc + std::max<std::int64_t>(0, k) * interval;
        } else {
            const CarbonTrace& trace = m_in.regions[static_cast<std::size_t>(region)];
            const std::int64_t stride = slotDecisionStride(trace);
            const std::int64_t k = (x - trace.startUtc + stride - 1) / stride;
            grid = trace.startUtc + std::max<std::int64_t>(0, k) * stride;
        }
        if (x <= m_in.deadlineUtc && grid > m_in.deadlineUtc)
            grid = m_in.deadlineUtc;
        return grid;
    }

private:
    double overheadSeconds(int from, int to, int fromRegion, int toRegion) const {
        if (fromRegion != toRegion && to >= 0 && from != kNotStarted)
            return std::round(m_in.modelling.migrationSeconds);
        return m_costs.transitionSeconds(from, to);
    }
    // The fastest way to finish from `state` at time t with `remaining` work (stay, or move to any option):
    // the option (the first of equals; the fastest option when none finishes) and when it ends.
    struct Finish {
        int option = 0;
        double end = 0.0;
    };
    Finish fastestFinish(int state, double t, double remaining) const {
        Finish best{m_costs.fastestOption(), std::numeric_limits<double>::infinity()};
        for (int k = 0; k < m_costs.optionCount(); ++k) {
            const double end = t + m_costs.transitionSeconds(state, k) + remaining / m_costs.workRate(k);
            if (end < best.end)
                best = {k, end};
        }
        return best;
    }
    double earliestCompletion(int state, double t, double remaining) const {
        return fastestFinish(state, t, remaining).end;
    }
    const Forecast& forecastNow();
    double issuedHorizonHours() const;
    void runSegment(double a, double b, IntervalActivity activity, int option);
    // Trains on `option` from `from` to the decision point `to`; on spot capacity a strike inside costs a
    // preemption there. Returns the decision point the job reaches: `to`, or the first one after a strike's
    // restore that runs past it.
    double train(double from, double to, int option);
    void finish();
    void collectWarnings();

    // The steps of run(), in order.
    // An InputError when not even the fastest option can meet the deadline from the start.
    void checkFeasible() const;
    // Lets the policy plan; false (and the result marked cancelled) when a cancel came meanwhile.
    bool planPolicy();
    // The policy's decision at m_now, checked against the menu and the regions.
    Decision askPolicy(std::size_t index);
    // What a decision costs before training resumes, and the decision point it reaches.
    struct Step {
        double overhead = 0.0;
        double next = 0.0;
    };
    Step stepFor(const Decision& decision) const;
    // Under a hard deadline: replaces a decision that would make the deadline unreachable by the fastest
    // way to finish from here.
    void keepHardDeadline(Decision& decision, Step& step);
    // Records the decision, pays its overhead (migration, resume or reconfiguration), then trains, pauses or
    // waits up to the next decision point.
    void carryOut(Decision decision, Step step);
    void payOverhead(const Decision& decision, const Step& step, double overheadEnd);

    const SimulationInput& m_in;
    CostModel m_costs;
    PriceModel m_prices;
    std::optional<SpotStrikes> m_spot; // spot capacity only
    Policy& m_policy;
    // What the policy plans on: the input and its costs, or for another objective than carbon the planning
    // view priced in it (engine/Objective.h). The engine itself always charges m_in and m_costs.
    Objective m_objective;
    std::optional<PlanningView> m_plan;
    const SimulationInput& planInput() const { return m_plan ? m_plan->input : m_in; }
    const CostModel& planCosts() const { return m_plan ? m_plan->costs : m_costs; }
    const SimulationHooks& m_hooks;
    RunResult m_result;
    std::vector<std::unique_ptr<Forecaster>> m_forecasters;
    bool m_forecastValid = false;
    bool m_forecastUsed = false;
    Forecast m_forecast;
    // The clock: whole seconds, except after a decision that asked for an amount of work
    // (Decision::trainWork), which ends where that work is done.
    double m_now = 0.0;
    int m_state = kNotStarted;
    int m_region = 0;
    double m_done = 0.0;
    double m_parkedFullG = 0.0; // what the parked GPUs emitted, all of it (RunMetrics::dedicatedG, sharedG)
    bool m_finished = false;
    bool m_traceEnded = false;
    double m_completionUtc = 0.0;
};

// The reach of the forecast issued now. Perfect knowledge reaches the whole trace, but under a hard
// deadline nothing past the deadline is planned or run, so it is issued to the deadline's slot and no
// further: the same values where they are read, without copying the rest of the trace at every decision
// (a 4-hour job on a year's trace copied 8,760 values a decision; docs/PERFORMANCE.md).
double Engine::issuedHorizonHours() const {
    const double reach = m_in.forecast.effectiveHorizonHours();
    const ForecastKindInfo* kind = findForecastKind(m_in.forecast.kind);
    if (kind == nullptr || !kind->perfectKnowledge ||
        m_in.modelling.deadlineMode != ModellingOptions::DeadlineMode::Hard)
        return reach;
    const auto& trace = m_in.regions[static_cast<std::size_t>(m_region)];
    const double toDeadline = (static_cast<double>(m_in.deadlineUtc + 2 * trace.stepSeconds) - m_now) /
                              static_cast<double>(kSecondsPerHour);
    return std::min(reach, toDeadline);
}

const Forecast& Engine::forecastNow() {
    if (!m_forecastValid) {
        const auto r = static_cast<std::size_t>(m_region);
        const CarbonTrace& signal = planInput().regions[r]; // what the policy minimises, per kWh
        if (!m_forecasters[r])
            m_forecasters[r] = makeForecaster(m_in.forecast, signal);
        m_forecast = issueForecast(*m_forecasters[r], signal, wholeSecond(m_now), issuedHorizonHours());
        m_forecastValid = true;
        m_forecastUsed = true;
    }
    return m_forecast;
}

void Engine::runSegment(double a, double b, IntervalActivity activity, int option) {
    const CarbonTrace& trace = m_in.regions[static_cast<std::size_t>(m_region)];
    const bool training = activity == IntervalActivity::Training;
    const bool overhead = isOverhead(activity);
    const double power = overhead ? m_costs.overheadPowerW(option) : m_costs.powerW(option);
    const double rate = training ? m_costs.workRate(option) : 0.0;
    const int held = m_costs.heldGpus(option);
    const double embodiedRate = m_costs.embodiedGPerS(option);
    const double gpuUsdPerS = m_prices.gpuUsdPerS(option);
    while (a < b && !m_finished) {
        const std::int64_t slot = (wholeSecond(a) - trace.startUtc) / trace.stepSeconds;
        if (slot >= static_cast<std::int64_t>(trace.size())) {
            m_traceEnded = true;
            return;
        }
        const double end =
            std::min(b, static_cast<double>(trace.slotStart(static_cast<std::size_t>(slot) + 1)));
        double duration = end - a;
        IntervalRecord record;
        if (training && m_in.totalWork - m_done <= rate * duration) {
            duration = (m_in.totalWork - m_done) / rate;
            m_finished = true;
            m_completionUtc = a + duration;
        }
        // Kept to the nearest second (a whole-second clock's records are exact); what the interval drew,
        // did and emitted is computed from its exact duration.
        record.start = static_cast<UtcSeconds>(std::llround(a));
        record.end = m_finished ? static_cast<UtcSeconds>(std::ceil(m_completionUtc))
                                : static_cast<UtcSeconds>(std::llround(end));
        record.regionIndex = m_region;
        record.activity = activity;
        if (option >= 0) {
            record.config = m_in.menu[static_cast<std::size_t>(option)].config;
            record.powerLimitW = m_in.menu[static_cast<std::size_t>(option)].powerLimitW;
        }
        record.gpusActive = training ? m_costs.activeGpus(option) : 0;
        record.gpusHeld = held;
        record.facilityPowerW = power;
        const auto s = static_cast<std::size_t>(slot);
        record.ciGPerKwh = trace.gPerKwh[s];
        // Absent signals are NaN (null in JSON, empty in CSV, NULL in the store), never a 0 that reads as a
        // measurement.
        record.marginalCiGPerKwh = trace.hasMarginal() ? trace.marginalGPerKwh[s] : kAbsent;
        // A policy planning for cost forecast a price, not an intensity: no forecast intensity to show.
        record.forecastCiGPerKwh =
            m_forecastValid && m_objective == Objective::Carbon ? m_forecast.valueAt(a) : kAbsent;
        record.workDone = m_finished ? m_in.totalWork - m_done : rate * duration;
        record.energyJ = power * duration;
        record.emissionsG = record.energyJ * record.ciGPerKwh / 3.6e6;
        record.marginalEmissionsG = record.energyJ * record.marginalCiGPerKwh / 3.6e6;
        record.embodiedG = embodiedRate * duration;
        record.electricityUsdPerKwh = m_prices.electricityUsdPerKwh(m_region, s);
        record.gpuCostUsd = gpuUsdPerS * duration;
        record.energyCostUsd = record.energyJ / 3.6e6 * record.electricityUsdPerKwh;
        record.carbonCostUsd = (record.emissionsG + record.embodiedG) * m_prices.carbonUsdPerG();
        m_parkedFullG += m_costs.parkedCostRateGPerS(option, record.ciGPerKwh) * duration;
        m_done = m_finished ? m_in.totalWork : m_done + record.workDone;
        m_result.series.push_back(record);
        a = end;
    }
}

double Engine::train(double from, double to, int option) {
    while (m_spot && !m_finished && !m_traceEnded) {
        // Strikes fall on whole seconds: those in [ceil(from), ceil(to)) are exactly those in [from, to).
        const std::optional<UtcSeconds> strike =
            m_spot->firstIn(static_cast<UtcSeconds>(std::ceil(from)), static_cast<UtcSeconds>(std::ceil(to)),
                            m_costs.activeGpus(option));
        if (!strike)
            break;
        runSegment(from, static_cast<double>(*strike), IntervalActivity::Training, option);
        if (m_finished || m_traceEnded)
            return to;
        // The provider took the GPUs back: the job restarts from its checkpoint on new ones, as after a
        // pause (the notice before a reclaim is taken to be enough to write the checkpoint).
        const double restartS = std::round(m_in.modelling.preemptionSeconds);
        const double resumed = static_cast<double>(*strike) + restartS;
        ++m_result.metrics.spotPreemptions;
        m_result.metrics.spotPreemptionSeconds += restartS;
        runSegment(static_cast<double>(*strike), resumed, IntervalActivity::Preempting, option);
        from = resumed;
        // A restore that runs past the decision point skips it, as every overhead does: the job trains on
        // to the first point after the restore (leaving no hole in the series).
        if (from >= to)
            to = static_cast<double>(pointAtOrAfter(static_cast<UtcSeconds>(std::ceil(from)), m_region));
    }
    runSegment(from, to, IntervalActivity::Training, option);
    return to;
}

void Engine::checkFeasible() const {
    if (earliestCompletion(kNotStarted, static_cast<double>(m_in.startUtc), m_in.totalWork) >
        static_cast<double>(m_in.deadlineUtc) + kDeadlineToleranceS) {
        const double hours = m_in.totalWork / m_costs.workRate(m_costs.fastestOption()) / 3600.0;
        throw InputError(m_in.sourceName, 0, 0,
                         "infeasible job: even the fastest option needs " + number(hours) +
                             " h from the start, but the deadline is " +
                             number(static_cast<double>(m_in.deadlineUtc - m_in.startUtc) / 3600.0) +
                             " h after it");
    }
}

bool Engine::planPolicy() {
    const PlanningContext context{planInput(), planCosts(), [this] { return decisionPoints(m_in, 0); },
                                  m_hooks.cancel};
    bool planningCancelled = false;
    try {
        m_policy.prepare(context);
    } catch (const PlanningCancelled&) {
        planningCancelled = true;
    }
    // Read after planning: a planning policy also records how its plan was found (the oracle's solved_by).
    m_result.options = m_policy.options();
    if (const std::optional<Objective> objective = m_policy.objective())
        m_result.options["objective"] = objectiveName(*objective);
    // Planning policies (oracle, ilp, carbonscaler) can take a while in prepare(); a cancel that arrived
    // meanwhile is honoured before the first decision rather than after it.
    if (planningCancelled || (m_hooks.cancel != nullptr && m_hooks.cancel->load())) {
        m_result.cancelled = true;
        m_result.warnings.emplace_back("cancelled while the policy was planning");
        return false;
    }
    return true;
}

Decision Engine::askPolicy(std::size_t index) {
    DecisionState state;
    state.nowUtc = wholeSecond(m_now);
    state.nowSeconds = m_now;
    state.deadlineUtc = m_in.deadlineUtc;
    state.workDone = m_done;
    state.workRemaining = m_in.totalWork - m_done;
    state.currentOption = m_state;
    state.region = m_region;
    state.decisionIndex = index;
    state.explain = m_hooks.explainDecisions;
    state.forecast = [this]() -> const Forecast& { return forecastNow(); };
    Decision decision = m_policy.decide(state);
    if (decision.option < kNotStarted || decision.option >= m_costs.optionCount() || decision.region < 0 ||
        decision.region >= static_cast<int>(m_in.regions.size()))
        throw InputError(m_in.sourceName, 0, 0,
                         "policy '" + m_policy.name() + "' returned option " +
                             std::to_string(decision.option) + " in region " +
                             std::to_string(decision.region) + ", outside the menu/regions");
    if (decision.trainWork > 0.0 && decision.trainSeconds > 0.0)
        throw InputError(m_in.sourceName, 0, 0,
                         "policy '" + m_policy.name() +
                             "' asked for both a training time and an amount of work: expected one");
    // Waiting before the first start holds nothing; after it, any pause is a pause.
    if (decision.option < 0)
        decision.option = m_state == kNotStarted ? kNotStarted : kPaused;
    return decision;
}

Engine::Step Engine::stepFor(const Decision& decision) const {
    Step step;
    step.overhead = overheadSeconds(m_state, decision.option, m_region, decision.region);
    // To the moment the asked work is done. Work that reaches the job's end trains to the next decision point
    // instead, where completion ends the run (a clock stopped at a round-off residue of work would not move).
    const double remaining = m_in.totalWork - m_done;
    if (decision.trainWork > 0.0 && decision.option >= 0 && decision.trainWork < remaining * (1.0 - 1e-9)) {
        step.next = m_now + step.overhead + decision.trainWork / m_costs.workRate(decision.option);
        if (step.next > m_now)
            return step;
    }
    step.next = static_cast<double>(pointAtOrAfter(
        static_cast<UtcSeconds>(std::ceil(std::max(m_now + 1.0, m_now + step.overhead))), decision.region));
    return step;
}

void Engine::keepHardDeadline(Decision& decision, Step& step) {
    const double remaining = m_in.totalWork - m_done;
    const double trainFrom = m_now + step.overhead;
    const double trainEnd = partialTrainingEnd(decision, trainFrom, step.next);
    const bool partial = decision.option >= 0 && trainEnd < step.next; // it pauses at trainEnd
    const double runS = std::max(0.0, trainEnd - trainFrom);
    const double after = remaining - m_costs.workRate(decision.option) * runS;
    // When the job ends under this choice: within this step when it covers the rest of the work (after its
    // overhead: a reconfiguration to finish the last seconds of work can itself overrun the deadline), else
    // at the earliest from the next decision point.
    const double chosenEnd = after > 0.0
                                 ? earliestCompletion(partial ? kPaused : decision.option, step.next, after)
                                 : m_now + step.overhead + remaining / m_costs.workRate(decision.option);
    if (!(chosenEnd > static_cast<double>(m_in.deadlineUtc) + kDeadlineToleranceS))
        return;
    // The policy's choice would miss the deadline: take the fastest way to finish from here instead (stay,
    // or switch to the option that completes first).
    const Finish fastest = fastestFinish(m_state, m_now, remaining);
    // A choice that finishes in this step is replaced only by a sooner finish (a deadline already lost is
    // not made worse by the override).
    if (!(after > 0.0) && !(fastest.end < chosenEnd))
        return;
    decision = Decision{fastest.option, m_region,
                        decision.reason + (decision.reason.empty() ? "" : "; ") +
                            "overridden by the engine: that choice would have missed the hard "
                            "deadline, so the job takes the fastest way to finish from here"};
    step = stepFor(decision);
    ++m_result.metrics.forcedDecisions;
}

void Engine::payOverhead(const Decision& decision, const Step& step, double overheadEnd) {
    if (decision.region != m_region && decision.option >= 0 && m_state != kNotStarted) {
        m_region = decision.region;
        ++m_result.metrics.migrations;
        m_result.metrics.migrationSeconds += step.overhead;
        runSegment(m_now, overheadEnd, IntervalActivity::Migrating, decision.option);
        return;
    }
    // A paused job's checkpoint stays where it was written: a region change takes effect when the job runs
    // again, and that resume pays the migration (first branch). Before the first start nothing is held
    // anywhere, so the job may wait in any region.
    if (decision.option >= 0 || m_state == kNotStarted)
        m_region = decision.region;
    if (!(step.overhead > 0.0))
        return;
    const bool resume = m_state == kPaused;
    if (resume) {
        ++m_result.metrics.preemptions;
        m_result.metrics.preemptionSeconds += step.overhead;
    } else {
        ++m_result.metrics.reconfigurations;
        m_result.metrics.reconfigurationSeconds += step.overhead;
    }
    runSegment(m_now, overheadEnd, resume ? IntervalActivity::Preempting : IntervalActivity::Reconfiguring,
               decision.option);
}

void Engine::carryOut(Decision decision, Step step) {
    if (m_hooks.explainDecisions)
        m_result.decisions.push_back({wholeSecond(m_now), std::move(decision.reason)});
    const double overheadEnd = m_now + step.overhead;
    payOverhead(decision, step, overheadEnd);
    m_state = decision.option;
    if (!m_traceEnded && overheadEnd < step.next) {
        if (decision.option >= 0) {
            const double reached =
                train(overheadEnd, partialTrainingEnd(decision, overheadEnd, step.next), decision.option);
            // A decision for part of the step pauses from where it stopped to the next decision point
            // (unless the work is done, or a spot strike's restore has carried the job past that point).
            if (reached < step.next && !m_finished && !m_traceEnded) {
                m_state = kPaused;
                runSegment(reached, step.next, IntervalActivity::Paused, kPaused);
            } else {
                step.next = std::max(step.next, reached);
            }
        } else
            runSegment(overheadEnd, step.next,
                       decision.option == kNotStarted ? IntervalActivity::Waiting : IntervalActivity::Paused,
                       decision.option);
    }
    m_now = step.next;
}

RunResult Engine::run() {
    m_result.policy = m_policy.name();
    m_result.startUtc = m_in.startUtc;
    m_result.deadlineUtc = m_in.deadlineUtc;
    const bool hard = m_in.modelling.deadlineMode == ModellingOptions::DeadlineMode::Hard;
    checkFeasible();
    if (!planPolicy()) {
        finish();
        return std::move(m_result);
    }
    m_now = static_cast<double>(m_in.startUtc);
    m_state = m_policy.launchOption();
    if (m_state != kNotStarted && (m_state < 0 || m_state >= m_costs.optionCount()))
        throw InputError(m_in.sourceName, 0, 0,
                         "policy '" + m_policy.name() + "' launches the job in option " +
                             std::to_string(m_state) + ", outside the menu of " +
                             std::to_string(m_costs.optionCount()));
    std::size_t index = 0;
    while (!m_finished && !m_traceEnded) {
        const CarbonTrace& trace = m_in.regions[static_cast<std::size_t>(m_region)];
        if (m_now >= static_cast<double>(trace.endUtc())) {
            m_traceEnded = true;
            break;
        }
        if ((m_hooks.cancel != nullptr && m_hooks.cancel->load()) ||
            (m_hooks.progress && !m_hooks.progress(m_done / m_in.totalWork))) {
            m_result.cancelled = true;
            m_result.warnings.push_back("cancelled at " + formatIsoUtc(wholeSecond(m_now)));
            break;
        }
        m_forecastValid = false;
        Decision decision = askPolicy(index++);
        Step step = stepFor(decision);
        if (hard)
            keepHardDeadline(decision, step);
        carryOut(std::move(decision), step);
    }
    finish();
    return std::move(m_result);
}

// What the run's reader must know: assumed time zones, an unfinished job, the policy's and the forecasts'
// own.
void Engine::collectWarnings() {
    for (const CarbonTrace& region : m_in.regions)
        if (region.timeZoneAssumed)
            m_result.warnings.push_back(timeZoneAssumedWarning(region));
    if (m_traceEnded && !m_finished)
        m_result.warnings.emplace_back("the carbon trace ended before the job finished");
    if (!m_finished && !m_result.cancelled && !m_traceEnded)
        m_result.warnings.emplace_back("the job did not finish");
    for (std::string& warning : m_policy.warnings())
        m_result.warnings.push_back(std::move(warning));
    for (const std::unique_ptr<Forecaster>& forecaster : m_forecasters)
        if (forecaster)
            if (std::string warning = forecaster->coverageWarning(); !warning.empty())
                m_result.warnings.push_back(std::move(warning));
}

void Engine::finish() {
    RunMetrics& metrics = m_result.metrics;
    double heldSeconds = 0.0;
    for (const IntervalRecord& record : m_result.series) {
        metrics.operationalG += record.emissionsG;
        metrics.marginalG += record.marginalEmissionsG;
        metrics.embodiedG += record.embodiedG;
        metrics.energyJ += record.energyJ;
        metrics.workDone += record.workDone;
        metrics.gpuCostUsd += record.gpuCostUsd;
        metrics.energyCostUsd += record.energyCostUsd;
        metrics.carbonCostUsd += record.carbonCostUsd;
        if (record.gpusHeld > 0)
            heldSeconds += record.facilityPowerW > 0.0 ? record.energyJ / record.facilityPowerW
                                                       : static_cast<double>(record.end - record.start);
    }
    metrics.totalG = metrics.operationalG + metrics.embodiedG;
    metrics.costUsd = metrics.gpuCostUsd + metrics.energyCostUsd + metrics.carbonCostUsd;
    if (!m_prices.gpusPriced())
        m_result.warnings.emplace_back("no GPU-hour price (the cluster has none and the scenario sets no "
                                       "gpu_price_usd_per_hour): GPU cost is counted as 0");
    // The same schedule at both ends of the attribution: the parked GPUs' emissions counted whole, or
    // not at all. The charged share (1 - backfill) of them is already in totalG.
    const double charged = m_costs.chargedParkedShare();
    metrics.dedicatedG = metrics.totalG + (1.0 - charged) * m_parkedFullG;
    metrics.sharedG = metrics.totalG - charged * m_parkedFullG;
    metrics.finished = m_finished;
    const double end = m_finished ? m_completionUtc : m_now;
    metrics.completionSeconds = end - static_cast<double>(m_in.startUtc);
    metrics.lateSeconds = std::max(0.0, end - static_cast<double>(m_in.deadlineUtc));
    if (metrics.lateSeconds <= kDeadlineToleranceS)
        metrics.lateSeconds = 0.0;
    metrics.deadlineMet = m_finished && metrics.lateSeconds == 0.0;
    if (m_in.modelling.deadlineMode == ModellingOptions::DeadlineMode::Soft)
        metrics.deadlinePenaltyG = m_in.modelling.softDeadlinePenaltyGPerHour * metrics.lateSeconds / 3600.0;
    metrics.averagePowerW = heldSeconds > 0.0 ? metrics.energyJ / heldSeconds : 0.0;
    metrics.workPerGram = metrics.totalG > 0.0 ? metrics.workDone / metrics.totalG : 0.0;
    // Not for a cancelled run: the user asked it to stop, and the bound would be read against no total.
    if (!m_result.cancelled)
        metrics.lowerBoundG = certifiedLowerBound(m_in, m_costs).g;
    collectWarnings();

    // The modelling options under the keys of the scenario file (domain/ModellingFields.h), then the rules
    // and inputs the engine applied that are not options.
    auto& modelling = m_result.modelling;
    modelling = modellingRecord(m_in.modelling);
    modelling["preemption_rule"] = "pause is instant; checkpoint+restore is charged once at resume";
    modelling["carbon_integration"] = "exact per trace slot";
    modelling["carbon_signal"] = carbonSignalName(m_in.regions.front().signal);
    modelling["pue"] = number(m_in.pue);
    modelling["idle_w_per_gpu"] = number(m_in.idlePowerPerGpuW);
    modelling["idle_w_per_node"] = number(m_in.idlePowerPerNodeW);
    modelling["gpus_per_node"] = std::to_string(m_in.gpusPerNode);
    modelling["embodied_g_per_gpu_s"] = number(m_in.embodiedGPerGpuSecond);
    modelling["gpus_held"] = std::to_string(m_in.gpusHeld);

    const CarbonTrace& trace = planInput().regions.front(); // the signal the forecaster forecast
    if (m_policy.perfectKnowledge()) {
        m_result.forecastKind = kPerfectKnowledge;
    } else if (!m_forecastUsed) {
        m_result.forecastKind = kNoForecast;
    } else {
        m_result.forecastKind = m_in.forecast.kind;
        auto forecaster = makeForecaster(m_in.forecast, trace);
        const auto first = static_cast<std::size_t>((m_in.startUtc - trace.startUtc) / trace.stepSeconds);
        const auto last = static_cast<std::size_t>(
            (m_in.deadlineUtc - trace.startUtc + trace.stepSeconds - 1) / trace.stepSeconds);
        m_result.forecastMape =
            forecastMape(*forecaster, trace, first, last,
                         forecastHorizonSlots(trace, m_in.forecast.effectiveHorizonHours()));
    }
}

} // namespace

void checkTracesCoverJob(const SimulationInput& in) {
    for (const CarbonTrace& trace : in.regions) {
        if (in.startUtc < trace.startUtc || in.deadlineUtc > trace.endUtc())
            throw InputError(in.sourceName, 0, 0,
                             "expected the trace of region '" + trace.regionId + "' (" +
                                 formatIsoUtc(trace.startUtc) + " to " + formatIsoUtc(trace.endUtc()) +
                                 ") to cover the job from its start " + formatIsoUtc(in.startUtc) +
                                 " to its deadline " + formatIsoUtc(in.deadlineUtc) +
                                 ": start earlier, train fewer tokens, give it more GPUs or less slack, or "
                                 "use a trace that reaches the deadline");
    }
}

RunResult simulate(const SimulationInput& input, Policy& policy, const SimulationHooks& hooks) {
    validate(input);
    Engine engine(input, policy, hooks);
    return engine.run();
}

RunResult simulate(const SimulationInput& input, const PolicySpec& spec, const SimulationHooks& hooks) {
    std::unique_ptr<Policy> policy = makePolicy(spec);
    return simulate(input, *policy, hooks);
}

std::int64_t slotDecisionStride(const CarbonTrace& trace) {
    const std::int64_t step = std::max<std::int64_t>(1, trace.stepSeconds);
    return step * std::max<std::int64_t>(1, (kMinSlotDecisionIntervalS + step - 1) / step);
}

std::vector<UtcSeconds> decisionPoints(const SimulationInput& input, int region) {
    validate(input);
    std::vector<UtcSeconds> points{input.startUtc};
    const auto interval = static_cast<std::int64_t>(std::llround(input.modelling.decisionIntervalSeconds));
    const CarbonTrace& trace = input.regions[static_cast<std::size_t>(region)];
    UtcSeconds t = input.startUtc;
    while (t < input.deadlineUtc) {
        UtcSeconds next = 0;
        if (interval > 0) {
            next = input.startUtc + ((t - input.startUtc) / interval + 1) * interval;
        } else {
            const std::int64_t stride = slotDecisionStride(trace);
            next = trace.startUtc + ((t - trace.startUtc) / stride + 1) * stride;
        }
        t = std::min(next, input.deadlineUtc);
        points.push_back(t);
    }
    return points;
}

} // namespace carbon3d
