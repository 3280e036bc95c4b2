// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "validation/ValidationSet.h"

#include <array>
#include <vector>

namespace carbon3d {

// Loss the calibration minimises: the mean over the three measured sets (SC21, vTrain multi-node, vTrain
// single-node) of each set's mean squared log error ln(predicted / measured)^2. Weighting per set, not per
// row, keeps the 1,440 single-node rows from drowning the 10 SC21 rows.
double calibrationLoss(const std::vector<ValidationRow>& rows, const PerfCalibration& calibration);

// The fitted parameters in unbounded coordinates: logit for the fractions (gemm_efficiency_max, the two
// communication efficiencies), log for the positive values. calibrate() and the rank-ceiling search move in
// these; dp_overlap, dp_gradient_bytes and memory_reserve_gib are not among them and come from `base`.
constexpr int kFittedCalibrationParameters = 8;
using FittedCoordinates = std::array<double, kFittedCalibrationParameters>;
FittedCoordinates encodeFitted(const PerfCalibration& calibration);
PerfCalibration decodeFitted(const FittedCoordinates& x, PerfCalibration base);

struct CalibrationResult {
    PerfCalibration fitted;
    double initialLoss = 0.0;
    double loss = 0.0;
    int evaluations = 0;
};

// Fits gemm_efficiency_max, gemm_half_saturation_gflop, gemm_saturation_exponent,
// memory_traffic_per_activation_byte, kernel_overhead_s, intra/inter_node_comm_efficiency and
// collective_latency_s: Nelder-Mead in transformed coordinates (logit for fractions, log for positive values)
// from `start`, restarted until a restart no longer improves. dp_overlap, dp_gradient_bytes and
// memory_reserve_gib are kept from `start` (facts of the software stack, not fitted). Deterministic.
CalibrationResult calibrate(const std::vector<ValidationRow>& rows, const PerfCalibration& start,
                            int maxEvaluations = 6000);

} // namespace carbon3d
