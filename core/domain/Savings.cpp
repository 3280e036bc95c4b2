// SPDX-License-Identifier: MIT
#include "domain/Savings.h"

#include <limits>

namespace carbon3d {

double savingsFraction(double baseline, double value) {
    // (baseline - value) / baseline rather than 1 - value / baseline: the saving itself is exact when the
    // two are close, and the store's savedFraction has always been computed this way.
    return baseline != 0.0 ? (baseline - value) / baseline : std::numeric_limits<double>::quiet_NaN();
}

} // namespace carbon3d
