// SPDX-License-Identifier: MIT
#include "traces/TraceFormats.h"

#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/TextList.h"

#include <algorithm>
#include <filesystem>

namespace carbon3d {

namespace traces_detail {

bool TraceFileHead::has(std::string_view name) const {
    return std::find(header.names.begin(), header.names.end(), name) != header.names.end();
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

RawTrace canonical(std::string_view text, const std::string& file, const TraceLoadOptions& /*options*/) {
    RawTrace raw = parseCanonicalCsv(text, file);
    raw.attribution = attributionFromSourcesNote(file);
    return raw;
}

RawTrace electricityMaps(std::string_view text, const std::string& file, const TraceLoadOptions& options) {
    return parseElectricityMapsCsv(text, file, options.column);
}

RawTrace wattTime(std::string_view text, const std::string& file, const TraceLoadOptions& /*options*/) {
    return parseWattTimeCsv(text, file);
}

RawTrace ukCarbonIntensity(std::string_view text, const std::string& file,
                           const TraceLoadOptions& /*options*/) {
    return parseUkCarbonIntensityJson(text, file);
}

RawTrace carbonAwareSdk(std::string_view text, const std::string& file, const TraceLoadOptions& /*options*/) {
    return parseCarbonAwareSdkJson(text, file);
}

} // namespace

const std::vector<TraceFormat>& traceFormats() {
    static const std::vector<TraceFormat> formats{
        {"electricitymaps-csv", "Electricity Maps Data Portal CSV",
         "Datetime (UTC),...,Carbon Intensity gCO2eq/kWh (LCA),...", "*.csv",
         [](const TraceFileHead& head) { return head.has("datetime (utc)"); }, electricityMaps},
        {"watttime-moer-csv", "WattTime MOER CSV", "point_time,value,...", "*.csv",
         [](const TraceFileHead& head) { return head.has("point_time") && head.has("value"); }, wattTime},
        {"uk-carbon-intensity-json", "UK Carbon Intensity API JSON", "{\"data\":[...]}", "*.json",
         [](const TraceFileHead& head) { return head.first == '{'; }, ukCarbonIntensity},
        {"carbon-aware-sdk-json", "Carbon Aware SDK emissions JSON",
         R"([{"location","time","rating","duration"}])", "*.json",
         [](const TraceFileHead& head) { return head.first == '['; }, carbonAwareSdk},
        {"canonical-csv", "canonical CSV", "timestamp,carbon_intensity_g_per_kwh", "*.csv",
         [](const TraceFileHead& head) {
             return !head.header.names.empty() && head.header.names.front() == "timestamp";
         },
         canonical},
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
