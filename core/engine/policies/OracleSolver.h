// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <functional>
#include <string>
#include <vector>

namespace carbon3d {

// A schedule in the engine's terms: per decision point an action (a menu index, kPaused or kNotStarted)
// and the region it is taken in. A pause names the region the job is paused in (where its checkpoint is):
// the engine reads a pause elsewhere as staying put, the oracle's model as a schedule it cannot run.
struct OracleSchedule {
    std::vector<int> actions;
    std::vector<int> regions; // empty: every action in region 0
    std::string source = {};  // who made it (a policy's name), for the oracle's account of its schedule
};

// The offline optimum over the engine's decision grid, on the true traces of the regions, with the same
// menu, overheads (migrations included), idle/embodied charges and deadline as the engine (docs/ENGINE.md,
// "oracle"). It plans over every region when they share the start region's decision grid and its table
// stays small enough, else over the start region alone (plannedRegions and singleRegionReason say so).
struct OracleSolution {
    std::vector<UtcSeconds> points; // decision points (start .. deadline)
    std::vector<int> actions;       // state to choose at each point (kPaused/kNotStarted or a menu index)
    std::vector<int> regions;       // the region of each action
    int plannedRegions = 1;         // the regions it planned over: all of the input's, or the first
    std::string singleRegionReason; // why only the first, when the input has more
    double costG = 0.0;             // emissions of the schedule as the engine will charge them
    double lowerBoundG = 0.0;       // Lagrangian bound (full-interval relaxation); equals costG when exact
    // "exact" (proven optimal), else where the best schedule found came from: "lagrangian",
    // "seeded" (a seed's schedule, improved locally: seededFrom names its source), "single-option" (one
    // option with pauses) or "bucketed-dp"
    std::string method;
    std::string seededFrom;
    int multipliersTried = 0;
    std::size_t labels = 0; // labels the last completed label search created
};

// Emissions of each schedule under the oracle's model: equals the engine's total for the same schedule;
// infinity when it does not finish by the deadline or runs in a region the oracle does not plan over.
// (Many at once: the model's tables are built once per call.)
std::vector<double> oracleScheduleCosts(const PlanningContext& context,
                                        const std::vector<OracleSchedule>& schedules);

// Schedules other planners made of the same job, asked for only when the oracle's own search has not
// proven its schedule optimal (OracleSeeds.h: a run of each catalogue policy).
using OracleSeedSource = std::function<std::vector<OracleSchedule>()>;

// method: "lagrangian" (DP on carbon - lambda x work, bisection on lambda, the best trimmed schedule
// among the multipliers tried, the wait-then-run family and local search, then the seeds), "exact" (that,
// then single-option searches and a Pareto-label search over (point, state) pruned by a completion bound,
// once more from the least seed where it is cheaper: optimal, throws InputError beyond maxLabels),
// "auto" (exact, else the best found, improved by a bucketed search where small). Seeds are candidates:
// where one beats the search's own schedule, the oracle starts from it, so it never emits more than they
// do. docs/ENGINE.md, oracle.
OracleSolution solveOracle(const PlanningContext& context, const std::string& method, std::size_t maxLabels,
                           const OracleSeedSource& seeds = {});

} // namespace carbon3d
