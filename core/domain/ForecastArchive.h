// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/Time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// One predicted period of a forecast as its provider published it.
struct ForecastPeriod {
    UtcSeconds startUtc = 0;
    std::int64_t seconds = 0; // the period's length
    double gPerKwh = 0.0;
};

// One forecast as it was issued: when, and what it predicted (periods sorted by start, none overlapping).
struct ForecastIssue {
    UtcSeconds issuedUtc = 0;
    std::vector<ForecastPeriod> periods;

    // The issue's prediction for [a, b): the mean of the periods that cover it, each weighted by the part of
    // [a, b) it covers; nullopt when no period touches [a, b).
    std::optional<double> valueOver(UtcSeconds a, UtcSeconds b) const;
    UtcSeconds reachUtc() const; // the end of its last period (issuedUtc when it has none)
};

// The forecasts a team kept (a provider's API responses, a historical-forecast export): replayed by the
// "replay" forecast kind, so that a run decides on what was really known at each decision (docs/DATA.md,
// "Forecast files").
struct ForecastArchive {
    std::string sourcePath;             // as given: a file or a directory of files
    std::string format;                 // the forecast-format id, e.g. "watttime-forecast-json"; "mixed"
    std::string regionId;               // from the files; empty when they do not say
    std::optional<CarbonSignal> signal; // from the files; nullopt when they do not say
    std::string contentSha256;          // identifies the archive (hash of the files' hashes, in name order)
    std::string attribution;            // what must travel with the data, when its formats carry one
    std::vector<std::string> notes;     // facts a reader should know (duplicate issues, unit conversions)
    std::vector<ForecastIssue> issues;  // sorted by issuedUtc, one per issue time

    // The latest issue published at or before t; nullptr when none was.
    const ForecastIssue* latestIssuedBy(UtcSeconds t) const;
};

} // namespace carbon3d
