// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"

#include <cstdint>
#include <string>

namespace carbon3d {

// How strict loading is. By default every defect is an error; repairs happen only when asked for,
// and each one is recorded in CarbonTrace::provenance.repairs.
struct TraceLoadOptions {
    bool repair = false;              // fill gaps, drop duplicates, sort rows instead of failing
    std::string column;               // Electricity Maps CSV: "lca" (default) or "direct"
    std::string regionId;             // overrides the id inferred from the file or its name
    std::string timeZone;             // IANA zone; default inferred from the region id, else "UTC"
    std::int64_t maxFileBytes = 64LL * 1024 * 1024; // refuse larger files rather than exhaust memory
};

// Detects the format (canonical two-column CSV, Electricity Maps Data Portal CSV, WattTime MOER CSV,
// UK Carbon Intensity API JSON, Carbon Aware SDK emissions JSON) and loads the file.
// Throws InputError naming the file, the line (and column for JSON) and what was expected.
CarbonTrace loadCarbonTrace(const std::string& path, const TraceLoadOptions& options = {});

} // namespace carbon3d
