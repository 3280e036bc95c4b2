// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "reports/ValidationPredictions.h"
#include "validation/CollectiveLatency.h"
#include "validation/GpuVariability.h"

#include <ostream>
#include <string>
#include <vector>

// docs/VALIDATION.md, "Scaling at a fixed batch": what makes per-GPU throughput fall as data parallelism
// grows at a fixed global batch, term by term, with the measurements each term rests on and the model's
// prediction for each fixed-batch series it was calibrated on.
namespace carbon3d::reports {

// The slowest of n GPUs over the fleet's mean: the model's normal spread against the measured fleet's own
// (the exact expectation of the largest of n draws, with replacement, from the kept GPUs' times).
struct SlowestOfN {
    int gpus = 0;
    double model = 0.0;
    double measured = 0.0;
};

// One strong-scaling series' predicted drop in per-GPU throughput from its first row to its last, split by
// the parts of the step (TimeBreakdownField): each part's points sum to the drop.
struct DropSplit {
    std::string series; // "174.6B"
    int firstGpus = 0, lastGpus = 0;
    int interleave = 1; // v held on every row
    double measuredDrop = 0.0, predictedDrop = 0.0;
    std::vector<std::pair<std::string, double>> points; // (part label, share of the drop), parts that move
};

// A fixed-batch, fixed-GPU-count series of the vTrain multi-node set: the rows of one group with the same t
// and micro-batch, from the smallest d to the largest (p shrinking as d grows).
struct DataParallelSeries {
    std::string group;
    int tp = 0, microBatch = 0;
    int fewestReplicas = 0, mostReplicas = 0;
    int rows = 0;
    double measuredRatio = 0.0; // per-GPU throughput at the most replicas over at the fewest
    double predictedRatio = 0.0;
};

struct FixedBatchScaling {
    CollectiveLatencyFit latency;
    GpuSpeedSpread spread;
    std::vector<SlowestOfN> slowest;
    std::vector<DropSplit> table2;
    std::vector<DataParallelSeries> vtrain;
};

struct StrongScalingCheck; // reports/ValidationReport.h, which holds a FixedBatchScaling

// The measured terms from dataDirectory; the fixed-batch series from the report's own predictions of the
// validation rows and of SC21 Table 2 (`table2`), under `calibration`.
FixedBatchScaling computeFixedBatchScaling(const std::string& dataDirectory,
                                           const PerfCalibration& calibration,
                                           const ValidationPredictions& predictions,
                                           const StrongScalingCheck& table2);
void renderFixedBatchScaling(std::ostream& md, const FixedBatchScaling& s,
                             const PerfCalibration& calibration);

} // namespace carbon3d::reports
