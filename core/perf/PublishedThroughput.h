// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ParallelConfig.h"
#include "domain/TrainingJob.h"

#include <string>
#include <vector>

namespace carbon3d {

// Published training throughput of Hopper-era runs (tests/data/validation/hopper/runs.csv; sources and
// licences in its SOURCES.md). The role says what a row may be used for: a calibration candidate may be
// fitted to, a held-out row never (the Llama 3 paper's Table 4, NVIDIA NeMo's performance summaries and
// their successors).
enum class ThroughputRole { Calibration, HeldOut };
const char* throughputRoleName(ThroughputRole role); // "calibration", "held-out"

// The accelerator a row ran on: both are the Hopper calibration family, H200 with its larger, faster HBM.
enum class HopperGpu { H100, H200 };
const char* hopperGpuName(HopperGpu gpu); // "h100", "h200"

struct PublishedThroughputRow {
    ThroughputRole role = ThroughputRole::Calibration;
    HopperGpu gpu = HopperGpu::H100;
    std::string source; // source id of SOURCES.md, e.g. "dgxc_v25.04"
    std::string model;  // e.g. "llama3-405b"
    int line = 0;       // line in runs.csv
    TrainingJob job;    // FlashAttention, the row's precision and global batch
    ParallelConfig config;
    bool chooseMicroBatch = false; // the source does not give b: the fastest feasible is taken
    bool chooseInterleave = false; // nor v
    double measured = 0.0;         // tokens/s per GPU, or model TFLOP/s per GPU (measuredIsTflops)
    bool measuredIsTflops = false;
};

// Reads dataDir/hopper/runs.csv. Throws InputError naming the file, line and column.
std::vector<PublishedThroughputRow> loadPublishedThroughput(const std::string& dataDir);

// The DGX H100 the rows ran on (or its equal: Meta's Grand Teton H100 nodes have the same GPUs and 400 Gb/s
// per GPU): datasheet figures, as the dgx-h100 preset gives them, with `calibration` (the Hopper family's:
// familyCalibration(CalibrationFamily::Hopper, ...)). For H200 the DGX H200: the same but for its memory
// (141 GB, 4.8 TB/s), as the dgx-h200 preset gives it.
ClusterProfile hopperValidationCluster(const PerfCalibration& calibration = {},
                                       HopperGpu gpu = HopperGpu::H100);

struct ThroughputPrediction {
    bool feasible = false;
    ParallelConfig chosen; // with the recompute mode (and b, v where the source is silent) taken
    double value = 0.0;    // in the row's unit
};

// The rules for what sources do not say (docs/VALIDATION.md, Hopper): sequence parallelism with t > 1, the
// distributed optimizer on, FlashAttention, and the fastest feasible recompute mode (and micro-batch and
// interleave where not given) under the model.
ThroughputPrediction predictThroughput(const PublishedThroughputRow& row, const PerfCalibration& calibration);

// Mean squared log error ln(predicted / published)^2 over the calibration rows of `precision`; rows the model
// cannot fit count as a large error.
double throughputLoss(const std::vector<PublishedThroughputRow>& rows, Precision precision,
                      const PerfCalibration& calibration);

// Fits gemm_efficiency_max to the BF16 calibration rows (never a held-out row), everything else kept from
// `start` (the Hopper family's calibration): a golden-section search of throughputLoss over [0.3, 0.95].
PerfCalibration fitHopperGemmEfficiency(const std::vector<PublishedThroughputRow>& rows,
                                        PerfCalibration start);

// Fits fp8_cast_bytes_per_element to the FP8 calibration rows (never a held-out row), everything else kept
// from `start`: a golden-section search of throughputLoss over [0, 16] bytes per element, to 1e-3.
// Deterministic.
PerfCalibration fitFp8Cast(const std::vector<PublishedThroughputRow>& rows, PerfCalibration start);

} // namespace carbon3d
