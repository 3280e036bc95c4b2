// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <string>
#include <vector>

namespace carbon3d {

// The offline optimum over the engine's decision grid, on the true trace of region 0, with the same
// menu, overheads, idle/embodied charges and deadline as the engine (docs/ENGINE.md, "oracle").
struct OracleSolution {
    std::vector<UtcSeconds> points; // decision points (start .. deadline)
    std::vector<int> actions;       // state to choose at each point (kPaused/kNotStarted or a menu index)
    double costG = 0.0;             // emissions of the schedule as the engine will charge them
    double lowerBoundG = 0.0;       // Lagrangian bound (full-interval relaxation); equals costG when exact
    std::string method;             // "exact" or "lagrangian"
    int multipliersTried = 0;
    std::size_t labels = 0; // exact method: Pareto labels created
};

// method: "exact" (Pareto-label DP over (point, state) with (work, carbon) labels: optimal, throws
// InputError beyond maxLabels), "lagrangian" (DP on carbon - lambda x work, bisection on lambda,
// best trimmed schedule among the multipliers tried), "auto" (exact, else lagrangian).
// Emissions of a schedule (one action per decision point) under the oracle's model: equals the
// engine's total for the same schedule; infinity when it does not finish by the deadline.
double oracleScheduleCost(const PlanningContext& context, const std::vector<int>& actions);

OracleSolution solveOracle(const PlanningContext& context, const std::string& method, std::size_t maxLabels);

} // namespace carbon3d
