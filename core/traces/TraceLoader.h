// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/InputError.h" // thrown by everything here
#include "domain/PriceTrace.h"
#include "traces/RegionTimeZones.h"
#include "traces/TraceSummary.h"
#include "traces/TraceWriter.h"

#include <cstdint>
#include <string>

namespace carbon3d {

// How strict loading is. By default every defect is an error; repairs happen only when asked for,
// and each one is recorded in CarbonTrace::provenance.repairs.
struct TraceLoadOptions {
    bool repair = false;  // fill gaps, drop duplicates, sort rows instead of failing
    std::string column;   // Electricity Maps CSV: "lca" (default) or "direct"
    std::string regionId; // overrides the id inferred from the file or its name
    std::string timeZone; // IANA zone; default inferred from the region id, else "UTC"
    std::int64_t maxFileBytes = 64LL * 1024 * 1024; // refuse larger files rather than exhaust memory
};

// Detects the format (traceFormatNames(): one table, core/traces/TraceFormats.cpp) and loads the file.
// Throws InputError naming the file, the line (and column for JSON) and what was expected.
//
// Detection reads the content, never the extension, and takes the table's first format that recognises
// it: a CSV header with "Datetime (UTC)" is Electricity Maps, one with "point_time" and "value" WattTime,
// '{' opens UK Carbon Intensity JSON, '[' Carbon Aware SDK JSON, a header starting with "timestamp" is the
// canonical form.
// Region id: options.regionId, else the file's own (Electricity Maps "Zone Id", WattTime "ba",
// Carbon Aware "location", "GB" / "GB-<regionid>" for the UK API), else the file-name stem before
// the first '_' (US-CAL-CISO_2022.csv -> US-CAL-CISO).
// Time zone: options.timeZone (must be a known IANA zone), else knownTimeZoneForRegion(regionId), else UTC
// with CarbonTrace::timeZoneAssumed set.
CarbonTrace loadCarbonTrace(const std::string& path, const TraceLoadOptions& options = {});

// Loads an electricity price trace ('timestamp,price_usd_per_mwh', UTC, one row per slot) with the rules of
// carbon traces: the same resolution, order, duplicate and gap checks and messages, repairs only when asked
// (options.repair). Throws InputError naming the file, the line and what was expected.
PriceTrace loadPriceTrace(const std::string& path, const TraceLoadOptions& options = {});

// The attribution that must travel with Electricity Maps Data Portal data (ODbL 1.0); stored in
// provenance.attribution for Electricity Maps files and for canonical files whose directory holds a
// SOURCES.md naming the Electricity Maps Data Portal under ODbL.
const std::string& electricityMapsAttribution();

// The formats loadCarbonTrace reads, named as a sentence lists them ("Electricity Maps Data Portal CSV, ...
// or canonical CSV"), and their file patterns for a file dialog ("*.csv *.json"); both from the table of
// formats (core/traces/TraceFormats.cpp).
std::string traceFormatNames();
std::string traceFilePatterns();

} // namespace carbon3d
