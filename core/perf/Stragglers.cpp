// SPDX-License-Identifier: MIT
#include "perf/Stragglers.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace carbon3d {
namespace {

constexpr int kMostDoublings = 24;   // up to 16.8 million GPUs; larger counts take the last value
constexpr int kStepsPerDoubling = 8; // the table's points: n = 2^(k/8)
constexpr int kPoints = kMostDoublings * kStepsPerDoubling + 1;

// E[max of n] = integral of x n phi(x) Phi(x)^(n-1) dx. The integrand is negligible outside [-8, 12] for
// every n the table holds; the upper tail of Phi is taken from erfc so Phi^(n-1) stays exact near 1.
double integrateExpectedMax(double n) {
    constexpr double kLow = -8.0, kHigh = 12.0;
    constexpr int kSteps = 4000;
    const double h = (kHigh - kLow) / kSteps;
    double sum = 0.0;
    for (int i = 0; i <= kSteps; ++i) {
        const double x = kLow + i * h;
        const double upperTail = 0.5 * std::erfc(x / std::sqrt(2.0));
        const double logCdf = std::log1p(-upperTail);
        const double logDensity = -0.5 * x * x - 0.5 * std::log(2.0 * std::numbers::pi);
        const double f = x * n * std::exp(logDensity + (n - 1.0) * logCdf);
        sum += (i == 0 || i == kSteps) ? 0.5 * f : f;
    }
    return sum * h;
}

const std::array<double, kPoints>& expectedMaxTable() {
    static const std::array<double, kPoints> table = [] {
        std::array<double, kPoints> values{};
        for (int k = 1; k < kPoints; ++k)
            values[k] = integrateExpectedMax(std::exp2(static_cast<double>(k) / kStepsPerDoubling));
        return values;
    }();
    return table;
}

} // namespace

double expectedMaxOfNormals(int n) {
    if (n <= 1)
        return 0.0;
    const auto& table = expectedMaxTable();
    const double position =
        std::min(std::log2(static_cast<double>(n)), static_cast<double>(kMostDoublings)) * kStepsPerDoubling;
    const int below = std::min(static_cast<int>(position), kPoints - 2);
    const double fraction = position - below;
    return table[below] + fraction * (table[below + 1] - table[below]);
}

double stragglerWaitS(double spread, int gpus, double synchronisedS) {
    return spread > 0.0 ? spread * expectedMaxOfNormals(gpus) * synchronisedS : 0.0;
}

} // namespace carbon3d
