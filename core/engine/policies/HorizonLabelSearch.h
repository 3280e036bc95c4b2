// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/policies/ScheduleGraph.h"

#include <cstddef>

namespace carbon3d {

// What the label search made of one horizon's program.
struct HorizonSearchResult {
    bool complete = false;   // false: it stopped at its label cap; `path` is the best it had found
    SchedulePath path;       // the optimal schedule, one state per slot; empty states: none meets the target
    double objectiveG = 0.0; // its carbon less the unused tail of the completing slot, as the program counts
};

// The ILP policy's program over one horizon that reaches the deadline (IlpPolicy.h: a path through the
// schedule graph meeting the work target, the unused tail of the completing slot credited), solved to
// optimality. The schedules are split by the slot in which the job last trains (a scope); each scope is
// searched forward over Pareto labels (carbon, work, usable seconds) per slot and state, and a label is
// dropped when a bound says no schedule through it beats the best known. The bound is the Lagrangian one
// of the work row within the scope: for any lambda >= 0, carbon to go >= (least carbon - lambda x work to
// go) + lambda x work still needed, lambda chosen to make the scope's bound highest. Scopes are taken
// cheapest bound first; one whose bound cannot beat the best known is skipped; else a narrow search (a
// few labels per slot and state, least bound first) finds a good schedule, and the full search proves or
// improves it. `incumbent` (a schedule meeting the target, or empty states) starts the best known. Stops
// at `maxLabels` labels with complete = false.
// Why per scope: the program's LP relaxation (and the Lagrangian bound over all scopes, which equals it)
// averages schedules that complete at different times; on the default scenario that left gaps of 5 to
// 20 % that branch and bound did not close in 300 nodes (docs/POLICIES.md, ilp).
HorizonSearchResult searchHorizon(const ScheduleGraph& graph, const CostModel& costs, double target,
                                  const SchedulePath& incumbent, std::size_t maxLabels);

} // namespace carbon3d
