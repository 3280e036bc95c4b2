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
    // "exact" (proven optimal), else where the best schedule found came from: "lagrangian",
    // "single-option" (one option with pauses) or "bucketed-dp"
    std::string method;
    int multipliersTried = 0;
    std::size_t labels = 0; // labels the last completed label search created
};

// Emissions of a schedule (one action per decision point) under the oracle's model: equals the
// engine's total for the same schedule; infinity when it does not finish by the deadline.
double oracleScheduleCost(const PlanningContext& context, const std::vector<int>& actions);

// method: "lagrangian" (DP on carbon - lambda x work, bisection on lambda, the best trimmed schedule
// among the multipliers tried, then the wait-then-run family and local search), "exact" (that, then
// single-option searches and a Pareto-label search over (point, state) pruned by a completion bound:
// optimal, throws InputError beyond maxLabels), "auto" (exact, else the best found, improved by a
// bucketed search where small). docs/ENGINE.md, oracle.
OracleSolution solveOracle(const PlanningContext& context, const std::string& method, std::size_t maxLabels);

} // namespace carbon3d
