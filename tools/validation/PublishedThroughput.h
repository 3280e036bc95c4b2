// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ParallelConfig.h"
#include "domain/PerfCalibration.h"
#include "domain/TrainingJob.h"
#include "perf/ConfigSearch.h"

#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// Published training throughput of today's accelerators, one file per calibration family:
// tests/data/validation/hopper/runs.csv (H100, H200) and tests/data/validation/cdna3/runs.csv (MI325X);
// sources and licences in each folder's SOURCES.md. The role says what a row may be used for: a calibration
// candidate may be fitted to, a held-out row never (the Llama 3 paper's Table 4, NVIDIA NeMo's performance
// summaries and their successors, and the rows each SOURCES.md holds out).
enum class ThroughputRole { Calibration, HeldOut };
const char* throughputRoleName(ThroughputRole role); // "calibration", "held-out"

// The accelerator a row ran on. H100 and H200 are the Hopper calibration family (H200 with its larger,
// faster HBM); MI325X is CDNA 3 (MI300X's die with 256 GB of faster HBM at 1,000 W).
enum class PublishedGpu { H100, H200, MI325X };
inline constexpr PublishedGpu kPublishedGpus[] = {PublishedGpu::H100, PublishedGpu::H200,
                                                  PublishedGpu::MI325X};
const char* publishedGpuName(PublishedGpu gpu); // "h100", "h200", "mi325x"
CalibrationFamily familyOf(PublishedGpu gpu);

struct PublishedThroughputRow {
    ThroughputRole role = ThroughputRole::Calibration;
    PublishedGpu gpu = PublishedGpu::H100;
    std::string source; // source id of SOURCES.md, e.g. "dgxc_v25.04"
    std::string model;  // e.g. "llama3-405b"
    int line = 0;       // line in runs.csv
    TrainingJob job;    // FlashAttention, the row's precision, global batch and FP8 weights
    ParallelConfig config;
    bool chooseMicroBatch = false; // the source does not give b: the fastest feasible is taken
    bool chooseInterleave = false; // nor v
    bool chooseRecompute = true;   // nor the recomputation (runs.csv's recompute column empty or absent)
    double measured = 0.0;         // tokens/s per GPU, or model TFLOP/s per GPU (measuredIsTflops)
    bool measuredIsTflops = false;
};

// Reads dataDir/<family>/runs.csv ("hopper" or "cdna3"), whose every row must have run on a GPU of that
// family. Throws InputError naming the file, line and column.
std::vector<PublishedThroughputRow>
loadPublishedThroughput(const std::string& dataDir, CalibrationFamily family = CalibrationFamily::Hopper);

// The node a row ran on, from datasheets, with `calibration` (the row's family's:
// familyCalibration(familyOf(gpu), ...)). H100: the DGX H100 (or its equal: Meta's Grand Teton H100 nodes
// have the same GPUs and 400 Gb/s per GPU), as the dgx-h100 preset gives it. H200: the same but for its
// memory (141 GB, 4.8 TB/s), as the dgx-h200 preset. MI325X: the MI300X platform of the mi300x-node preset
// (Infinity Fabric, one 400 Gb/s NIC per GPU, as the rows' clusters had) with MI325X's 256 GB of HBM3E at
// 6 TB/s and 1,000 W.
ClusterProfile publishedRunCluster(const PerfCalibration& calibration = {},
                                   PublishedGpu gpu = PublishedGpu::H100);

struct ThroughputPrediction {
    bool feasible = false;
    ParallelConfig chosen; // with the recompute mode (and b, v where the source is silent) taken
    double value = 0.0;    // in the row's unit
};

// The fastest feasible variant of a published layout on `problem`: its recompute mode as published, or, where
// the source left it out, each mode (full recomputation of every layer or of the fewest that fit) and the
// fastest of them; the micro-batch and the interleave degree likewise where not given. At the layout's GPU
// count the fastest step is the highest throughput per GPU in any unit. nullopt when none fits.
std::optional<RankedConfig> fastestPublishedVariant(const PerfProblem& problem, const ParallelConfig& layout,
                                                    bool chooseRecompute, bool chooseMicroBatch,
                                                    bool chooseInterleave);

// The rules for what sources do not say (docs/VALIDATION.md, Hopper): sequence parallelism with t > 1, the
// distributed optimizer on, FlashAttention, and the fastest feasible recompute mode (and micro-batch and
// interleave where not given) under the model.
ThroughputPrediction predictThroughput(const PublishedThroughputRow& row, const PerfCalibration& calibration);

// Mean squared log error ln(predicted / published)^2 over the calibration rows of `precision`; rows the model
// cannot fit count as a large error.
double throughputLoss(const std::vector<PublishedThroughputRow>& rows, Precision precision,
                      const PerfCalibration& calibration);

// Fits gemm_efficiency_max to the calibration rows of `precision` (never a held-out row), everything else
// kept from `start` (the family's calibration): a golden-section search of throughputLoss over [0.3, 0.95].
// Hopper fits it on its BF16 rows; CDNA 3, which has none, on its FP8 rows.
PerfCalibration fitGemmEfficiency(const std::vector<PublishedThroughputRow>& rows, PerfCalibration start,
                                  Precision precision);

// Fits fp8_cast_bytes_per_element to the FP8 calibration rows (never a held-out row), everything else kept
// from `start`: a golden-section search of throughputLoss over [0, 16] bytes per element, to 1e-3.
// Deterministic.
PerfCalibration fitFp8Cast(const std::vector<PublishedThroughputRow>& rows, PerfCalibration start);

} // namespace carbon3d
