// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>

namespace carbon3d {

// Golden-section search for the minimum of a unimodal f on [lo, hi], to an interval narrower than tolerance;
// returns its midpoint. The one-parameter fits of the calibration (the FP8 cast, the cost of a pipeline
// exchange, Hopper's GEMM efficiency) each move one value with everything else held. Deterministic.
template <typename F> double goldenSectionMinimum(F&& f, double lo, double hi, double tolerance) {
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
    double fa = f(a), fb = f(b);
    while (hi - lo > tolerance) {
        if (fa <= fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    return (lo + hi) / 2.0;
}

} // namespace carbon3d
