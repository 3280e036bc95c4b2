// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ParallelConfig.h"

#include <algorithm>
#include <string>
#include <vector>

namespace carbon3d {

// One choice on the scheduler's menu: run the job this way, at this speed and this power.
// The performance model (core/perf) or a measured operating-points table produces the menu;
// the engine (core/engine) and every policy choose from it. "Paused" is not on the menu: the
// engine represents it separately.
struct ExecutionOption {
    ParallelConfig config;      // dp/tp/pp/... (for measured tables, only the varied fields are meaningful)
    int gpusActive = 0;         // GPUs doing work
    double powerLimitW = 0.0;   // per-GPU power limit, W (0 = default/maximum)
    double workPerSecond = 0.0; // throughput in the job's work units (tokens/s for language models)
    double activePowerW = 0.0;  // IT power of the active GPUs and their nodes' overhead, W (before PUE)
    // The active GPUs' own (board) power, W: activePowerW without the nodes' overhead. 0 when unknown (an
    // option built by hand); what Chase's cost uses, as Chase measures GPU power (with Zeus).
    double gpuPowerW = 0.0;
    bool measured = false; // true when throughput and power come from a measured table
    std::string label;     // short text for plots and tooltips
};

using ExecutionMenu = std::vector<ExecutionOption>;

// The most GPUs any option of the menu keeps busy (0 for an empty menu).
inline int mostActiveGpus(const ExecutionMenu& menu) {
    int most = 0;
    for (const ExecutionOption& option : menu)
        most = std::max(most, option.gpusActive);
    return most;
}

} // namespace carbon3d
