// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ForecastArchive.h"
#include "domain/InputError.h" // thrown by everything here

#include <cstdint>
#include <string>

namespace carbon3d {

// The largest forecast file read (each file of a directory): the traces' limit.
inline constexpr std::int64_t kMaxForecastFileBytes = 64LL * 1024 * 1024;

// Loads the forecasts a team kept, for the "replay" forecast: one file, or a directory whose .csv and .json
// files are read in name order (one API response a file, as a scheduled download keeps them). Each file's
// format is detected from its header or JSON keys (forecastFormatNames(); one table,
// core/traces/ForecastFormats.cpp). Values are converted to g/kWh from the unit the file states.
//
// Throws InputError naming the file, the line (and column for JSON) and what was expected: for an unknown
// format, a malformed value, files that disagree on their region or signal, or a directory with no forecast
// file. An issue time that two files share keeps the later file's issue (a re-download), and says so in
// ForecastArchive::notes.
ForecastArchive loadForecastArchive(const std::string& path,
                                    std::int64_t maxFileBytes = kMaxForecastFileBytes);

// Whether the file's content is a forecast file of a format the trace loader does not read too (a UK 48-hour
// forecast response is both, and is taken for a trace): what `validate` asks before it reads a file. False
// for an unreadable file.
bool isForecastOnlyFile(const std::string& path);

// The formats loadForecastArchive reads, as a sentence lists them.
std::string forecastFormatNames();

} // namespace carbon3d
