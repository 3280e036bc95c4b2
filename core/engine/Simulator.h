// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "engine/Policy.h"
#include "engine/SimulationInput.h"

#include <vector>

namespace carbon3d {

// Plays one job forward through the traces under `policy` and accounts for every joule and gram.
// Rules (docs/ENGINE.md): decisions at the trace slot boundaries of the current region, no more often
// than every 30 min (or every modelling.decisionIntervalSeconds from the start), at the start and at
// the deadline; overheads are
// not interruptible (decision points inside one are skipped); intervals split at slot boundaries,
// decisions, overhead ends and completion. Hard deadline: a decision that would leave the deadline
// unreachable is replaced by the fastest way to finish (counted in metrics.forcedDecisions).
// Throws InputError for an invalid input or an infeasible job (deadline unreachable from the start).
RunResult simulate(const SimulationInput& input, Policy& policy, const SimulationHooks& hooks = {});

// Throws InputError (naming the input's source, the trace's span and the job's, and what would fit) unless
// every region's trace covers the job from its start to its deadline. simulate checks it; a batch checks it
// once before running its policies, so that it fails once rather than once per policy.
void checkTracesCoverJob(const SimulationInput& input);

// makePolicy(spec) then simulate.
RunResult simulate(const SimulationInput& input, const PolicySpec& policy, const SimulationHooks& hooks = {});

// With the default decision interval (0), decisions fall on trace slot boundaries but no more often
// than this: finer data (5-minute traces) is still charged slot by slot, while a pause/resume or
// reconfiguration cycle stays longer than the default 10 min overheads, as in Let's Wait Awhile's and
// Chase's 30-minute slots; an explicit decision_interval_seconds decides as often as asked (>= 60 s).
constexpr std::int64_t kMinSlotDecisionIntervalS = 1800;
// The default grid's spacing for `trace`: the smallest multiple of its slot >= kMinSlotDecisionIntervalS.
std::int64_t slotDecisionStride(const CarbonTrace& trace);

// Every decision point in [start, deadline] for the job starting in `region` (the grid the policies
// and the oracle share).
std::vector<UtcSeconds> decisionPoints(const SimulationInput& input, int region = 0);

} // namespace carbon3d
