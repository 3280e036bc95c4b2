// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"

#include <string>
#include <vector>

namespace carbon3d {

struct PreparedScenario;

// What decides whether dynamic 3D parallelism can pay for one job, before any run (docs/MODEL.md, "Does
// reshaping pay?"): how much less energy per token the menu's most efficient configuration spends than the
// full-size one, whether the GPUs a smaller configuration parks are charged to the job, and how far the
// grid swings within a day over the job's window.
struct ReshapingOutlook {
    std::string fullSize;      // the fastest option (what static-max runs), e.g. "d64 t1 p1"
    std::string mostEfficient; // the option of least energy per unit of work as this job is charged
    int fullSizeGpus = 0;
    int mostEfficientGpus = 0;
    // Facility energy per unit of work (J per token), counting the active GPUs and their nodes only.
    double fullSizeJPerWork = 0.0;
    double mostEfficientActiveJPerWork = 0.0; // of the least-energy option by that count
    // ... and as this job is charged: plus the charged share of parked GPUs' and nodes' idle power.
    double mostEfficientChargedJPerWork = 0.0;
    double chargedParkedShare = 1.0; // 1 - backfill
    // Mean over the window's whole days of (max - min) / mean carbon intensity within the day; with the
    // window's lowest and highest slot.
    double dailySwing = 0.0;
    double windowMinGPerKwh = 0.0;
    double windowMaxGPerKwh = 0.0;

    // Full size over the most efficient: how much more energy a token costs at full size (>= 1).
    double activeSpread() const { return fullSizeJPerWork / mostEfficientActiveJPerWork; }
    double chargedSpread() const { return fullSizeJPerWork / mostEfficientChargedJPerWork; }
};

ReshapingOutlook reshapingOutlook(const PreparedScenario& prepared);

// The outlook in sentences for a first-time user, and, when `runs` hold a split run of the seed policy
// (dynamic-3d, the catalogue's focused policy), what it drew from a more efficient configuration, from timing
// and from reshaping (shared by the CLI and the studio).
std::vector<std::string> reshapingOutlookText(const ReshapingOutlook& outlook,
                                              const std::vector<RunResult>& runs);

} // namespace carbon3d
