// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "engine/forecast/Forecaster.h"

#include <ostream>
#include <string>
#include <vector>

// docs/RESULTS.md's "Forecast error by lead": how the default forecast's error grows with lead time beside
// the published anchor it follows, the other forecasters, and a real operator's forecasts as issued (the
// bundled GB archive, sample_data/forecasts/GB_2023-05), with the error structure the default assumes set
// beside what that archive shows.
namespace carbon3d::reports {

// How a forecaster's errors hang together: the correlation of relative errors 1 hour apart along one issue's
// leads, and of the errors two issues 1 hour apart make for the same target.
struct ErrorStructure {
    double alongLeadsOneHour = 0.0;
    double acrossIssuesOneHour = 0.0;
};

// Forecasts issued every hour of [firstIssue, endIssue) over horizonSlots leads (fewer at the trace's end).
ErrorStructure errorStructure(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstIssue,
                              std::size_t endIssue, std::size_t horizonSlots);

struct LeadErrorRow {
    std::string label;
    std::vector<double> mapeByBucket; // in the order of leadBucketLabels(); NaN where no lead reached
};

struct ForecastLeadReport {
    std::vector<LeadErrorRow> rows;
    double publishedDayAheadMape = 0.0; // the default's anchor (OperationalErrorModel::dayAheadMape)
    double modelDayAheadMape = 0.0; // the default's mean error over leads of 1 to 24 h on the bundled traces
    ErrorStructure archive;         // the GB operator's forecasts as issued
    ErrorStructure model;           // the default forecast on the same half-hours
};

// "0 h" (the slot under way), "1-6 h", "6-12 h", "12-24 h", "24-48 h".
const std::vector<std::string>& leadBucketLabels();

// `traces`: the bundled 2022 traces; `archiveDirectory`: sample_data/forecasts/GB_2023-05 (the archive's
// forecasts and actuals). InputError when a file cannot be read.
ForecastLeadReport computeForecastLeadReport(const std::vector<CarbonTrace>& traces, double horizonHours,
                                             const std::string& archiveDirectory);

void renderForecastLeadMarkdown(std::ostream& md, const ForecastLeadReport& report);

} // namespace carbon3d::reports
