// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "reports/RankOrderAnalysis.h"
#include "reports/ValidationPredictions.h"
#include "validation/RankCeiling.h"
#include "validation/ResidualTransfer.h"

#include <string>
#include <vector>

// The evidence quoted by docs/VALIDATION.md's "What the model cannot explain": every number and every
// comparison its sentences make, computed from the predictions, so that the prose cannot go stale when the
// model changes. Which configurations the sentences illustrate is an editorial choice, fixed in
// ValidationFindings.cpp; what those configurations measured and what the model predicts is looked up.
namespace carbon3d::reports {

struct GroupValue {
    std::string group;
    double value = 0.0;
};

// A configuration's measured (and predicted) step times over several micro-batch sizes, in b order.
struct MicroBatchSeries {
    std::string group;
    ParallelConfig config; // t, d and p; microBatch unused
    std::vector<int> microBatches;
    std::vector<double> measuredS;
    std::vector<double> predictedS;
    bool measuredMonotonic() const; // never falling, or never rising, as b grows
    bool predictedRising() const;   // strictly rising as b grows
};

// The row whose exact prediction would lift its group's Spearman most, and its configuration at the other
// micro-batch sizes measured.
struct CostliestRow {
    std::string group;
    ResidualSample row;
    double spearmanIfExact = 0.0;
    MicroBatchSeries sameConfiguration; // every b of the row's (t, d, p), the row's own included
};

// What validation/ResidualTransfer.h's corrections do to each group's rank correlation.
struct ResidualTransferEvidence {
    size_t groups = 0;
    std::vector<std::string> ownLnTPositive;   // groups whose own fit has a positive ln t coefficient
    GroupValue ownLnTMostNegative;             // the most negative ln t coefficient
    std::vector<std::string> liftedByPairwise; // below target as predicted, at or above it corrected
    std::vector<GroupValue> droppedByPairwise; // at or above target as predicted, below it corrected
    size_t linearHeldOutWorse = 0, pairwiseHeldOutWorse = 0; // held-out corrections that lower a group
    std::vector<std::string> linearHeldOutExceptions, pairwiseHeldOutExceptions; // the groups they do not
};

// What the rank-ceiling searches reached, by kind.
struct RankCeilingEvidence {
    size_t heldSeeds = 0, heldBelowTarget = 0;
    double heldWorstMin = 0.0, heldWorstMax = 0.0; // best worst-group Spearman over the held seeds
    size_t freeSeeds = 0, freeReachingTarget = 0;
    RankOrderResult bestFree;             // the free seed with the best worst group
    double documentedGradientBytes = 0.0; // what the runs used (PerfCalibration's default)
};

// One tensor-parallel degree in one group that the model predicts much too fast, against the same degree
// in the other groups.
struct SlowTensorParallelEvidence {
    std::string group;
    int tp = 0;
    size_t rows = 0;
    double slowerMin = 0.0, slowerMax = 0.0; // measured / predicted - 1 over those rows
    MicroBatchSeries pair;                   // one (d, p) of them at two micro-batch sizes
    std::vector<std::string> otherGroups;    // groups with rows at this degree
    double otherMaxAbsError = 0.0;           // |predicted / measured - 1| over those rows
    double spearmanIfExact = 0.0;            // the group's Spearman had those rows been predicted exactly
    double memoryMinGib = 0.0, memoryMaxGib = 0.0; // the model's memory per GPU for those rows
    double capacityGib = 0.0;
    GroupValue otherHeaviest; // the other group whose rows need the most memory
    double otherHeaviestMinGib = 0.0, otherHeaviestMaxGib = 0.0;
    bool otherHeaviestNotSlow = false; // none of its rows at this degree measured slower than predicted
};

// A micro-batch that the measurements show much slower than the one below it, where the model has them
// alike.
struct MicroBatchCliffEvidence {
    std::string group;
    int tp = 0;
    MicroBatchSeries pair; // the smaller b first
    double error = 0.0;    // the larger b's predicted / measured - 1
};

// The single-node error by model shape (hidden, layers), over every GPU count.
struct ShapeError {
    int hidden = 0, layers = 0;
    ErrorStats errors;
};
struct SingleNodeShapeEvidence {
    ShapeError smallest, largest, worst; // by parameter count; worst = the largest MAPE
};

struct ValidationFindings {
    double spearmanTarget = 0.0;
    std::vector<GroupValue> groupsBelowTarget;  // multi-node groups below the Spearman target, their Spearman
    double tiedBand = 0.0;                      // "within +-10 % of each other": of the group's median step
    bool mostWithinTiedBand = false;            // true in every group below target
    std::vector<MicroBatchSeries> unevenSeries; // measurements that are not smooth in b
    bool hasCostliest = false;
    CostliestRow costliest;
    ResidualTransferEvidence transfer;
    RankCeilingEvidence ceiling;
    SlowTensorParallelEvidence slowTp;
    MicroBatchCliffEvidence cliff;
    SingleNodeShapeEvidence singleNodeShapes;
    double kernelOverheadS = 0.0;
    bool kernelOverheadNegligible = false; // below a microsecond per layer, against steps of seconds
    double intraNodeEfficiency = 0.0;
    double intraNodeNominalBytesPerS = 0.0;
    double vtrainStatedIntraNodeBytesPerS = 0.0; // what vTrain's configuration states (published)
};

// The findings from the predictions and the report's rank-order tables (rank cost, residual transfer,
// rank ceiling), all computed before.
ValidationFindings findValidationEvidence(const ValidationPredictions& predictions,
                                          const PerfCalibration& calibration,
                                          const std::vector<RankCostRow>& rankCost,
                                          const std::vector<ResidualTransferRow>& transfer,
                                          const std::vector<RankCeilingRun>& ceiling);

} // namespace carbon3d::reports
