// SPDX-License-Identifier: MIT
#include "perf/Calibration.h"

#include "perf/PerfModel.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace carbon3d {

namespace {

constexpr int kDims = 8;
using Point = std::array<double, kDims>;

double logit(double x) {
    // A start exactly at a bound (an efficiency of 1.0) would give an infinite coordinate that the simplex
    // can never move; start just inside instead.
    x = std::clamp(x, 1e-6, 1.0 - 1e-6);
    return std::log(x / (1.0 - x));
}
double sigmoid(double y) {
    return 1.0 / (1.0 + std::exp(-y));
}

Point encode(const PerfCalibration& c) {
    return {logit(c.gemmEfficiencyMax),
            std::log(c.gemmHalfSaturationGflop),
            std::log(c.memoryTrafficPerActivationByte),
            std::log(c.kernelOverheadS),
            logit(c.intraNodeCommEfficiency),
            logit(c.interNodeCommEfficiency),
            std::log(c.collectiveLatencyS),
            std::log(c.gemmSaturationExponent)};
}

PerfCalibration decode(const Point& x, PerfCalibration base) {
    base.gemmEfficiencyMax = sigmoid(x[0]);
    base.gemmHalfSaturationGflop = std::exp(x[1]);
    base.memoryTrafficPerActivationByte = std::exp(x[2]);
    base.kernelOverheadS = std::exp(x[3]);
    base.intraNodeCommEfficiency = sigmoid(x[4]);
    base.interNodeCommEfficiency = sigmoid(x[5]);
    base.collectiveLatencyS = std::exp(x[6]);
    base.gemmSaturationExponent = std::exp(x[7]);
    return base;
}

// Per-row problems are built once; only the calibration changes between evaluations.
struct PreparedRow {
    PerfProblem problem;
    const ValidationRow* row;
    int set;
};

std::vector<PreparedRow> prepare(const std::vector<ValidationRow>& rows, const PerfCalibration& calibration) {
    std::vector<PreparedRow> prepared;
    prepared.reserve(rows.size());
    for (const ValidationRow& row : rows) {
        const ClusterProfile cluster =
            row.source == ValidationSource::Sc21 ? seleneCluster(calibration) : vtrainCluster(calibration);
        prepared.push_back({makePerfProblem(row.job, cluster), &row, static_cast<int>(row.source)});
    }
    return prepared;
}

double loss(std::vector<PreparedRow>& prepared, const PerfCalibration& calibration) {
    std::array<double, 3> sum{};
    std::array<int, 3> count{};
    PerfEstimate e;
    for (PreparedRow& p : prepared) {
        p.problem.calibration = calibration;
        double best = 0.0;
        const ValidationRow& row = *p.row;
        if (!row.chooseInterleave) {
            estimate(p.problem, row.config, 0.0, e);
            best = e.stepTimeS;
        } else {
            for (int b = 1; b <= row.job.globalBatch / row.config.dp; ++b) {
                for (int v = 1; v <= row.job.model.layers / row.config.pp; ++v) {
                    ParallelConfig c = row.config;
                    c.microBatch = b;
                    c.interleave = v;
                    estimate(p.problem, c, 0.0, e);
                    if (e.reason == Infeasibility::None && (best == 0.0 || e.stepTimeS < best))
                        best = e.stepTimeS;
                }
            }
        }
        if (best <= 0.0)
            return 1e9;
        const double r = std::log(best / row.measuredStepS);
        sum[static_cast<size_t>(p.set)] += r * r;
        ++count[static_cast<size_t>(p.set)];
    }
    double total = 0.0;
    int sets = 0;
    for (size_t i = 0; i < 3; ++i) {
        if (count[i] > 0) {
            total += sum[i] / count[i];
            ++sets;
        }
    }
    return sets > 0 ? total / sets : 0.0;
}

} // namespace

double calibrationLoss(const std::vector<ValidationRow>& rows, const PerfCalibration& calibration) {
    std::vector<PreparedRow> prepared = prepare(rows, calibration);
    return loss(prepared, calibration);
}

CalibrationResult calibrate(const std::vector<ValidationRow>& rows, const PerfCalibration& start,
                            int maxEvaluations) {
    std::vector<PreparedRow> prepared = prepare(rows, start);
    CalibrationResult result;
    auto f = [&](const Point& x) {
        ++result.evaluations;
        return loss(prepared, decode(x, start));
    };
    Point best = encode(start);
    result.initialLoss = f(best);
    double bestValue = result.initialLoss;
    // Standard Nelder-Mead coefficients (reflection 1, expansion 2, contraction 0.5, shrink 0.5).
    for (int restart = 0; restart < 8 && result.evaluations < maxEvaluations; ++restart) {
        std::array<Point, kDims + 1> simplex;
        std::array<double, kDims + 1> values;
        simplex[0] = best;
        values[0] = bestValue;
        for (int i = 0; i < kDims; ++i) {
            simplex[i + 1] = best;
            simplex[i + 1][static_cast<size_t>(i)] += 0.5;
            values[i + 1] = f(simplex[i + 1]);
        }
        for (int iteration = 0; iteration < 2000 && result.evaluations < maxEvaluations; ++iteration) {
            std::array<int, kDims + 1> order;
            for (int i = 0; i <= kDims; ++i)
                order[i] = i;
            std::sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
            const int lo = order[0], hi = order[kDims], second = order[kDims - 1];
            if (values[hi] - values[lo] < 1e-9 * (1.0 + std::abs(values[lo])))
                break;
            Point centroid{};
            for (int i = 0; i <= kDims; ++i) {
                if (i == hi)
                    continue;
                for (int k = 0; k < kDims; ++k)
                    centroid[k] += simplex[i][k] / kDims;
            }
            auto along = [&](double coefficient) {
                Point x;
                for (int k = 0; k < kDims; ++k)
                    x[k] = centroid[k] + coefficient * (simplex[hi][k] - centroid[k]);
                return x;
            };
            const Point reflected = along(-1.0);
            const double fr = f(reflected);
            if (fr < values[lo]) {
                const Point expanded = along(-2.0);
                const double fe = f(expanded);
                if (fe < fr) {
                    simplex[hi] = expanded;
                    values[hi] = fe;
                } else {
                    simplex[hi] = reflected;
                    values[hi] = fr;
                }
            } else if (fr < values[second]) {
                simplex[hi] = reflected;
                values[hi] = fr;
            } else {
                const Point contracted = fr < values[hi] ? along(-0.5) : along(0.5);
                const double fc = f(contracted);
                if (fc < std::min(fr, values[hi])) {
                    simplex[hi] = contracted;
                    values[hi] = fc;
                } else {
                    for (int i = 0; i <= kDims; ++i) {
                        if (i == lo)
                            continue;
                        for (int k = 0; k < kDims; ++k)
                            simplex[i][k] = simplex[lo][k] + 0.5 * (simplex[i][k] - simplex[lo][k]);
                        values[i] = f(simplex[i]);
                    }
                }
            }
        }
        const int lo = static_cast<int>(std::min_element(values.begin(), values.end()) - values.begin());
        const bool improved = values[lo] < bestValue - 1e-7;
        if (values[lo] < bestValue) {
            bestValue = values[lo];
            best = simplex[lo];
        }
        if (!improved && restart > 0)
            break;
    }
    result.fitted = decode(best, start);
    result.loss = bestValue;
    return result;
}

} // namespace carbon3d
