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
// --attention --cross-node-tp --cp --power-limit --json.
std::vector<FlagSpec> perfModelFlags();

// What estimate and search both read from those flags: the job's model and precision (its batch is each
// command's), the cluster from --cluster PRESET|FILE with the overrides applied (bandwidths in GB/s per
// GPU), and --power-limit (W; 0 when absent, UsageError outside the accelerator's range).
struct PerfModelInputs {
    TrainingJob job;
    ClusterProfile cluster;
    double powerLimitW = 0.0;
    bool crossNodeTp = false; // --cross-node-tp: a tensor-parallel group may straddle nodes
    int contextParallel = 1;  // --cp

    // The model's problem: makePerfProblem with the cross-node choice applied.
    PerfProblem problem() const;
};
PerfModelInputs perfModelInputsFromArgs(const CliArguments& args);

// One estimate as the JSON object of the estimate contract.
JsonValue estimateToJson(const PerfProblem& problem, const ParallelConfig& config,
                         const PerfEstimate& estimate, bool microBatchChosen, bool interleaveChosen);

} // namespace carbon3d::cli
