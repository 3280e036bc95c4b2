// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/SimulationInput.h"

namespace carbon3d {

// A certified lower bound on what any schedule of this job can emit (operational + embodied, plus the
// soft deadline's penalty): no policy that finishes the work can do better, whatever its menu order,
// region, decision grid or overheads (docs/ENGINE.md, "The lower bound").
//
// It relaxes the engine in four ways, each of which can only lower the optimum: every carbon-intensity
// slot is a decision point; at every moment the job may use the cleanest of its regions (migration is
// free); reconfigurations, restarts and migrations take no time and cost no more than the cheapest of
// pausing or any overhead; and each option's share of a slot may be fractional (the linear relaxation).
// The value is the Lagrangian dual of that relaxation, max over lambda >= 0 of
// lambda x work + min over paths (cost - lambda x work), which bounds it from below for every lambda
// (weak duality), so an inexact search over lambda still gives a valid bound.
struct LowerBound {
    double g = 0.0;          // the bound, gCO2e; 0 when the job cannot finish within the traces
    double multiplier = 0.0; // lambda at the bound, g per work unit: the marginal carbon of work
};

LowerBound certifiedLowerBound(const SimulationInput& input, const CostModel& costs);

} // namespace carbon3d
