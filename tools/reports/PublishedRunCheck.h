// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "perf/PerfModel.h"

// A published training run whose time and energy the model predicts from its configuration alone: an
// independent check (nothing is fitted to it) for docs/VALIDATION.md.
namespace carbon3d::reports {

// What was published about the run, with the configuration it ran.
struct PublishedRun {
    const char* name;
    int layers, hidden, heads, vocab, seqLen, globalBatch;
    int dp, tp, pp, microBatch;
    Recompute recompute;
    bool distributedOptimizer;    // ZeRO stage 1
    double interNodeBytesPerS;    // per GPU, one direction, of the machine it ran on
    double tokens;                // trained
    double allocatedGpuHours;     // published
    double publishedGpuEnergyKwh; // published
    double publishedEnergyBoardW; // the per-GPU power the published energy assumes
    double publishedTflopsPerGpu; // measured, in the run's own convention (8 N per token)
};

struct PublishedRunCheck {
    PublishedRun published;
    PerfEstimate estimate;           // the configuration on the run's machine
    double tflopsPerGpu = 0.0;       // the model's step in the run's convention: 8 N tokens / (step x GPUs)
    double productiveGpuHours = 0.0; // tokens at the modelled throughput, on all the run's GPUs
    double gpuEnergyKwh = 0.0;       // those hours at the modelled average GPU power
    double gpuEnergyAtAllocatedKwh = 0.0; // the published GPU-hours at the modelled average GPU power
};

// BLOOM-176B (BigScience, 2022), its figures and sources in PublishedRunCheck.cpp.
const PublishedRun& bloom176b();
PublishedRunCheck checkPublishedRun(const PublishedRun& run, const PerfCalibration& calibration);

} // namespace carbon3d::reports
