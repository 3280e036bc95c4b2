// SPDX-License-Identifier: MIT
#pragma once

// Internal to carbon3d_traces: the forecast-file formats as one table (ForecastFormats.cpp). Each entry is
// the one place a format's id, name, layout, detection and parser are spelled; loadForecastArchive and its
// messages read the table, so a new format is one entry plus its parser and fixture.

#include "domain/ForecastArchive.h"
#include "traces/TraceFormats.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d::traces_detail {

// What one forecast file holds.
struct ForecastFileContent {
    std::vector<ForecastIssue> issues;
    std::string regionId;               // empty when the file does not say
    std::optional<CarbonSignal> signal; // nullopt when the file does not say
    std::string attribution;
    std::vector<std::string> notes;
};

struct ForecastFormat {
    const char* id;     // what the archive records, e.g. "watttime-forecast-json"
    const char* name;   // as messages name it
    const char* layout; // what the file looks like, for the message when no format matches
    bool (*detect)(const TraceFileHead& head);
    ForecastFileContent (*parse)(const TraceFileHead& head, std::string_view text, const std::string& file);
    bool alsoATrace =
        false; // the trace formats read it too (a response carrying actuals beside the forecast)
};

// In detection order: the first entry whose detect() accepts the file reads it.
const std::vector<ForecastFormat>& forecastFormats();

} // namespace carbon3d::traces_detail
