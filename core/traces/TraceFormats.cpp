// SPDX-License-Identifier: MIT
#include "traces/TraceFormats.h"

#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"

#include <algorithm>
#include <array>
#include <filesystem>

namespace carbon3d {

namespace traces_detail {

bool TraceFileHead::has(std::string_view name) const {
    return std::find(header.names.begin(), header.names.end(), name) != header.names.end();
}

namespace {

// `object` is a JSON object with every one of these keys.
bool hasKeys(const JsonValue* object, std::initializer_list<std::string_view> keys) {
    return object != nullptr && object->isObject() &&
           std::all_of(keys.begin(), keys.end(),
                       [object](std::string_view key) { return object->find(key) != nullptr; });
}

} // namespace

bool TraceFileHead::hasKeys(std::initializer_list<std::string_view> keys) const {
    return json && traces_detail::hasKeys(&*json, keys);
}

// What detection reads of the file: its CSV header, or its JSON document parsed once.
TraceFileHead readTraceFileHead(std::string_view text, const std::string& path) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        throw InputError(path, 1, 0, "empty file: expected a CSV header or a JSON document");
    TraceFileHead head;
    if (text[first] == '{' || text[first] == '[')
        head.json = parseJson(text, path);
    else
        head.header = readCsvHeader(text);
    return head;
}

void refuseUnrecognised(const TraceFileHead& head, const std::string& path, const std::string& refusal,
                        const std::vector<std::string>& expected) {
    const std::string found = head.json ? "a JSON document none of whose keys match"
                                        : "the header " + quotedExcerpt(joinedText(head.header.names, ","));
    throw InputError(path, head.json ? head.json->line() : head.header.line,
                     head.json ? head.json->column() : 0,
                     refusal + ": found " + found + "; expected one of: " + joinedText(expected, ", "));
}

namespace {

// A canonical file carries no licence of its own; the bundled ones sit next to a SOURCES.md that states
// the Electricity Maps ODbL terms, and the attribution must then travel with the trace.
std::string attributionFromSourcesNote(const std::string& path) {
    namespace fs = std::filesystem;
    const fs::path note = fs::path(path).parent_path() / "SOURCES.md";
    std::error_code ec;
    if (!fs::is_regular_file(note, ec))
        return {};
    std::string text;
    try { // the guarded reader: at most 1 MiB, never the open results database under another name
        text = readInputFile(note.string(), std::int64_t{1024} * 1024, "a SOURCES.md note");
    } catch (const InputError&) {
        return {};
    }
    if (text.find("Electricity Maps Data Portal") != std::string::npos &&
        text.find("ODbL") != std::string::npos)
        return electricityMapsAttribution();
    return {};
}

RawTrace canonical(const TraceFileHead&, std::string_view text, const std::string& file,
                   const TraceLoadOptions& /*options*/) {
    RawTrace raw = parseCanonicalCsv(text, file);
    raw.attribution = attributionFromSourcesNote(file);
    return raw;
}

// The JSON formats' first record or element, for detection by its keys.
const JsonValue* firstElement(const JsonValue* list) {
    return list != nullptr && list->isArray() && !list->items().empty() ? &list->items().front() : nullptr;
}

// UK Carbon Intensity: {"data":...}. The formats before it in the table claim "data" with "zone" or "meta",
// so what is left is the UK API's, and its parser names what a malformed one lacks.
bool isUkCarbonIntensity(const TraceFileHead& head) {
    return head.hasKeys({"data"});
}

// Electricity Maps API v3: a zone and its records ("history", "data") or one record ("carbonIntensity").
bool isElectricityMapsApi(const TraceFileHead& head) {
    return head.hasKeys({"zone"}) &&
           (head.hasKeys({"history"}) || head.hasKeys({"carbonIntensity"}) ||
            hasKeys(firstElement(head.json->find("data")), {"carbonIntensity"}) ||
            (head.hasKeys({"data"}) && firstElement(head.json->find("data")) == nullptr));
}

// Carbon Aware SDK: an array of emissions records, the one JSON format whose root is an array.
bool isCarbonAwareSdk(const TraceFileHead& head) {
    return head.json && head.json->isArray();
}

// A two-column CSV whose value column names a unit; the canonical header is its own entry, before this one.
bool isUnitCsv(const TraceFileHead& head) {
    const std::vector<std::string>& names = head.header.names;
    static const std::array<std::string_view, 4> times{"timestamp", "time", "datetime", "point_time"};
    return names.size() == 2 && std::find(times.begin(), times.end(), names[0]) != times.end() &&
           intensityUnitIn(names[1]).has_value();
}

} // namespace

// Long by design: the table of formats reads best as one list.
const std::vector<TraceFormat>& traceFormats() {
    static const std::vector<TraceFormat> formats{
        {"electricitymaps-csv", "Electricity Maps Data Portal CSV",
         "Datetime (UTC),...,Carbon intensity gCO2eq/kWh (Life cycle),...", "*.csv",
         [](const TraceFileHead& head) { return head.has("datetime (utc)"); },
         [](const TraceFileHead&, std::string_view text, const std::string& file,
            const TraceLoadOptions& options) { return parseElectricityMapsCsv(text, file, options.column); }},
        {"electricitymaps-api-json", "Electricity Maps API JSON",
         R"({"zone","history"|"data":[{"carbonIntensity","datetime",...}]})", "*.json", isElectricityMapsApi,
         [](const TraceFileHead& head, std::string_view, const std::string& file,
            const TraceLoadOptions& options) {
             return parseElectricityMapsApiJson(*head.json, file, options.column);
         }},
        {"watttime-moer-csv", "WattTime MOER CSV", "point_time,value,...", "*.csv",
         [](const TraceFileHead& head) { return head.has("point_time") && head.has("value"); },
         [](const TraceFileHead&, std::string_view text, const std::string& file, const TraceLoadOptions&) {
             return parseWattTimeCsv(text, file);
         }},
        {"watttime-json", "WattTime v3 JSON", R"({"data":[{"point_time","value"}],"meta":{"units",...}})",
         "*.json",
         [](const TraceFileHead& head) {
             return head.hasKeys({"data", "meta"});
         },
         [](const TraceFileHead& head, std::string_view, const std::string& file, const TraceLoadOptions&) {
             return parseWattTimeJson(*head.json, file);
         }},
        {"uk-carbon-intensity-json", "UK Carbon Intensity API JSON",
         R"({"data":[{"from","to","intensity"}]})", "*.json", isUkCarbonIntensity,
         [](const TraceFileHead& head, std::string_view, const std::string& file, const TraceLoadOptions&) {
             return parseUkCarbonIntensityJson(*head.json, file);
         }},
        {"carbon-aware-sdk-json", "Carbon Aware SDK emissions JSON",
         R"([{"location","time","rating","duration"}])", "*.json", isCarbonAwareSdk,
         [](const TraceFileHead& head, std::string_view, const std::string& file, const TraceLoadOptions&) {
             return parseCarbonAwareSdkJson(*head.json, file);
         }},
        {"canonical-csv", "canonical CSV", "timestamp,carbon_intensity_g_per_kwh", "*.csv",
         [](const TraceFileHead& head) {
             const std::vector<std::string>& names = head.header.names;
             return names.size() >= 2 && names[0] == "timestamp" &&
                    (names[1] == "carbon_intensity_g_per_kwh" || names[1] == "marginal_g_per_kwh");
         },
         canonical},
        {"unit-csv", "CSV of a time and a value with its unit", "timestamp,carbon_intensity (gCO2eq/kWh)",
         "*.csv", isUnitCsv,
         [](const TraceFileHead&, std::string_view text, const std::string& file, const TraceLoadOptions&) {
             return parseUnitCsv(text, file);
         }},
    };
    return formats;
}

} // namespace traces_detail

std::string traceFormatNames() {
    std::vector<std::string> names;
    for (const traces_detail::TraceFormat& format : traces_detail::traceFormats())
        names.emplace_back(format.name);
    return spokenList(names, "or");
}

std::string traceFilePatterns() {
    std::vector<std::string> patterns;
    for (const traces_detail::TraceFormat& format : traces_detail::traceFormats()) {
        if (std::find(patterns.begin(), patterns.end(), format.pattern) == patterns.end())
            patterns.emplace_back(format.pattern);
    }
    return joinedText(patterns, " ");
}

} // namespace carbon3d
