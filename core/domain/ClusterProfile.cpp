// SPDX-License-Identifier: MIT
#include "domain/ClusterProfile.h"

namespace carbon3d {

std::string unsupportedPrecision(const AcceleratorSpec& accelerator, Precision precision) {
    if (accelerator.peakFlops.count(precision) != 0)
        return {};
    std::string available;
    for (const auto& entry : accelerator.peakFlops)
        available.append(available.empty() ? "" : ", ").append(precisionName(entry.first));
    return std::string(precisionName(precision)) + " is not supported by " + accelerator.name +
           " (its profile has " + available + ")";
}

} // namespace carbon3d
