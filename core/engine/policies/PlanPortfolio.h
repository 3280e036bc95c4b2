// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

// One plan weighed before the first decision: a catalogue policy (or the weigher's own rule, policy empty)
// and what it emits, engine-charged.
struct WeighedPlan {
    std::string policy; // empty: the weigher's own plan
    double emittedG = 0.0;
};

// Runs `own` and every catalogue policy whose traits mark it a simpler plan (PolicyTraits::simplerPlan)
// with its default options on `input`, and returns them in catalogue order with `own` last. What a plan
// emits counts a soft deadline's penalty with its total. Weighed on an input whose forecast is the truth to
// the deadline, each figure is exactly what that policy's own run of the input emits.
// Throws PlanningCancelled when `cancel` is set meanwhile.
std::vector<WeighedPlan> weighPlans(const SimulationInput& input, Policy& own,
                                    const std::atomic<bool>* cancel);

// The plan of least forecast emissions; on ties the earlier, so a simpler plan wins over reshaping that
// saves nothing.
const WeighedPlan& leastPlan(const std::vector<WeighedPlan>& plans);

} // namespace carbon3d
