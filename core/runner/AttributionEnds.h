// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "engine/SimulationInput.h"

#include <string>

namespace carbon3d {

struct PreparedScenario;

// Who pays for the GPUs a policy parks changes what a policy decides, not only what its schedule costs:
// suspend-resume, the wait-awhiles and dynamic-3d weigh the idle power and embodied carbon of parked GPUs
// against the grid. So the answer at each end of the attribution comes from running the policy and its
// baseline at that end (docs/DECISIONS.md "The answer first"), not from re-pricing the schedule run
// at the scenario's own backfill, which is what RunMetrics::dedicatedG and sharedG do.
struct AttributionEnd {
    double backfill = 0.0; // 0: parked GPUs charged whole to the job; 1: released to other work
    RunMetrics baseline;
    RunMetrics run;
};

struct AnswerAtBothEnds {
    AttributionEnd charged;  // backfill 0: a dedicated reservation
    AttributionEnd released; // backfill 1: a shared cluster or cloud
};

// The prepared scenario with parked GPUs charged at `backfill`; the menu and the deadline do not depend on
// it.
PreparedScenario atBackfill(PreparedScenario prepared, double backfill);

// A run of a prepared scenario with the policy and options it was asked for (a run records more options than
// it takes: dynamic-3d's followed_plan is an outcome).
struct AskedRun {
    PolicySpec policy;
    RunMetrics metrics;
};

// `run` and `baseline` at both ends: an end equal to the scenario's own backfill reuses them, the other is
// simulated again with the same policies and options. Throws what runPolicy throws.
AnswerAtBothEnds runAtBothEnds(const PreparedScenario& prepared, const AskedRun& run,
                               const AskedRun& baseline, const SimulationHooks& hooks = {});

// One end's answer in words: "saves 21.3 % (5.14 t) for 4.2 % more cost, finishing 12 h later"; emissions
// in t, kg or g by their size; a cost or completion that is unknown is left out, an unfinished job said.
std::string answerText(const AttributionEnd& end);

} // namespace carbon3d
