// SPDX-License-Identifier: MIT
#include "validation/Calibration.h"

#include "perf/PerfModel.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace carbon3d {

namespace {

constexpr int kDims = kFittedCalibrationParameters;
using Point = FittedCoordinates;

double logit(double x) {
    // A start exactly at a bound (an efficiency of 1.0) would give an infinite coordinate that the simplex
    // can never move; start just inside instead.
    x = std::clamp(x, 1e-6, 1.0 - 1e-6);
    return std::log(x / (1.0 - x));
}
double sigmoid(double y) {
    return 1.0 / (1.0 + std::exp(-y));
}

double loss(PreparedValidationRows& prepared, const PerfCalibration& calibration) {
    const std::vector<double>& predicted = prepared.predict(calibration);
    std::array<double, 3> sum{};
    std::array<int, 3> count{};
    for (size_t i = 0; i < predicted.size(); ++i) {
        if (predicted[i] <= 0.0)
            return 1e9;
        const ValidationRow& row = prepared.rows()[i];
        const double r = std::log(predicted[i] / row.measuredStepS);
        const auto set = static_cast<size_t>(row.source);
        sum[set] += r * r;
        ++count[set];
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

// The Nelder-Mead simplex in fitted coordinates: kDims + 1 vertices and the loss at each.
using Simplex = std::array<Point, kDims + 1>;
using SimplexValues = std::array<double, kDims + 1>;

// A (re)start: the best point so far plus one vertex 0.5 further along each coordinate.
template <typename F>
void startSimplex(const Point& best, double bestValue, Simplex& simplex, SimplexValues& values, F& f) {
    simplex[0] = best;
    values[0] = bestValue;
    for (int i = 0; i < kDims; ++i) {
        simplex[i + 1] = best;
        simplex[i + 1][static_cast<size_t>(i)] += 0.5;
        values[i + 1] = f(simplex[i + 1]);
    }
}

// The centroid of every vertex but the worst, `hi`.
Point centroidWithout(const Simplex& simplex, int hi) {
    Point centroid{};
    for (int i = 0; i <= kDims; ++i) {
        if (i == hi)
            continue;
        for (int k = 0; k < kDims; ++k)
            centroid[k] += simplex[i][k] / kDims;
    }
    return centroid;
}

// The point `coefficient` times the way from the centroid to the worst vertex (-1: its reflection).
Point along(const Point& centroid, const Point& worst, double coefficient) {
    Point x;
    for (int k = 0; k < kDims; ++k)
        x[k] = centroid[k] + coefficient * (worst[k] - centroid[k]);
    return x;
}

// Moves every vertex but the best, `lo`, halfway towards it.
template <typename F> void shrinkTowards(int lo, Simplex& simplex, SimplexValues& values, F& f) {
    for (int i = 0; i <= kDims; ++i) {
        if (i == lo)
            continue;
        for (int k = 0; k < kDims; ++k)
            simplex[i][k] = simplex[lo][k] + 0.5 * (simplex[i][k] - simplex[lo][k]);
        values[i] = f(simplex[i]);
    }
}

// One Nelder-Mead iteration: replaces the worst vertex by a reflected, expanded or contracted point, or
// shrinks the simplex. False, without a step, once the values have converged.
template <typename F> bool nelderMeadStep(Simplex& simplex, SimplexValues& values, F& f) {
    std::array<int, kDims + 1> order;
    for (int i = 0; i <= kDims; ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
    const int lo = order[0], hi = order[kDims], second = order[kDims - 1];
    if (values[hi] - values[lo] < 1e-9 * (1.0 + std::abs(values[lo])))
        return false;
    const Point centroid = centroidWithout(simplex, hi);
    const Point reflected = along(centroid, simplex[hi], -1.0);
    const double fr = f(reflected);
    if (fr < values[lo]) {
        const Point expanded = along(centroid, simplex[hi], -2.0);
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
        const Point contracted =
            fr < values[hi] ? along(centroid, simplex[hi], -0.5) : along(centroid, simplex[hi], 0.5);
        const double fc = f(contracted);
        if (fc < std::min(fr, values[hi])) {
            simplex[hi] = contracted;
            values[hi] = fc;
        } else {
            shrinkTowards(lo, simplex, values, f);
        }
    }
    return true;
}

} // namespace

FittedCoordinates encodeFitted(const PerfCalibration& c) {
    return {logit(c.gemmEfficiencyMax),
            std::log(c.gemmHalfSaturationGflop),
            std::log(c.memoryTrafficPerActivationByte),
            std::log(c.kernelOverheadS),
            logit(c.intraNodeCommEfficiency),
            logit(c.interNodeCommEfficiency),
            std::log(c.collectiveLatencyS),
            std::log(c.gemmSaturationExponent)};
}

PerfCalibration decodeFitted(const FittedCoordinates& x, PerfCalibration base) {
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

double calibrationLoss(const std::vector<ValidationRow>& rows, const PerfCalibration& calibration) {
    PreparedValidationRows prepared(rows);
    return loss(prepared, calibration);
}

CalibrationResult calibrate(const std::vector<ValidationRow>& rows, const PerfCalibration& start,
                            int maxEvaluations) {
    PreparedValidationRows prepared(rows);
    CalibrationResult result;
    auto f = [&](const Point& x) {
        ++result.evaluations;
        return loss(prepared, decodeFitted(x, start));
    };
    Point best = encodeFitted(start);
    result.initialLoss = f(best);
    double bestValue = result.initialLoss;
    // Standard Nelder-Mead coefficients (reflection 1, expansion 2, contraction 0.5, shrink 0.5).
    for (int restart = 0; restart < 8 && result.evaluations < maxEvaluations; ++restart) {
        Simplex simplex;
        SimplexValues values;
        startSimplex(best, bestValue, simplex, values, f);
        for (int iteration = 0; iteration < 2000 && result.evaluations < maxEvaluations; ++iteration) {
            if (!nelderMeadStep(simplex, values, f))
                break;
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
    result.fitted = decodeFitted(best, start);
    result.loss = bestValue;
    return result;
}

} // namespace carbon3d
