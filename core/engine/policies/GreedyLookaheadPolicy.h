// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <string>
#include <vector>

namespace carbon3d {

struct LookaheadParameters {
    double horizonSteps = 200.0;    // H: lookahead in training steps
    double decideEverySteps = 50.0; // k: re-decide after this many steps
    double switchSeconds = 60.0;    // the prototype's switch cost: time ...
    double switchPowerW = 600.0;    // ... at this power
    double emaAlpha = 0.3;          // EMA weight of a new measurement of power and step time
    double stepWork = 0.0;        // work units per training step; 0: the job's (SimulationInput::workPerStep)
    bool countSwitchTime = false; // corrected form: feasibility includes the switch time
    // The authors' rules, each an option whose default is theirs (docs/POLICIES.md, "greedy-lookahead"):
    bool launchFastest = true; // the job launches in the fastest option and pays a switch to leave it
    bool capHorizon = true;    // H is cut to the steps remaining
    bool shiftWindow = true;   // a switching option's window starts when its switch ends
    bool perStepCarbon = true; // the window's carbon is each step's energy at the CI where that step starts
    bool decideOnSteps = true; // decisions exactly every k steps, at whatever time that is
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
        : m_p(parameters)
        , m_decideOnSteps(parameters.decideOnSteps) {}
    std::string name() const override { return "greedy-lookahead"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    int launchOption() const override { return m_launch; }
    Decision decide(const DecisionState& state) override;

    std::vector<std::string> warnings() const override { return m_warnings; }

private:
    // The measurement of the interval just run refines the running option's estimates.
    void observe(int option);
    // The steps still to run: whole when the work is (round-off aside), else the last part step counts.
    double stepsRemaining(double workRemaining) const;
    // C(option | H, now): the forecast grams of `option` over the next `steps` steps, a switch from
    // `current` included.
    double lookaheadCarbon(int option, int current, double now, double steps, const Forecast& forecast) const;
    // The option of least lookahead carbon among those that can still meet the deadline; -1 when none can.
    int cheapestFeasible(const DecisionState& state, double& bestCost) const;

    LookaheadParameters m_p;
    // Decisions on steps come no closer than this: steps of a millisecond (a mistaken step_work) would
    // otherwise ask for millions of decisions.
    static constexpr double kShortestStepDecisionS = 1.0;
    double m_stepWork = 0.0;     // in force: the option, or the job's step
    bool m_decideOnSteps = true; // in force: the option, unless the steps are unknown or too short
    std::vector<std::string> m_warnings;
    const CostModel* m_costs = nullptr;
    std::vector<double> m_powerW; // EMA of facility power per option, W
    std::vector<double> m_stepS;  // EMA of step time per option, s
    double m_lastDecisionUtc = -1.0;
    int m_launch = kNotStarted;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo greedyLookaheadPolicyInfo();

} // namespace carbon3d
