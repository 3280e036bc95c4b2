// SPDX-License-Identifier: MIT
#include "traces/TraceLoader.h"

#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "traces/CsvText.h"
#include "traces/RawTrace.h"

#include <QByteArrayView>
#include <QCryptographicHash>
#include <algorithm>
#include <filesystem>
#include <fstream>

namespace carbon3d {

using namespace traces_detail;

std::string traces_detail::sha256Hex(const std::string& bytes) {
    return QCryptographicHash::hash(QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

const std::string& electricityMapsAttribution() {
    static const std::string text =
        "Contains information from the Electricity Maps Data Portal "
        "(https://www.electricitymaps.com/data-portal), "
        "made available under the Open Database License (ODbL 1.0). (c) Electricity Maps.";
    return text;
}

namespace {

// Checked before reading so that a wrong path (a multi-gigabyte dump, a device) cannot exhaust memory.
std::string readTraceFile(const std::string& path, std::int64_t maxBytes) {
    return readInputFile(path, maxBytes, "a carbon-intensity trace file");
}

// A canonical file carries no licence of its own; the bundled ones sit next to a SOURCES.md that states
// the Electricity Maps ODbL terms, and the attribution must then travel with the trace.
std::string attributionFromSourcesNote(const std::string& path) {
    namespace fs = std::filesystem;
    const fs::path note = fs::path(path).parent_path() / "SOURCES.md";
    std::error_code ec;
    if (!fs::is_regular_file(note, ec) || fs::file_size(note, ec) > std::uintmax_t{1024} * 1024)
        return {};
    std::ifstream in(note, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("Electricity Maps Data Portal") != std::string::npos &&
        text.find("ODbL") != std::string::npos)
        return electricityMapsAttribution();
    return {};
}

enum class Format { Canonical, ElectricityMaps, WattTime, UkCarbonIntensity, CarbonAwareSdk };

Format detectFormat(std::string_view text, const std::string& path) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        throw InputError(path, 1, 0, "empty file: expected a CSV header or a JSON document");
    if (text[first] == '{')
        return Format::UkCarbonIntensity;
    if (text[first] == '[')
        return Format::CarbonAwareSdk;
    const CsvHeader header = readCsvHeader(text);
    const auto has = [&](std::string_view name) {
        return std::find(header.names.begin(), header.names.end(), name) != header.names.end();
    };
    if (has("datetime (utc)"))
        return Format::ElectricityMaps;
    if (has("point_time") && has("value"))
        return Format::WattTime;
    if (!header.names.empty() && header.names.front() == "timestamp")
        return Format::Canonical;
    throw InputError(
        path, header.line, 0,
        "unknown format: expected one of: canonical CSV (timestamp,carbon_intensity_g_per_kwh), "
        "Electricity Maps Data Portal CSV (Datetime (UTC),...,Carbon Intensity gCO2eq/kWh (LCA),...), "
        "WattTime MOER CSV (point_time,value,...), UK Carbon Intensity API JSON ({\"data\":[...]}), "
        "Carbon Aware SDK emissions JSON ([{\"location\",\"time\",\"rating\",\"duration\"}])");
}

std::string regionFromFileName(const std::string& path) {
    const std::string stem = std::filesystem::path(path).stem().string();
    return stem.substr(0, stem.find('_'));
}

} // namespace

CarbonTrace loadCarbonTrace(const std::string& path, const TraceLoadOptions& options) {
    if (!options.column.empty() && options.column != "lca" && options.column != "direct")
        throw InputError(path, 0, 0,
                         "unknown column option '" + options.column + "': expected 'lca' or 'direct'");
    if (!options.timeZone.empty() && !isKnownTimeZone(options.timeZone))
        throw InputError(path, 0, 0,
                         "unknown IANA time zone '" + options.timeZone +
                             "': expected a zone such as Europe/Berlin");

    const std::string bytes = readTraceFile(path, options.maxFileBytes);
    std::string_view text(bytes);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") // UTF-8 byte-order mark, as spreadsheet exports write it
        text.remove_prefix(3);

    RawTrace raw;
    switch (detectFormat(text, path)) {
    case Format::Canonical:
        raw = parseCanonicalCsv(text, path);
        raw.attribution = attributionFromSourcesNote(path);
        break;
    case Format::ElectricityMaps:
        raw = parseElectricityMapsCsv(text, path, options.column);
        break;
    case Format::WattTime:
        raw = parseWattTimeCsv(text, path);
        break;
    case Format::UkCarbonIntensity:
        raw = parseUkCarbonIntensityJson(text, path);
        break;
    case Format::CarbonAwareSdk:
        raw = parseCarbonAwareSdkJson(text, path);
        break;
    }

    GridResult grid = buildUniformGrid(raw, path, options.repair);

    CarbonTrace trace;
    trace.regionId = !options.regionId.empty()
                         ? options.regionId
                         : (!raw.regionId.empty() ? raw.regionId : regionFromFileName(path));
    trace.timeZone = !options.timeZone.empty() ? options.timeZone : defaultTimeZoneForRegion(trace.regionId);
    trace.signal = raw.signal;
    trace.startUtc = grid.startUtc;
    trace.stepSeconds = grid.stepSeconds;
    trace.gPerKwh = std::move(grid.gPerKwh);
    trace.marginalGPerKwh = std::move(grid.marginalGPerKwh);
    TraceProvenance& provenance = trace.provenance;
    provenance.sourceFile = path;
    provenance.format = raw.format;
    provenance.column = raw.column;
    provenance.contentSha256 = sha256Hex(bytes);
    provenance.attribution = raw.attribution;
    provenance.repairs = std::move(grid.repairs);
    provenance.notes = std::move(raw.notes);
    provenance.notes.insert(provenance.notes.end(), grid.notes.begin(), grid.notes.end());
    provenance.estimatedRows = raw.estimatedRows;
    return trace;
}

} // namespace carbon3d
