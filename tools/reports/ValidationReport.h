// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "reports/FixedBatchScaling.h"
#include "reports/MixtureOfExpertsCheck.h"
#include "reports/PowerMeasurements.h"
#include "reports/PublishedRunCheck.h"
#include "reports/RankOrderAnalysis.h"
#include "reports/ValidationFindings.h"
#include "reports/ValidationPredictions.h"
#include "validation/InterleaveSweep.h"
#include "validation/PublishedThroughput.h"
#include "validation/RankCeiling.h"
#include "validation/ResidualTransfer.h"
#include "validation/Statistics.h"

#include <string>
#include <vector>

// docs/VALIDATION.md as numbers: computeValidationReport() does every computation (predictions, statistics,
// the memory comparison, the rank-order analyses and searches, the evidence of the findings) and
// renderValidationMarkdown() only formats the result.
namespace carbon3d::reports {

struct ValidationReportInputs {
    std::string dataDirectory;          // tests/data/validation; the header quotes it as given
    PerfCalibration calibration;        // the calibration reported: the compiled-in fit by default
    unsigned rankCeilingSeeds = 4;      // seeds per search kind (stack facts held, stack facts free)
    int rankCeilingEvaluations = 30000; // loss evaluations per seed
};

// Published figures the report quotes beside ours: the MAPE vTrain reports for its own simulator on these
// sets.
inline constexpr double kVtrainSimulatorMultiMape = 0.1473;
inline constexpr double kVtrainSimulatorSingleMape = 0.0837;

// Evidence about the calibration that the calibration section's prose quotes.
struct CalibrationEvidence {
    double loss = 0.0;
    // A refit with the gradient all-reduce at fp32's 4 bytes per parameter instead of the stack's 2: what
    // the loss and the rank order say about a fact the fit does not set.
    double refitGradientBytes = 4.0;
    double refitLoss = 0.0;
    GroupValue refitMostHurtGroup;  // the multi-node group whose Spearman the refit lowers most, its value
    GroupValue fittedMostHurtGroup; // the same group's Spearman under the reported calibration
    // The GEMM saturation exponent at 1 (the plain hyperbola), the other parameters as fitted.
    double hyperbolaLoss = 0.0;
    double hyperbolaSingleMape = 0.0;
};

struct SetSummary {
    ValidationSource source = ValidationSource::Sc21;
    ErrorStats errors;
    double spearman = 0.0;
};

// One row of the targets table; the renderer words the target from metric and threshold.
struct TargetCheck {
    enum class Metric { Sc21MedianAbsError, Sc21MaxAbsError, MultiNodeMape, GroupSpearman, SingleNodeMape };
    Metric metric = Metric::Sc21MedianAbsError;
    double threshold = 0.0;
    double achieved = 0.0;
    bool met = false;
    std::string group; // GroupSpearman only
    size_t rows = 0;   // GroupSpearman only
};

// A model from Korthikanti et al. 2022 and the settings that reproduce its published GiB.
struct KorthikantiCase {
    const char* name;
    int layers, hidden, heads, tp, pp, microBatch, interleave;
    double statesGib, noneGib,
        selectiveGib; // published: model states, activations without / with SP+selective
};

struct MemoryComparison {
    KorthikantiCase published;
    double statesGib = 0.0, noneGib = 0.0, selectiveGib = 0.0; // the model's
};

struct MemoryEvidence {
    int seqLen = 0;
    int vocab = 0;
    double stateBytesPerParameter = 0.0;    // Megatron's layout, as the model counts it
    double publishedParametersPerGpu = 0.0; // the first case's published state GiB / those bytes
    std::vector<MemoryComparison> cases;
};

struct GroupSummary {
    std::string name;
    ErrorStats errors;
    double spearman = 0.0;
};

// A published run of today's accelerators against the model (tests/data/validation/hopper/runs.csv,
// tests/data/validation/cdna3/runs.csv).
struct ThroughputComparison {
    PublishedThroughputRow row;
    ThroughputPrediction predicted;
    // Error as on step time, like every other table: measured throughput / predicted - 1 (> 0: the model is
    // slow). 0 when infeasible.
    double error = 0.0;
};
struct ThroughputSummary {
    ThroughputRole role = ThroughputRole::Calibration;
    PublishedGpu gpu = PublishedGpu::H100;
    Precision precision = Precision::BF16;
    // FSDP rows apart: their overlap is modelled, not calibrated, so their errors say how far to trust it.
    bool fsdp = false;
    ErrorStats errors; // on step time (the inverse of throughput)
    int infeasible = 0;
};

// The published runs of one calibration family (dataDirectory/<family>/runs.csv), each predicted under the
// family's calibration.
struct PublishedRunSet {
    std::vector<ThroughputComparison> rows; // in file order
    std::vector<ThroughputSummary> summary; // per role, GPU, precision (bf16, fp8), then FSDP (no, yes)
};
PublishedRunSet comparePublishedRuns(const std::string& dataDirectory, CalibrationFamily family,
                                     const PerfCalibration& base);

// SC21 Table 2 (held out): one strong-scaling row predicted with the interleave rule and with every legal v
// held fixed, since the paper does not say which v its runs used.
struct HeldInterleaveStep {
    int interleave = 1;
    double stepS = 0.0; // predicted step with this v on every row
};
struct HeldInterleaveDrop {
    int interleave = 1;
    double drop = 0.0;
};
// The entry of a list held at each v (steps or drops) for this v, or null when v is not among them.
template <class Held> const Held* heldWith(const std::vector<Held>& list, int interleave) {
    for (const Held& entry : list)
        if (entry.interleave == interleave)
            return &entry;
    return nullptr;
}
struct StrongScalingRow {
    ValidationRow row;
    ParallelConfig chosen;                // the rule's configuration (v chosen)
    double ruleS = 0.0;                   // predicted step under the rule
    std::vector<HeldInterleaveStep> held; // v = 1 first, then each legal v in increasing order

    // The held prediction with this v, or null when v is not legal on this row.
    const HeldInterleaveStep* heldAt(int interleave) const { return heldWith(held, interleave); }
};
// One model's strong scaling: the same global batch on more GPUs, in GPU order as the file lists them.
struct StrongScalingSeries {
    std::vector<StrongScalingRow> rows;
    // Drop in per-GPU throughput from the first row to the last: 1 - (T0 N0) / (Tn Nn).
    double measuredDrop = 0.0, ruleDrop = 0.0;
    std::vector<HeldInterleaveDrop> heldDrops; // for each v legal on every row, v = 1 first

    const HeldInterleaveDrop* heldDropAt(int interleave) const { return heldWith(heldDrops, interleave); }
};
struct StrongScalingCheck {
    std::vector<StrongScalingSeries> series; // one per model (consecutive rows of one shape and batch)
};
inline constexpr double kStrongScalingDropTolerance = 0.02; // the "within 2 points"

// The Zero Bubble pairs (interleaved against plain 1F1B) the cost of a pipeline exchange is fitted on.
struct InterleaveCheckRow {
    InterleavePair pair;
    bool inOneNode = false;           // fitted on; the others are reported only
    InterleavePrediction predicted;   // under the calibration (network 12.5 GB/s per GPU assumed)
    InterleavePrediction noOverhead;  // the same without the exchange's fixed cost
    InterleavePrediction fastNetwork; // multi-node pairs only: at 25 GB/s per GPU
};
inline constexpr double kInterleaveFastNetworkBytesPerS = 25e9;
struct InterleaveCheck {
    std::vector<InterleaveCheckRow> rows;
    double lossWithout = 0.0, loss = 0.0; // interleaveLoss without and with the fitted cost
};

struct ValidationReport {
    std::string dataDirectory;
    PerfCalibration calibration;
    CalibrationEvidence calibrationEvidence;
    ValidationPredictions predictions;
    std::vector<SetSummary> sets; // SC21, vTrain multi-node, vTrain single-node
    std::vector<TargetCheck> targets;
    MemoryEvidence memory;
    double vtrainIntraNodeNominalBytesPerS = 0.0; // the modelled NVLink figure, before the fitted efficiency
    std::vector<GroupSummary> multiGroups, singleGroups;
    std::vector<RankCostRow> rankCost;
    std::vector<ResidualTransferRow> residualTransfer;
    int rankCeilingEvaluations = 0;
    std::vector<RankCeilingRun> rankCeiling; // stack facts held first, then free; seeds in order
    ValidationFindings findings;
    PublishedRunCheck bloom;       // time and energy of BLOOM-176B's run, predicted (held out of calibration)
    std::vector<PowerCheck> power; // published power measurements against the model
    PublishedRunSet hopper;        // H100 and H200, under the Hopper family
    PublishedRunSet cdna3;         // MI325X, under the CDNA 3 family
    StrongScalingCheck strongScaling; // SC21 Table 2, never fitted
    FixedBatchScaling fixedBatch;     // what the model charges as d grows at a fixed batch, and its sources
    InterleaveCheck interleave;       // the pairs pipeline_transfer_overhead_s is fitted on
    MixtureOfExpertsCheck moe;        // the all-to-all measurements and the MoE presets' searches
};

// The Zero Bubble pairs from dataDirectory under `calibration`.
InterleaveCheck checkInterleaveSweep(const std::string& dataDirectory, const PerfCalibration& calibration);

// SC21 Table 2 from dataDirectory under `calibration` (held out of calibration).
StrongScalingCheck checkStrongScaling(const std::string& dataDirectory, const PerfCalibration& calibration);

// Loads the measured rows from inputs.dataDirectory (InputError when they cannot be read) and computes
// every number of the report. Minutes in a Release build: the rank-ceiling searches dominate, and run in
// parallel (each is deterministic, so the result is too).
ValidationReport computeValidationReport(const ValidationReportInputs& inputs);

std::string renderValidationMarkdown(const ValidationReport& report);

} // namespace carbon3d::reports
