// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <string>
#include <vector>

namespace carbon3d {

struct LookaheadParameters {
    double horizonSteps = 200.0;    // H: lookahead in training steps
    double decideEverySteps = 50.0; // k: re-decide after this many steps (at the next decision point)
    double switchSeconds = 60.0;    // the prototype's switch cost: time ...
    double switchPowerW = 600.0;    // ... at this power
    double emaAlpha = 0.3;          // EMA weight of a new measurement of power and step time
    double stepWork = 0.0;        // work units per training step; 0: the job's (SimulationInput::workPerStep)
    bool countSwitchTime = false; // corrected form: feasibility includes the switch time
};

// The dynamic-parallelism authors' prototype policy (docs/MODEL.md 9.4): every k steps, among the options
// that can still meet the deadline, pick the one with the least forecast carbon over the next H steps,
// counting the switch cost (switchSeconds at switchPowerW at the current forecast CI) when it differs from
// the running one. Power and step time per option are EMA estimates (alpha 0.3) refined by each
// interval's measurement; in this simulator a measurement equals the menu's value, so the EMA keeps the
// menu's numbers (kept for faithfulness). FAITHFUL by default: feasibility ignores the switch time, which
// with a long horizon and a tight deadline makes it switch to a slower option that is no longer feasible
// once the switch has cost its time, then back, and so on. countSwitchTime = true counts it and removes
// the oscillation. No option feasible: the fastest.
class GreedyLookaheadPolicy : public Policy {
public:
    explicit GreedyLookaheadPolicy(LookaheadParameters parameters)
        : m_p(parameters) {}
    std::string name() const override { return "greedy-lookahead"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;

    std::vector<std::string> warnings() const override { return m_warnings; }

private:
    LookaheadParameters m_p;
    double m_stepWork = 0.0; // in force: the option, or the job's step
    std::vector<std::string> m_warnings;
    const CostModel* m_costs = nullptr;
    std::vector<double> m_powerW; // EMA of facility power per option, W
    std::vector<double> m_stepS;  // EMA of step time per option, s
    double m_lastDecisionUtc = -1.0;
    int m_choice = kNotStarted;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo greedyLookaheadPolicyInfo();

} // namespace carbon3d
