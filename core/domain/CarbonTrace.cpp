// SPDX-License-Identifier: MIT
#include "domain/CarbonTrace.h"

namespace carbon3d {

const char* carbonSignalName(CarbonSignal signal) {
    return signal == CarbonSignal::Average ? "average" : "marginal";
}

} // namespace carbon3d
