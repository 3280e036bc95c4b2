// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ParallelConfig.h"
#include "domain/TrainingJob.h"

#include <string>
#include <vector>

namespace carbon3d {

// One held-out mixture-of-experts run of tests/data/validation/moe_runs/runs.csv: its job, cluster and
// published layout, and the throughput it measured.
struct MoeRun {
    std::string source;
    std::string stack; // what ran it, as published
    int line = 0;
    TrainingJob job;        // the preset model, precision and global batch
    ClusterProfile cluster; // the preset or the folder's profile, with the row's expert_comm_overlap
    ParallelConfig config;  // the published layout; recompute as published unless chooseRecompute
    bool chooseRecompute = false;
    double measuredTokensPerSPerGpu = 0.0; // the published figure in tokens per second per GPU
    double measured = 0.0;                 // as published, in measuredUnit
    std::string measuredUnit;
};

// Reads moe_runs/runs.csv under dataDir. InputError names the file, line and column of a bad value (an
// unknown preset, a layout whose degrees do not multiply to the GPUs, an unknown unit).
std::vector<MoeRun> readMoeRuns(const std::string& dataDir);

} // namespace carbon3d
