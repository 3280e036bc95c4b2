// SPDX-License-Identifier: MIT
#pragma once

#include "cli/CliArguments.h"
#include "domain/ClusterProfile.h"
#include "domain/Json.h"
#include "domain/TrainingJob.h"
#include "perf/PerfModel.h"

#include <vector>

// Flags and output shared by the performance-model commands (estimate, search).
namespace carbon3d::cli {

// --model | --layers ... --seq-len ; --cluster [--gpus-per-node] [--intra-bw] [--inter-bw] ; --precision
// --power-limit --json.
std::vector<FlagSpec> perfModelFlags();

// The model from --model PRESET|FILE or from the shape flags (UsageError when both or neither).
ModelSpec modelFromArgs(const CliArguments& args);
// The cluster from --cluster PRESET|FILE with the overrides applied (bandwidths in GB/s per GPU).
ClusterProfile clusterFromArgs(const CliArguments& args);
Precision precisionFromArgs(const CliArguments& args);
double powerLimitFromArgs(const CliArguments& args, const ClusterProfile& cluster);

// One estimate as the JSON object of the estimate contract.
JsonValue estimateToJson(const ParallelConfig& config, const PerfEstimate& estimate, bool microBatchChosen,
                         bool interleaveChosen);

} // namespace carbon3d::cli
