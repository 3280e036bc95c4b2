// SPDX-License-Identifier: MIT
#pragma once

// Internal to carbon3d_traces: the format parsers produce a RawTrace (rows as they stand in the
// file, with their positions), and one shared step turns it into a uniform CarbonTrace. That keeps
// validation and repair identical across formats.

#include "domain/CarbonTrace.h"
#include "domain/Json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d::traces_detail {

// Values above this are treated as a defect, not as a dirty grid: the most carbon-intensive grids
// (lignite-heavy, e.g. Kosovo, Mongolia) stay around 1,000 to 1,200 gCO2eq/kWh on a yearly mean.
constexpr double kAbsurdGPerKwh = 3000.0;

// A carbon-intensity unit a file may state (a CSV column's name, WattTime's `meta.units`): one table
// (IntensityUnits.cpp), each spelling with its factor to g/kWh.
struct IntensityUnit {
    const char* name; // as messages write it, e.g. "lbs/MWh"
    double toGPerKwh; // value in this unit x toGPerKwh = g/kWh
};
// The unit named in `text` (a column name such as "carbon_intensity (gCO2eq/kWh)" or "moer_lbs_per_mwh", or
// a unit id such as "lbs_co2_per_mwh"), matched case-insensitively with any CO2/CO2e/CO2eq/CO₂eq left out;
// nullopt when it names none of the table's.
std::optional<IntensityUnit> intensityUnitIn(std::string_view text);
// The table's units, for messages ("g/kWh, kg/MWh, kg/kWh or lbs/MWh").
std::string intensityUnitNames();

struct RawRow {
    UtcSeconds startUtc = 0;
    double gPerKwh = 0.0;
    double marginalGPerKwh = 0.0;         // only meaningful when RawTrace::hasMarginal
    std::int64_t declaredStepSeconds = 0; // from "to"/"duration" fields; 0 when the format has none
    int line = 0;                         // 1-based position of the row (JSON: of its timestamp element)
    int column = 0;                       // CSV: 0; JSON: 1-based column of the timestamp element
};

struct RawTrace {
    std::string format;   // provenance format id: the table's (TraceFormats.h), or kPriceTraceFormat
    std::string column;   // the source column used
    std::string regionId; // from the content; empty when the format does not say
    CarbonSignal signal = CarbonSignal::Average;
    bool hasMarginal = false;
    std::vector<RawRow> rows;
    std::vector<std::string> notes;
    std::size_t estimatedRows = 0;
    std::string attribution; // set by formats that always carry one
    int headerLine = 1;      // where "header only" errors point
    int headerColumn = 0;
};

// The known formats; `text` is the whole file without a UTF-8 byte-order mark.
RawTrace parseCanonicalCsv(std::string_view text, const std::string& file);
RawTrace parseElectricityMapsCsv(std::string_view text, const std::string& file,
                                 const std::string& columnOption);
RawTrace parseWattTimeCsv(std::string_view text, const std::string& file);
// The format id of electricity price traces (they share the grid step, whose messages name what they hold).
inline constexpr std::string_view kPriceTraceFormat = "price-csv";
// An electricity price trace, 'timestamp,price_usd_per_mwh': each row's price in RawRow::gPerKwh (the grid
// step treats every format's value column alike).
RawTrace parsePriceCsv(std::string_view text, const std::string& file);
// A two-column CSV, a time and a value whose column names its unit (intensityUnitIn):
// "timestamp,carbon_intensity (lbs/MWh)".
RawTrace parseUnitCsv(std::string_view text, const std::string& file);

// The JSON formats read the document detection parsed (TraceFormats.h).
RawTrace parseUkCarbonIntensityJson(const JsonValue& root, const std::string& file);
RawTrace parseCarbonAwareSdkJson(const JsonValue& root, const std::string& file);
// Electricity Maps API v3 carbon-intensity responses: history ({"zone","history":[...]}), past-range
// ({"zone","data":[...]}) and past (one record). `columnOption` "lca" or "direct", when given, must be the
// file's emissionFactorType.
RawTrace parseElectricityMapsApiJson(const JsonValue& root, const std::string& file,
                                     const std::string& columnOption);
// What a WattTime v3 response's 'meta' says of its data (its signal, unit, region and point period; 0 when it
// gives none), shared by the signal and the forecast formats; throws InputError at the offending key.
struct WattTimeMeta {
    CarbonSignal signal = CarbonSignal::Average;
    IntensityUnit unit{};
    std::string regionId;
    std::int64_t periodSeconds = 0;
};
WattTimeMeta readWattTimeMeta(const JsonValue& meta, const std::string& file);
// WattTime v3 historical signal data: {"data":[{"point_time","value"}],"meta":{"units","signal_type",...}}.
RawTrace parseWattTimeJson(const JsonValue& root, const std::string& file);

// Checks one value for the rules shared by every format (finite, >= 0, not absurd); throws
// InputError at (line, column) naming `what` (e.g. "carbon intensity").
void checkIntensity(double gPerKwh, const std::string& file, int line, int column, std::string_view what);

// Turns rows into a uniform grid: order, duplicates, resolution, gaps (with repairs when asked),
// and appends each repair to `repairs`. Throws InputError for what it cannot or may not fix.
struct GridResult {
    UtcSeconds startUtc = 0;
    std::int64_t stepSeconds = 0;
    std::vector<double> gPerKwh;
    std::vector<double> marginalGPerKwh;
    std::vector<std::string> repairs;
    std::vector<std::string> notes;
};
GridResult buildUniformGrid(RawTrace& raw, const std::string& file, bool repair);

// Hex SHA-256 of a file's bytes: what identifies a trace's content.
std::string sha256Hex(const std::string& bytes);

// "2022-03-27T01:00Z" (seconds shown only when not zero): the short form used in repair sentences.
std::string shortUtc(UtcSeconds t);

} // namespace carbon3d::traces_detail
