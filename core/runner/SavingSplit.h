// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "engine/SimulationInput.h"

#include <optional>
#include <vector>

namespace carbon3d {

struct PreparedScenario;

// Where a run's saving against the carbon-agnostic baseline comes from, measured by counterfactual runs of
// the same engine on the same job, forecast and attribution (docs/MODEL.md, "Where a saving comes from").
// At each end of the attribution of parked GPUs, with E the end's total (RunMetrics::dedicatedG, sharedG):
//   configuration = E(baseline) - E(best fixed configuration), the better of the baseline (itself one
//                   configuration held throughout) and best-static: never below 0
//   timing        = E(best fixed configuration) - E(strongest simpler plan), the strongest being the best
//                   pausing and shifting plan when it beats the best fixed configuration: never below 0
//   beyond        = E(strongest simpler plan) - E(run): for dynamic-3d, what only reshaping adds
// so the three sum to E(baseline) - E(run) by construction.
struct SplitReferences {
    RunMetrics baseline;                        // the catalogue's default baseline (static-max)
    std::vector<RunMetrics> fixedConfiguration; // every SimplerPlan::FixedConfiguration policy's run
    std::vector<RunMetrics> timing;             // every SimplerPlan::Timing policy's run
};

// The references for a prepared scenario: a run in `done` counts for its policy when that policy ran with
// its default options (and is not cancelled); the others are run now, with `hooks`' cancel only. Empty
// (no baseline run) when a run was cancelled.
std::optional<SplitReferences> splitReferences(const PreparedScenario& prepared,
                                               const std::vector<RunResult>& done,
                                               const SimulationHooks& hooks = {});

// Fills the run's split at both ends; the baseline policy's own run keeps NaN (it saves nothing by
// definition).
void attachSavingSplit(RunResult& run, const SplitReferences& references);

} // namespace carbon3d
