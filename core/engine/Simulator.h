// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "engine/Policy.h"
#include "engine/SimulationInput.h"

#include <vector>

namespace carbon3d {

// Plays one job forward through the traces under `policy` and accounts for every joule and gram.
// Rules (docs/ENGINE.md): decisions at every trace slot boundary of the current region (or every
// modelling.decisionIntervalSeconds from the start), at the start and at the deadline; overheads are
// not interruptible (decision points inside one are skipped); intervals split at slot boundaries,
// decisions, overhead ends and completion. Hard deadline: a decision that would leave the deadline
// unreachable is replaced by the fastest way to finish (counted in metrics.forcedDecisions).
// Throws InputError for an invalid input or an infeasible job (deadline unreachable from the start).
RunResult simulate(const SimulationInput& input, Policy& policy, const SimulationHooks& hooks = {});

// makePolicy(spec) then simulate.
RunResult simulate(const SimulationInput& input, const PolicySpec& policy, const SimulationHooks& hooks = {});

// Every decision point in [start, deadline] for the job starting in `region` (the grid the policies
// and the oracle share).
std::vector<UtcSeconds> decisionPoints(const SimulationInput& input, int region = 0);

// 1 - run / baseline on total emissions (operational + embodied); 0 when the baseline emits nothing.
double savingsFraction(const RunMetrics& run, const RunMetrics& baseline);

} // namespace carbon3d
