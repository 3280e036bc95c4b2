// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <string>
#include <vector>

namespace carbon3d {

struct IlpParameters {
    double horizonHours = 48.0; // rolling horizon of each integer program
    double resolveHours = 6.0;  // re-solve at least this often (and whenever the run leaves the plan)
    double mipGap = 0.01;       // relative MIP gap at which a solve stops (docs/POLICIES.md: why 1 %)
    int nodeLimit = 300;        // branch-and-bound nodes per solve; reaching it keeps the best schedule
    // GLPK tm_lim per solve: a wall-clock safety net only, far above any solve the node limit allows
    // (52 ms on average in Release on the default scenario's menu), so that it never decides a result
    // on a working machine; when it does fire, the run's warnings say so (docs/DECISIONS.md).
    double timeLimitMs = 300000.0;
    // false (option solver=labels): a horizon whose heuristic schedule is within mipGap of its LP bound
    // keeps it, one reaching the deadline is solved by completion slot (HorizonLabelSearch.h), the rest by
    // branch and bound. true (solver=glpk): branch and bound for every horizon (docs/POLICIES.md, ilp).
    bool branchAndBoundOnly = false;
};

// What one solve produced (exposed for tests and benchmarks).
struct IlpSolve {
    std::vector<int> plan;           // per forecast piece: menu option or kPaused
    std::vector<double> pieceStarts; // when each piece of the plan starts, s since the epoch
    bool solved = false;             // the program's schedule; false: the greedy fallback
    std::string method;              // "branch and bound" (GLPK) or "completion-slot search"
    double objectiveG = 0.0;         // the schedule's forecast grams as the program counts them (solved)
    std::string limit;               // the node or time limit that stopped the search (schedule not proven)
    std::string failure;             // why the fallback was used
};

// The carbon-aware training article's scheduler (docs/MODEL.md 9.7): per slot of a rolling horizon, which
// option runs (or none), minimising forecast carbon subject to the work target, with switching costs.
// Formulated as a path through (slot, state), states = not started, paused, finished, each option: one
// binary per allowed transition with its carbon (forecast CI x energy + embodied of held GPUs; a switch
// or resume pays overhead power and loses rate x overhead seconds of work, as the engine charges it) and
// flow conservation, plus one work row: sum work >= target. A continuous u[s][k] leaves the tail of the
// completing slot unused. The paths alone form an integral polytope, so only the work row separates the
// LP relaxation from the integer optimum.
// Target: all the remaining work when the deadline is inside the horizon, else the larger of the pro-rata
// share (remaining x horizon / time to deadline) and what the fastest option could not do after the
// horizon.
// Each solve starts from a Lagrangian-path heuristic's schedule. By default (solver=labels) a horizon
// before the deadline keeps it where it is within mip_gap of the LP bound, and a horizon reaching the
// deadline is solved exactly by completion slot (HorizonLabelSearch.h); the rest (every horizon with
// solver=glpk) go to GLPK's branch and bound, seeded with it, stopped at mip_gap, the node limit
// (deterministic) or tm_lim (safeguard); at a limit the best schedule found is kept and counted. A solver
// failure or an infeasible target uses the greedy fallback (fastest option in the cheapest forecast slots).
// Both are reported in the run's warnings.
class IlpPolicy : public Policy {
public:
    explicit IlpPolicy(IlpParameters parameters)
        : m_p(parameters) {}
    std::string name() const override { return "ilp"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override;

    // One solve from `current` at time `now` with `remaining` work (public for tests).
    IlpSolve solve(const Forecast& forecast, double now, double deadline, double remaining,
                   int current) const;
    int solves() const { return m_solves; }
    int fallbacks() const { return m_fallbacks; }
    int limited() const { return m_limited; } // solves stopped by a search limit, best schedule kept

private:
    IlpParameters m_p;
    const CostModel* m_costs = nullptr;
    std::vector<int> m_plan;
    std::vector<double> m_planStarts;
    double m_solvedAt = -1.0;
    int m_solves = 0;
    int m_fallbacks = 0;
    int m_limited = 0;
    std::string m_firstFailure;
    std::string m_firstLimit;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo ilpPolicyInfo();

} // namespace carbon3d
