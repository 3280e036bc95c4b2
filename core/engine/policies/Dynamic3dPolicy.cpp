// SPDX-License-Identifier: MIT
#include "engine/policies/Dynamic3dPolicy.h"

#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/PlanPortfolio.h"
#include "engine/policies/PlanningTools.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

namespace {

// What the plan does at this moment: the state it runs and its price of progress (lambda).
struct PlannedMove {
    int target;
    double lambda;
    bool contiguous; // one option run without a break to the end: it keeps `target` throughout
};

// A switch's forecast saving in Lagrangian value, and how far ahead it was summed (for the reason).
struct SwitchSaving {
    double saving = 0.0;
    double overS = 0.0;
};

// Work the plan defers lands past the horizon, where the profile is only a 7-day average: price it
// a risk margin dirtier, so that the plan defers only for a gain larger than a typical miss.
void addBeyondHorizonRisk(Forecast& forecast, double beyondHorizonRisk) {
    for (std::size_t q = 0; q < std::min(forecast.dailyProfile.size(), forecast.dailySpread.size()); ++q)
        forecast.dailyProfile[q] += beyondHorizonRisk * forecast.dailySpread[q];
}

// Saving of `target` over `current` while the plan keeps `target` (up to `horizonEnd`), in Lagrangian value.
SwitchSaving switchSaving(const CostModel& costs, const Forecast& forecast, const PlannedMove& planned,
                          int current, int pauseState, double now, double horizonEnd) {
    const int target = planned.target;
    const double lambda = planned.lambda;
    double saving = 0.0;
    double savedOverS = 0.0;
    bool first = true;
    for (const ForecastPiece& piece : forecast.pieces(now, std::max(now + 1.0, horizonEnd), false)) {
        const double ci = piece.ciGPerKwh;
        if (!first && !planned.contiguous && argminAtLambda(costs, ci, lambda, pauseState) != target)
            break;
        first = false;
        const double stay = costs.costRateGPerS(current, ci) - lambda * costs.workRate(current);
        const double move = costs.costRateGPerS(target, ci) - lambda * costs.workRate(target);
        saving += (stay - move) * piece.durationS;
        savedOverS += piece.durationS;
    }
    return {saving, savedOverS};
}

// The switch's cost in Lagrangian value: overhead carbon plus lambda x the work lost during the overhead.
double switchCostAt(const CostModel& costs, const PlannedMove& planned, int current, double ci) {
    const int target = planned.target;
    const double lambda = planned.lambda;
    double switchCost = 0.0;
    if (target >= 0) {
        const double o = costs.transitionSeconds(current, target);
        switchCost = costs.overheadCostRateGPerS(target, ci) * o + lambda * costs.workRate(target) * o;
    } else {
        // Pausing is free now but the resume pays a preemption at (about) the current option.
        const double o = costs.transitionSeconds(kPaused, current);
        switchCost = costs.overheadCostRateGPerS(current, ci) * o + lambda * costs.workRate(current) * o;
    }
    return switchCost;
}

} // namespace

std::map<std::string, std::string> Dynamic3dPolicy::options() const {
    std::map<std::string, std::string> in{{"hysteresis_hours", shortestNumber(m_hysteresisHours)},
                                          {"hysteresis", m_hysteresis ? "true" : "false"},
                                          {"beyond_horizon_risk", shortestNumber(m_beyondHorizonRisk)},
                                          {kComparePlansKey, m_comparePlans ? "true" : "false"}};
    // Not an option but what the weighing found, recorded with them as the oracle records how it solved.
    if (!m_followed.empty())
        in[kFollowedPlanKey] = m_followed;
    return in;
}

void Dynamic3dPolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_input = &context.input;
    m_reserveS = context.input.modelling.deadlineMode == ModellingOptions::DeadlineMode::Hard
                     ? std::round(context.input.modelling.reconfigurationSeconds)
                     : 0.0;
    m_follow.reset();
    m_followed.clear();
    m_weighing.clear();
    // Plans are weighed where the weighing is exact: in grams, on a forecast that is the truth to the
    // deadline. Elsewhere the rule alone decides: its risk margin keeps it near best-static when the forecast
    // misses, where a simpler plan chosen on a ridge forecast's word emitted up to 9.6 % more
    // (docs/DECISIONS.md).
    const SimulationInput& input = context.input;
    if (m_comparePlans && objective().value_or(Objective::Carbon) == Objective::Carbon &&
        forecastIsTheTruth(input.forecast, input.regions.front(), input.startUtc, input.deadlineUtc))
        choosePlan(context);
}

void Dynamic3dPolicy::choosePlan(const PlanningContext& context) {
    Dynamic3dPolicy own(m_hysteresisHours, m_hysteresis, m_beyondHorizonRisk, false);
    const std::vector<WeighedPlan> plans = weighPlans(context.input, own, context.cancel);
    const WeighedPlan& least = leastPlan(plans);
    m_followed = least.policy.empty() ? kOwnPlan : least.policy;
    if (!least.policy.empty()) {
        m_follow = makePolicy({least.policy, {}});
        m_follow->prepare(context);
    }
    const ReasonUnits units(objective());
    for (const WeighedPlan& plan : plans)
        m_weighing += (m_weighing.empty() ? "" : ", ") +
                      (plan.policy.empty() ? "its own rule" : plan.policy) + " " +
                      units.amount(plan.emittedG);
}

std::vector<std::string> Dynamic3dPolicy::warnings() const {
    return m_follow ? m_follow->warnings() : std::vector<std::string>{};
}

Decision Dynamic3dPolicy::decide(const DecisionState& state) {
    if (!m_follow && m_weighing.empty())
        return decideByRule(state);
    Decision decision = m_follow ? m_follow->decide(state) : decideByRule(state);
    if (!state.explain)
        return decision;
    const std::string followed = m_follow ? m_followed + "'s plan" : "its own rule";
    decision.reason = state.decisionIndex == 0
                          ? "weighed on the perfect forecast (" + m_weighing + "): follows " + followed +
                                ", the least; " + decision.reason
                          : "following " + followed + ": " + decision.reason;
    return decision;
}

Decision Dynamic3dPolicy::decideByRule(const DecisionState& state) {
    const CostModel& costs = *m_costs;
    Forecast forecast = state.forecast();
    addBeyondHorizonRisk(forecast, m_beyondHorizonRisk);
    const auto now = static_cast<double>(state.nowUtc);
    const auto deadline = static_cast<double>(state.deadlineUtc);
    const int current = state.currentOption;
    const int pauseState = current == kNotStarted ? kNotStarted : kPaused;
    const double remaining = state.workRemaining;

    const double windowEnd = std::max(now + 1.0, deadline - m_reserveS);
    const LambdaPlan plan = planByLambda(costs, forecast.pieces(now, windowEnd, true), remaining, pauseState);
    if (!plan.feasible) // behind schedule: the guard would force it anyway
        return {costs.fastestOption(), state.region,
                state.explain
                    ? "behind schedule: no plan on the forecast finishes by the deadline, so the fastest "
                      "option"
                    : ""};

    int target = plan.firstState;
    double lambda = plan.lambda;
    // A single option run contiguously to the end is also a candidate: taken when it costs less.
    const ContiguousChoice single =
        cheapestContiguousOption(costs, forecast, current, now, remaining, deadline);
    const bool contiguous = single.costG < plan.forecastCostG;
    if (contiguous) {
        target = single.option;
        lambda = single.costG / remaining; // average carbon per unit of work of that plan
    }

    // The plan's reasoning, for the "why" panel: its price of progress and what it says at this moment.
    const ReasonUnits units(objective());
    const auto planReason = [&] {
        std::string text = contiguous
                               ? "one option run without a break to the end (" + units.amount(single.costG) +
                                     " forecast) costs less than the switching plan (" +
                                     units.amount(plan.forecastCostG) + ")"
                               : "price of progress " + units.perMillionTokens(lambda) +
                                     " (the least at which the forecast plan finishes by the deadline); at " +
                                     units.perKwh(forecast.valueAt(now)) + " the plan " +
                                     (target < 0 ? "waits" : "runs this option") + ": it has the least " +
                                     units.emissions() + " minus price x tokens";
        return text;
    };
    if (!m_hysteresis || current < 0 || target == current)
        return {target, state.region, state.explain ? planReason() : ""};

    // Hysteresis: leave the running option only when the forecast saving exceeds what the switch costs.
    const PlannedMove planned{target, lambda, contiguous};
    const double horizonEnd = std::min(windowEnd, now + m_hysteresisHours * 3600.0);
    const SwitchSaving summed = switchSaving(costs, forecast, planned, current, pauseState, now, horizonEnd);
    const double saving = summed.saving;
    const double savedOverS = summed.overS;
    const double ci = forecast.valueAt(now);
    const double switchCost = switchCostAt(costs, planned, current, ci);
    const bool switches = saving > switchCost;
    if (!state.explain)
        return {switches ? target : current, state.region};
    return {switches ? target : current, state.region,
            planReason() + "; moving from " + stateText(*m_input, current) + " to " +
                stateText(*m_input, target) + " saves " + units.amount(saving) + " over the next " +
                hoursText(savedOverS) + " against " + units.amount(switchCost) +
                " for the switch: " + (switches ? "switches" : "stays (hysteresis)")};
}

PolicyInfo dynamic3dPolicyInfo() {
    PolicyInfo info{
        "dynamic-3d",
        "Each slot: active DP degree and (t, p) from the Pareto menu by a Lagrangian carbon-per-token rule "
        "on the forecast, with hysteresis against reconfiguration cost, deadline-safe.",
        "Carbon-Aware Dynamic Parallelism for Distributed Training (Aboualim and Lee, HotCarbon 2026)",
        {numberOption("hysteresis_hours", "12", 0, 24 * 365,
                      "horizon over which a switch's forecast saving must exceed its cost, h"),
         flagOption("hysteresis", true, "false switches whenever the plan changes (ablation)"),
         numberOption("beyond_horizon_risk", "1", 0, 10,
                      "past the forecast horizon, plan on the last 7 days' mean per hour of day plus this "
                      "many standard deviations"),
         flagOption(
             kComparePlansKey, true,
             "under a perfect forecast, weigh the simpler plans it contains (one configuration "
             "throughout, pausing and shifting, elastic scaling) and follow the least; false: the rule "
             "alone"),
         objectiveOption()},
        {},
        {0xD55E00, LineDash::Solid, PlotMarker::Star},
        [](const PolicyOptions& o) {
            return std::make_unique<Dynamic3dPolicy>(o.number("hysteresis_hours"), o.flag("hysteresis"),
                                                     o.number("beyond_horizon_risk"),
                                                     o.flag(kComparePlansKey));
        }};
    info.traits.focusedByDefault = true; // the central idea of the tool
    return info;
}

} // namespace carbon3d
