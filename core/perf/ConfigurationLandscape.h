// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ExecutionOption.h"
#include "domain/Scenario.h"
#include "perf/ConfigSearch.h"

#include <vector>

namespace carbon3d {

// Everything the Configurations page draws for one job and cluster: the fastest variant of every feasible
// (d, t, p) shape (micro-batch, interleave and recompute chosen for speed), the Pareto frontier of
// (facility power, throughput) and the menu dynamic-3d chooses from.
struct ConfigurationLandscape {
    std::vector<RankedConfig> shapes; // one per feasible (d, t, p), sorted by facility power
    std::vector<RankedConfig>
        frontier;       // paretoFrontier(): sorted by power, each faster than all cheaper ones
    ExecutionMenu menu; // buildExecutionMenu() for the same job, cluster and GPUs, with the goodput applied
    SearchStats stats;
    ModellingOptions modelling; // the scenario's, for the goodput the breakdown shows beside the step time
    std::string calibration;    // describeCalibration() of the cluster: what every number here rests on
};

// The shapes and frontier are steady state (the performance model); the menu is what the engine runs from,
// long-run losses included (applyGoodput with `modelling`).
ConfigurationLandscape configurationLandscape(const TrainingJob& job, const ClusterProfile& cluster,
                                              int maxGpus, const ModellingOptions& modelling);

} // namespace carbon3d
