// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

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
// Full description and rationale: docs/ENGINE.md.
class Dynamic3dPolicy : public Policy {
public:
    // beyondHorizonRisk: past the forecast horizon the plan prices each hour at the last 7 days' mean
    // for that hour of day plus this many of their standard deviations (0: the mean; docs/DECISIONS.md).
    Dynamic3dPolicy(double hysteresisHours, bool hysteresis, double beyondHorizonRisk)
        : m_hysteresisHours(hysteresisHours)
        , m_hysteresis(hysteresis)
        , m_beyondHorizonRisk(beyondHorizonRisk) {}
    std::string name() const override { return "dynamic-3d"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;

private:
    double m_hysteresisHours;
    bool m_hysteresis;
    double m_beyondHorizonRisk;
    const CostModel* m_costs = nullptr;
    const SimulationInput* m_input = nullptr;
    double m_reserveS = 0.0;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo dynamic3dPolicyInfo();

} // namespace carbon3d
