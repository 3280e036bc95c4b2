// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <memory>

namespace carbon3d {

// The seed policy (Aboualim and Lee, HotCarbon 2026): at every decision, choose the active data-
// parallel degree and (t, p) - one option of the Pareto menu - or a pause, on the forecast:
//  1. Lagrangian plan over the window to the deadline (less one reconfiguration, kept in reserve so
//     that feasibility counts switch time): each slot runs the state minimising
//     carbon - lambda x work, lambda the least value whose plan covers the remaining work;
//  2. candidates "run option k contiguously to completion" (k meeting the deadline); the cheapest
//     of these plans and the Lagrangian plan (forecast gCO2e, idle and embodied included) wins;
//  3. hysteresis: leave the running option only if the forecast Lagrangian saving over the run of
//     slots the plan keeps the new state (at most hysteresis_hours) exceeds the switch's cost
//     (overhead carbon + lambda x work lost during the overhead).
// On a forecast that is the truth to the deadline it first weighs that rule against the simpler plans it
// contains (one configuration throughout, pausing and shifting, elastic scaling: PlanPortfolio.h), each run
// by the engine, and follows the least: under a perfect forecast it is never worse than any of them.
// Full description and rationale: docs/ENGINE.md.
class Dynamic3dPolicy : public Policy {
public:
    // beyondHorizonRisk: past the forecast horizon the plan prices each hour at the last 7 days' mean
    // for that hour of day plus this many of their standard deviations (0: the mean; docs/DECISIONS.md).
    // comparePlans: under a perfect forecast, weigh the simpler plans first (false: the rule alone, an
    // ablation).
    Dynamic3dPolicy(double hysteresisHours, bool hysteresis, double beyondHorizonRisk, bool comparePlans)
        : m_hysteresisHours(hysteresisHours)
        , m_hysteresis(hysteresis)
        , m_beyondHorizonRisk(beyondHorizonRisk)
        , m_comparePlans(comparePlans) {}
    std::string name() const override { return "dynamic-3d"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override;

private:
    // Weighs the plans on the perfect forecast; sets m_followed (and m_follow unless its own rule is least).
    void choosePlan(const PlanningContext& context);
    // The Lagrangian rule with hysteresis (steps 1-3 above).
    Decision decideByRule(const DecisionState& state);

    double m_hysteresisHours;
    bool m_hysteresis;
    double m_beyondHorizonRisk;
    bool m_comparePlans;
    const CostModel* m_costs = nullptr;
    const SimulationInput* m_input = nullptr;
    double m_reserveS = 0.0;
    std::unique_ptr<Policy> m_follow; // the simpler plan followed, when one was least
    std::string m_followed;           // its name, or kOwnPlan; empty when no plans were weighed
    std::string m_weighing;           // what each plan was forecast to emit, for the first decision's reason
};

// What a run of it records beside its options when it weighed the simpler plans: the key, and its value when
// its own rule was the least (else the followed policy's name).
inline constexpr const char* kFollowedPlanKey = "followed_plan";
// The option that weighs the simpler plans before the first decision (true by default).
inline constexpr const char* kComparePlansKey = "compare_plans";
inline constexpr const char* kOwnPlan = "own";

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo dynamic3dPolicyInfo();

} // namespace carbon3d
