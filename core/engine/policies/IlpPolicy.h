// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <string>
#include <vector>

namespace carbon3d {

struct IlpParameters {
    double horizonHours = 48.0;  // rolling horizon of each integer program
    double resolveHours = 1.0;   // re-solve at least this often (and whenever the run leaves the plan)
    double timeLimitMs = 250.0;  // GLPK tm_lim per solve; a timeout keeps the incumbent or falls back
    double mipGap = 1e-3;        // relative MIP gap at which GLPK stops (0.1 %: far below forecast error)
};

// What one solve produced (exposed for tests and benchmarks).
struct IlpSolve {
    std::vector<int> plan; // per forecast piece: menu option or kPaused
    bool solved = false;   // GLPK proved an optimum; false: greedy fallback
    std::string failure;   // why the fallback was used
};

// The carbon-aware training article's scheduler (MODELING.md 8.9): per slot of a rolling horizon, which
// option runs (or none), minimising forecast carbon subject to the work target, with switching costs:
//   x[s][k] binary (option k runs in slot s, at most one per slot); r[s][k] / p[s][k] binary (slot s
//   starts with a reconfiguration into k from another option / a resume into k from a pause), tied exactly
//   to x by linear constraints; v[s] binary "the job has started" (the first start is free, pauses after it
//   charge held GPUs). A switch loses rate_k x overhead work and pays overhead power during it.
//   Work: sum rate x (slot - overhead) >= target; carbon: forecast CI x energy + embodied of held GPUs.
// Target: all the remaining work when the deadline is inside the horizon, else the larger of the pro-rata
// share (remaining x horizon / time to deadline) and what the fastest option could not do after the
// horizon. When the deadline is inside the horizon, a binary w[s] "finished" lets the plan stop holding
// GPUs, and a continuous u[s][k] leaves the tail of the completing slot unused, as the engine charges it.
// Solved with GLPK (branch and cut, presolve, tm_lim). A timeout keeps GLPK's incumbent when it has one; a
// solver failure, a timeout without an incumbent or infeasibility uses the greedy fallback (fastest option in
// the cheapest forecast slots). Both are counted in the run's warnings.
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
    int timeouts() const { return m_timeouts; } // solves stopped by the time limit with an incumbent

private:
    IlpParameters m_p;
    const CostModel* m_costs = nullptr;
    std::vector<int> m_plan;
    std::vector<double> m_planStarts;
    double m_solvedAt = -1.0;
    int m_solves = 0;
    int m_fallbacks = 0;
    int m_timeouts = 0;
    std::string m_firstFailure;
};

} // namespace carbon3d
