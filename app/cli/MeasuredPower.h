// SPDX-License-Identifier: MIT
#pragma once

#include "cli/CliArguments.h"
#include "domain/ClusterProfile.h"
#include "perf/PerfModel.h"

#include <ostream>
#include <vector>

// estimate's --measured-power: a power log set beside the model's power for the configuration, the
// calibration of the cluster's GPU power that would match it (shown, written only when asked), and the
// measured operating point (docs/DATA.md "Measured power").
namespace carbon3d::cli {

std::vector<FlagSpec> measuredPowerFlags();

// Does nothing without --measured-power. Writes --write-cluster and --points files when given.
void reportMeasuredPower(const CliArguments& args, const ClusterProfile& cluster, const PerfProblem& problem,
                         const ParallelConfig& config, const PerfEstimate& estimate, double powerLimitW,
                         std::ostream& out);

} // namespace carbon3d::cli
