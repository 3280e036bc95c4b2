// SPDX-License-Identifier: MIT
#include "domain/ClusterProfile.h"

#include "domain/TextList.h"

namespace carbon3d {

std::string unsupportedPrecision(const AcceleratorSpec& accelerator, Precision precision) {
    if (accelerator.peakFlops.count(precision) != 0)
        return {};
    const std::string available =
        joinedText(accelerator.peakFlops, ", ", [](const auto& entry) { return precisionName(entry.first); });
    return std::string(precisionName(precision)) + " is not supported by " + accelerator.name +
           " (its profile has " + available + ")";
}

} // namespace carbon3d
