// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "perf/ConfigSearch.h"
#include "validation/ExpertAllToAll.h"
#include "validation/MoeRuns.h"

#include <ostream>
#include <string>
#include <vector>

// docs/VALIDATION.md, "Mixture of experts": what the expert-parallel terms of the performance model rest on
// (DeepEP's measured dispatch and combine bandwidths), and what the search makes of each mixture-of-experts
// preset on a DGX H100 cluster.
namespace carbon3d::reports {

// The fastest configuration the search finds for one preset.
struct MoePresetSearch {
    std::string model; // preset id
    double totalParams = 0.0, activeParams = 0.0;
    int gpus = 0;
    long long feasible = 0, enumerated = 0;
    bool found = false;
    RankedConfig best;
};

// A held-out run predicted from its published configuration.
struct MoeRunPrediction {
    MoeRun run;
    bool feasible = false;
    std::string reason;    // why not, when infeasible
    ParallelConfig config; // as predicted (the recomputation chosen where the run did not publish one)
    PerfEstimate estimate;
    double predictedTokensPerSPerGpu = 0.0;
    double ratio() const { return predictedTokensPerSPerGpu / run.measuredTokensPerSPerGpu; }
};

struct MixtureOfExpertsCheck {
    ExpertAllToAllFit allToAll;
    std::vector<MoeRunPrediction> heldOut;
    std::vector<MoePresetSearch> presets;
    int presetGpus = 0;
    int presetGlobalBatch = 0;
};

// The fit from dataDirectory; the presets' searches under `calibration` on the DGX H100 preset.
MixtureOfExpertsCheck checkMixtureOfExperts(const std::string& dataDirectory,
                                            const PerfCalibration& calibration);

void renderMixtureOfExperts(std::ostream& md, const MixtureOfExpertsCheck& check,
                            const PerfCalibration& calibration);

} // namespace carbon3d::reports
