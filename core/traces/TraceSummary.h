// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"

#include <cstddef>
#include <cstdint>
#include <string>

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

// What reading a trace assumed and did, for a person, in one line: its format and the column read, the unit
// (and a conversion), its time zone (and whether it was assumed), its grid, then every repair and note:
// "electricitymaps-csv, column 'Carbon Intensity gCO2eq/kWh (LCA)', gCO2e/kWh; time zone Europe/Berlin;
// 8760 slots of 60 min from 2022-01-01T00:00:00Z; 1227 of 8760 rows are flagged as estimated by the source".
std::string traceAssumptionsText(const CarbonTrace& trace);

} // namespace carbon3d
