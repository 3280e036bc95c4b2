// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

namespace carbon3d {

// Error statistics of predictions against measurements (same length, measured > 0). Errors are fractions.
struct ErrorStats {
    int count = 0;
    double mape = 0.0;           // mean |pred - meas| / meas
    double medianAbsError = 0.0; // median of |pred - meas| / meas
    double maxAbsError = 0.0;
    double meanSignedError = 0.0; // mean (pred - meas) / meas: > 0 means the model is slow
};
ErrorStats errorStats(const std::vector<double>& predicted, const std::vector<double>& measured);

// The median (the mean of the two middle values of an even count); NaN when `values` is empty.
double median(std::vector<double> values);

// Spearman rank correlation (Pearson correlation of the ranks, ties get their average rank). 0 when n < 2 or
// one side is constant.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

// Which rows cost the rank order: element i is the Spearman correlation of predicted and measured had the
// model predicted row i exactly (predicted[i] = measured[i]), all other rows unchanged.
std::vector<double> spearmanIfRowExact(const std::vector<double>& predicted,
                                       const std::vector<double>& measured);

} // namespace carbon3d
