// SPDX-License-Identifier: MIT
#include "reports/ForecastLeadErrors.h"

#include "engine/forecast/OperationalForecaster.h"
#include "reports/NumberFormat.h"
#include "traces/ForecastLoader.h"
#include "traces/TraceLoader.h"

#include <cmath>
#include <memory>
#include <numeric>

namespace carbon3d::reports {

namespace {

struct LeadBucket {
    double fromHours; // inclusive
    double toHours;   // exclusive
};

const std::vector<LeadBucket>& leadBuckets() {
    static const std::vector<LeadBucket> buckets{{0, 1}, {1, 6}, {6, 12}, {12, 24}, {24, 48.5}};
    return buckets;
}

// The mean of the per-lead errors whose lead lies in [fromHours, toHours); NaN when none does.
double meanOverLeads(const std::vector<double>& byLead, std::int64_t stepSeconds, double fromHours,
                     double toHours) {
    double sum = 0.0;
    int n = 0;
    for (std::size_t lead = 0; lead < byLead.size(); ++lead) {
        const double hours = static_cast<double>(lead) * static_cast<double>(stepSeconds) / 3600.0;
        if (hours >= fromHours && hours < toHours && !std::isnan(byLead[lead])) {
            sum += byLead[lead];
            ++n;
        }
    }
    return n > 0 ? sum / n : std::nan("");
}

// The per-lead errors averaged over each bucket of leads.
std::vector<double> bucketed(const std::vector<double>& byLead, std::int64_t stepSeconds) {
    std::vector<double> out;
    for (const LeadBucket& bucket : leadBuckets())
        out.push_back(meanOverLeads(byLead, stepSeconds, bucket.fromHours, bucket.toHours));
    return out;
}

// The element-wise mean of rows of equal length.
std::vector<double> meanOf(const std::vector<std::vector<double>>& rows) {
    std::vector<double> mean(rows.front().size(), 0.0);
    for (const std::vector<double>& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            mean[i] += row[i] / static_cast<double>(rows.size());
    return mean;
}

double correlation(const std::vector<double>& x, const std::vector<double>& y) {
    const auto n = static_cast<double>(x.size());
    const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
    const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

// Each lead's error of `kind` on every trace (forecasts issued every hour of it), averaged over the traces,
// which share one step.
std::vector<double> byLeadOfKind(const std::string& kind, const std::vector<CarbonTrace>& traces,
                                 double horizonHours) {
    std::vector<std::vector<double>> rows;
    for (const CarbonTrace& trace : traces) {
        ForecastSpec spec;
        spec.kind = kind;
        const std::unique_ptr<Forecaster> forecaster = makeForecaster(spec, trace);
        rows.push_back(forecastMapeByLead(*forecaster, trace, 0, trace.size(),
                                          forecastHorizonSlots(trace, horizonHours)));
    }
    return meanOf(rows);
}

} // namespace

ErrorStructure errorStructure(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstIssue,
                              std::size_t endIssue, std::size_t horizonSlots) {
    const auto hour = static_cast<std::size_t>(std::max<std::int64_t>(1, 3600 / trace.stepSeconds));
    std::vector<std::vector<double>> errors; // by issue (every hour), by lead
    std::vector<double> predicted;
    for (std::size_t issue = firstIssue; issue < std::min(endIssue, trace.size()); issue += hour) {
        forecaster.predict(issue, std::min(horizonSlots, trace.size() - issue), predicted);
        std::vector<double>& row = errors.emplace_back(predicted.size());
        for (std::size_t lead = 0; lead < row.size(); ++lead)
            row[lead] = predicted[lead] / trace.gPerKwh[issue + lead] - 1.0;
    }
    std::vector<double> along, alongLater, across, acrossLater;
    for (std::size_t k = 0; k < errors.size(); ++k) {
        for (std::size_t lead = 0; lead + hour < errors[k].size(); ++lead) {
            along.push_back(errors[k][lead]);
            alongLater.push_back(errors[k][lead + hour]);
            if (k + 1 < errors.size() && lead < errors[k + 1].size()) { // the next issue, on the same target
                across.push_back(errors[k][lead + hour]);
                acrossLater.push_back(errors[k + 1][lead]);
            }
        }
    }
    return {correlation(along, alongLater), correlation(across, acrossLater)};
}

const std::vector<std::string>& leadBucketLabels() {
    static const std::vector<std::string> labels{"0 h", "1-6 h", "6-12 h", "12-24 h", "24-48 h"};
    return labels;
}

ForecastLeadReport computeForecastLeadReport(const std::vector<CarbonTrace>& traces, double horizonHours,
                                             const std::string& archiveDirectory) {
    ForecastLeadReport report;
    report.publishedDayAheadMape = OperationalErrorModel{}.dayAheadMape;
    const std::int64_t step = traces.front().stepSeconds;
    for (const char* kind : {"operational", "ridge", "persistence"}) {
        const std::vector<double> byLead = byLeadOfKind(kind, traces, horizonHours);
        report.rows.push_back(
            {std::string("`") + kind + "`, mean of the seven 2022 traces", bucketed(byLead, step)});
        // The default's mean over leads of 1 to 24 h: what its anchor, a day-ahead forecast's error,
        // describes.
        if (std::string_view(kind) == "operational")
            report.modelDayAheadMape = meanOverLeads(byLead, step, 1.0, 24.5);
    }
    const CarbonTrace actual = loadCarbonTrace(archiveDirectory + "/GB_actual_2023-05.csv");
    const auto archive = std::make_shared<const ForecastArchive>(
        loadForecastArchive(archiveDirectory + "/GB_forecasts_2023-05.csv"));
    ForecastSpec replay;
    replay.kind = "replay";
    replay.archive = archive;
    // Decisions from the first slot after the archive's first issue to the first after its last: later ones
    // would read an ever older issue, a lead the operator never forecast at.
    const std::size_t horizon = forecastHorizonSlots(actual, horizonHours);
    const auto slotAfter = [&actual](UtcSeconds t) {
        return static_cast<std::size_t>((t - actual.startUtc) / actual.stepSeconds) + 1;
    };
    const std::size_t first = slotAfter(archive->issues.front().issuedUtc);
    const std::size_t end = slotAfter(archive->issues.back().issuedUtc) + 1;
    const std::unique_ptr<Forecaster> issued = makeForecaster(replay, actual);
    report.rows.push_back(
        {"GB operator as issued, 15-19 May 2023 (sample_data/forecasts/GB_2023-05)",
         bucketed(forecastMapeByLead(*issued, actual, first, end, horizon), actual.stepSeconds)});
    OperationalForecaster model(actual, 1);
    report.rows.push_back(
        {"`operational` on the same GB half-hours",
         bucketed(forecastMapeByLead(model, actual, first, end, horizon), actual.stepSeconds)});
    report.archive = errorStructure(*issued, actual, first, end, horizon);
    report.model = errorStructure(model, actual, first, end, horizon);
    return report;
}

void renderForecastLeadMarkdown(std::ostream& md, const ForecastLeadReport& r) {
    md << "\n## Forecast error by lead\n\n"
       << "Mean absolute percentage error by how far ahead the forecast looks, from forecasts issued every "
          "hour. "
          "The default forecast (`operational`) is the truth with the error published operational forecasts "
          "make: "
          "its mean over leads of 1 to 24 h on the bundled traces is "
       << percent(r.modelDayAheadMape) << ", against the published anchor "
       << percent(r.publishedDayAheadMape)
       << " (DACF's day-ahead mean over six grids; docs/DECISIONS.md). The last two rows replay the "
          "forecasts "
          "Great Britain's grid operator really issued over four days of May 2023, and the default forecast "
          "on "
          "the same half-hours.\n\n| forecast |";
    for (const std::string& label : leadBucketLabels())
        md << " " << label << " |";
    md << "\n|---|";
    for (std::size_t i = 0; i < leadBucketLabels().size(); ++i)
        md << "---:|";
    md << "\n";
    for (const LeadErrorRow& row : r.rows) {
        md << "| " << row.label << " |";
        for (double mape : row.mapeByBucket)
            md << " " << (std::isnan(mape) ? std::string("-") : percent(mape)) << " |";
        md << "\n";
    }
    md << "\nHow the errors hang together, the GB operator's forecasts against the default on the same "
          "half-hours: "
          "errors an hour apart along one forecast correlate "
       << fixed(r.archive.alongLeadsOneHour, 2) << " (default " << fixed(r.model.alongLeadsOneHour, 2)
       << "); two forecasts issued an hour apart agree on a target's error with correlation "
       << fixed(r.archive.acrossIssuesOneHour, 2) << " (default " << fixed(r.model.acrossIssuesOneHour, 2)
       << "). A forecast whose errors were independent slot by slot would let a planner average them away.\n";
}

} // namespace carbon3d::reports
