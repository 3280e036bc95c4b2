// SPDX-License-Identifier: MIT
// The three CSV formats. Hot loops work on string_views into the file's bytes: no regex, no QString
// and no allocation per cell, numbers through std::from_chars (a bundled 8,760-row year loads in
// about a millisecond).

#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/PrintableText.h"
#include "traces/FormatFields.h"
#include "traces/RawTrace.h"
#include "traces/TraceLoader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace carbon3d::traces_detail {

double numberCell(const CsvCell& cell, const std::string& file, int line, std::string_view what) {
    if (cell.text.empty())
        throw InputError(file, line, cell.column,
                         "expected a number for " + std::string(what) + ", found an empty cell");
    const auto parsed = parseCsvNumber(cell.text);
    if (!parsed)
        throw InputError(file, line, cell.column,
                         "unparsable number " + quotedExcerpt(cell.text) +
                             ": expected a decimal number for " + std::string(what));
    return *parsed;
}

UtcSeconds timestampCell(const CsvCell& cell, const std::string& file, int line, std::string_view example) {
    const auto parsed = parseIsoDateTime(cell.text);
    if (!parsed)
        throw InputError(file, line, cell.column,
                         "unparsable timestamp " + quotedExcerpt(cell.text) + ": expected " +
                             std::string(example));
    return *parsed;
}

int findColumn(const std::vector<std::string>& header, std::string_view name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

RawTrace parseCanonicalCsv(std::string_view text, const std::string& file) {
    const CsvHeader header = readCsvHeader(text);
    RawTrace raw;
    raw.headerLine = header.line;
    const auto& names = header.names;
    // Accepted headers: timestamp,carbon_intensity_g_per_kwh[,marginal_g_per_kwh] (average signal with an
    // optional marginal companion) and timestamp,marginal_g_per_kwh (a marginal-only trace, which is
    // what writeCanonicalCsv writes for one so that the signal survives a round trip).
    const bool averageFirst = names.size() >= 2 && names[1] == "carbon_intensity_g_per_kwh";
    const bool marginalOnly = names.size() == 2 && names[1] == "marginal_g_per_kwh";
    const bool withMarginal = names.size() == 3 && averageFirst && names[2] == "marginal_g_per_kwh";
    if (names.empty() || names[0] != "timestamp" ||
        !((averageFirst && names.size() == 2) || marginalOnly || withMarginal))
        throw InputError(
            file, header.line, 0,
            "unexpected canonical CSV header: expected "
            "'timestamp,carbon_intensity_g_per_kwh' with an optional third column 'marginal_g_per_kwh', "
            "or 'timestamp,marginal_g_per_kwh'");
    raw.column = names[1];
    raw.signal = marginalOnly ? CarbonSignal::Marginal : CarbonSignal::Average;
    raw.hasMarginal = withMarginal;
    raw.rows.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
    forEachCsvDataRow(text, file, names.size(), [&](const std::vector<CsvCell>& cells, int line) {
        RawRow row;
        row.line = line;
        row.startUtc =
            timestampCell(cells[0], file, line, "an ISO-8601 UTC time such as 2022-01-01T00:00:00Z");
        row.gPerKwh = numberCell(cells[1], file, line, names[1]);
        checkIntensity(row.gPerKwh, file, line, cells[1].column, "carbon intensity");
        if (withMarginal) {
            row.marginalGPerKwh = numberCell(cells[2], file, line, names[2]);
            checkIntensity(row.marginalGPerKwh, file, line, cells[2].column, "marginal carbon intensity");
        }
        raw.rows.push_back(row);
    });
    return raw;
}

RawTrace parsePriceCsv(std::string_view text, const std::string& file) {
    // Wholesale markets clear between their floor and cap (ERCOT's cap was 5,000 USD/MWh in 2022, the EU
    // day-ahead harmonised range -500 to 4,000 EUR/MWh): beyond 20,000 either way is a unit error.
    constexpr double kAbsurdUsdPerMwh = 20000.0;
    const CsvHeader header = readCsvHeader(text);
    RawTrace raw;
    raw.format = std::string(kPriceTraceFormat);
    raw.headerLine = header.line;
    if (header.names.size() != 2 || header.names[0] != "timestamp" || header.names[1] != "price_usd_per_mwh")
        throw InputError(file, header.line, 0,
                         "unexpected price trace header: expected 'timestamp,price_usd_per_mwh' (convert "
                         "other currencies to USD first, docs/ENGINE.md \"Cost\")");
    raw.column = header.names[1];
    forEachCsvDataRow(text, file, 2, [&](const std::vector<CsvCell>& cells, int line) {
        RawRow row;
        row.line = line;
        row.startUtc =
            timestampCell(cells[0], file, line, "an ISO-8601 UTC time such as 2022-01-01T00:00:00Z");
        row.gPerKwh = numberCell(cells[1], file, line, "price_usd_per_mwh");
        if (!(std::abs(row.gPerKwh) <= kAbsurdUsdPerMwh))
            throw InputError(file, line, cells[1].column,
                             "absurd electricity price " + std::string(cells[1].text) +
                                 " USD/MWh: expected a value between -20000 and 20000");
        raw.rows.push_back(row);
    });
    return raw;
}

RawTrace parseElectricityMapsCsv(std::string_view text, const std::string& file,
                                 const std::string& columnOption) {
    const CsvHeader header = readCsvHeader(text);
    RawTrace raw;
    raw.headerLine = header.line;
    const bool direct = columnOption == "direct";
    // The header is matched after lower-casing and writing the subscript ₂ as 2 (both spellings occur). The
    // portal's older files (the bundled 2022 downloads) name the life-cycle column "(LCA)", today's "(Life
    // cycle)".
    const std::array<std::string_view, 2> lifeCycle{"carbon intensity gco2eq/kwh (lca)",
                                                    "carbon intensity gco2eq/kwh (life cycle)"};
    int valueColumn = -1;
    if (direct) {
        valueColumn = findColumn(header.names, "carbon intensity gco2eq/kwh (direct)");
        raw.column = "Carbon Intensity gCO2eq/kWh (direct)";
    } else {
        valueColumn = findColumn(header.names, lifeCycle[0]);
        raw.column = "Carbon Intensity gCO2eq/kWh (LCA)";
        if (valueColumn < 0) {
            valueColumn = findColumn(header.names, lifeCycle[1]);
            raw.column = "Carbon intensity gCO2eq/kWh (Life cycle)";
        }
    }
    const int timeColumn = findColumn(header.names, "datetime (utc)");
    const int zoneColumn = findColumn(header.names, "zone id");
    const int estimatedColumn = findColumn(header.names, "data estimated");
    if (timeColumn < 0 || valueColumn < 0)
        throw InputError(
            file, header.line, 0,
            "Electricity Maps CSV header lacks '" +
                std::string(timeColumn < 0 ? "Datetime (UTC)" : raw.column) +
                "': expected the Data Portal columns Datetime (UTC), Country, Zone name, Zone id, "
                "Carbon intensity gCO2eq/kWh (direct), Carbon intensity gCO2eq/kWh (Life cycle) (older "
                "files: (LCA)), ...");
    raw.attribution = electricityMapsAttribution();
    std::string_view firstZone;
    int firstZoneLine = 0;
    raw.rows.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
    forEachCsvDataRow(text, file, header.names.size(), [&](const std::vector<CsvCell>& cells, int line) {
        RawRow row;
        row.line = line;
        const CsvCell& timeCell = cells[static_cast<std::size_t>(timeColumn)];
        row.startUtc = timestampCell(timeCell, file, line, "a UTC time such as 2022-01-01 00:00:00");
        const CsvCell& valueCell = cells[static_cast<std::size_t>(valueColumn)];
        row.gPerKwh = numberCell(valueCell, file, line, raw.column);
        checkIntensity(row.gPerKwh, file, line, valueCell.column, "carbon intensity");
        if (zoneColumn >= 0) {
            const std::string_view zone = cells[static_cast<std::size_t>(zoneColumn)].text;
            if (firstZoneLine == 0) {
                firstZone = zone;
                firstZoneLine = line;
            } else if (zone != firstZone) {
                throw InputError(file, line, cells[static_cast<std::size_t>(zoneColumn)].column,
                                 "second zone " + quotedExcerpt(zone) +
                                     ": expected one zone per file, line " + std::to_string(firstZoneLine) +
                                     " has " + quotedExcerpt(firstZone));
            }
        }
        if (estimatedColumn >= 0) {
            const std::string_view flag = cells[static_cast<std::size_t>(estimatedColumn)].text;
            if (flag == "true" || flag == "True" || flag == "TRUE" || flag == "1")
                ++raw.estimatedRows;
        }
        raw.rows.push_back(row);
    });
    raw.regionId = std::string(firstZone);
    if (estimatedColumn >= 0)
        raw.notes.push_back(std::to_string(raw.estimatedRows) + " of " + std::to_string(raw.rows.size()) +
                            " rows are flagged 'Data Estimated' by Electricity Maps");
    return raw;
}

RawTrace parseUnitCsv(std::string_view text, const std::string& file) {
    const CsvHeader header = readCsvHeader(text);
    RawTrace raw;
    raw.headerLine = header.line;
    const std::optional<IntensityUnit> unit =
        header.names.size() == 2 ? intensityUnitIn(header.names[1]) : std::nullopt;
    if (!unit)
        throw InputError(file, header.line, 0,
                         "unexpected header: expected two columns, a time and a value whose name holds its "
                         "unit, such as 'timestamp,carbon_intensity (gCO2eq/kWh)' (units: " +
                             intensityUnitNames() + ")");
    raw.column = header.names[1];
    raw.rows.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
    forEachCsvDataRow(text, file, 2, [&](const std::vector<CsvCell>& cells, int line) {
        RawRow row;
        row.line = line;
        row.startUtc = timestampCell(cells[0], file, line,
                                     "an ISO-8601 time with its offset, such as 2022-01-01T00:00:00Z");
        row.gPerKwh = numberCell(cells[1], file, line, header.names[1]) * unit->toGPerKwh;
        checkIntensity(row.gPerKwh, file, line, cells[1].column,
                       std::string("carbon intensity (converted from ") + unit->name + ")");
        raw.rows.push_back(row);
    });
    if (unit->toGPerKwh != 1.0)
        raw.notes.push_back(std::string("values converted from ") + unit->name + " to g/kWh");
    return raw;
}

RawTrace parseWattTimeCsv(std::string_view text, const std::string& file) {
    const double lbsPerMwhInGPerKwh = intensityUnitIn("lbs/MWh")->toGPerKwh; // WattTime v2 publishes lbs/MWh
    const CsvHeader header = readCsvHeader(text);
    RawTrace raw;
    raw.column = "value";
    raw.signal = CarbonSignal::Marginal;
    raw.headerLine = header.line;
    raw.attribution =
        "WattTime marginal operating emissions rate (MOER) data; its use is governed by WattTime's "
        "terms, which are not an open licence.";
    const int timeColumn = findColumn(header.names, "point_time");
    const int valueColumn = findColumn(header.names, "value");
    const int baColumn = findColumn(header.names, "ba");
    if (timeColumn < 0 || valueColumn < 0)
        throw InputError(file, header.line, 0,
                         "WattTime CSV header: expected columns 'point_time' and 'value'");
    std::string_view firstBa;
    int firstBaLine = 0;
    raw.rows.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
    forEachCsvDataRow(text, file, header.names.size(), [&](const std::vector<CsvCell>& cells, int line) {
        RawRow row;
        row.line = line;
        const CsvCell& timeCell = cells[static_cast<std::size_t>(timeColumn)];
        row.startUtc =
            timestampCell(timeCell, file, line, "an ISO-8601 time such as 2023-06-08T00:00:00+00:00");
        const CsvCell& valueCell = cells[static_cast<std::size_t>(valueColumn)];
        const double lbsPerMwh = numberCell(valueCell, file, line, "value (lbs/MWh)");
        row.gPerKwh = lbsPerMwh * lbsPerMwhInGPerKwh;
        checkIntensity(row.gPerKwh, file, line, valueCell.column, "MOER (converted from lbs/MWh)");
        if (baColumn >= 0) {
            const std::string_view ba = cells[static_cast<std::size_t>(baColumn)].text;
            if (firstBaLine == 0) {
                firstBa = ba;
                firstBaLine = line;
            } else if (ba != firstBa) {
                throw InputError(file, line, cells[static_cast<std::size_t>(baColumn)].column,
                                 "second balancing authority " + quotedExcerpt(ba) +
                                     ": expected one per file, line " + std::to_string(firstBaLine) +
                                     " has " + quotedExcerpt(firstBa));
            }
        }
        raw.rows.push_back(row);
    });
    raw.regionId = std::string(firstBa);
    return raw;
}

} // namespace carbon3d::traces_detail
