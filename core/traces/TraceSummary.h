// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"

#include <cstddef>
#include <cstdint>

namespace carbon3d {

// What `carbon3d-cli validate` prints about a trace.
struct TraceSummary {
    std::size_t rows = 0;
    UtcSeconds startUtc = 0;      // start of the first slot
    UtcSeconds endUtc = 0;        // end of the last slot (exclusive)
    std::int64_t stepSeconds = 0; // slot length, s
    double minGPerKwh = 0.0;      // gCO2eq/kWh; NaN for an empty trace
    double meanGPerKwh = 0.0;     // time-weighted mean (the grid is uniform, so the plain mean)
    double maxGPerKwh = 0.0;
};

TraceSummary summarizeTrace(const CarbonTrace& trace);

} // namespace carbon3d
