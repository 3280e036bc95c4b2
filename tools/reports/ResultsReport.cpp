// SPDX-License-Identifier: MIT
#include "reports/ResultsReport.h"

#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/Savings.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "engine/forecast/Forecaster.h"
#include "reports/BundledRegions.h"
#include "runner/ScenarioRunner.h"
#include "validation/Statistics.h"

#include <algorithm>
#include <numeric>

namespace carbon3d::reports {

namespace {

// The baseline of every saving: the catalogue's default (static-max, carbon-agnostic and fastest).
const std::string& baselinePolicy() {
    return defaultBaselinePolicy().name;
}

// The trace's signal over the job's window, [startUtc, deadlineUtc).
struct Window {
    const CarbonTrace& trace;
    std::size_t first = 0, last = 0;
};

Window windowOf(const PreparedScenario& prepared) {
    const CarbonTrace& trace = prepared.input.regions.front();
    return {trace, static_cast<std::size_t>((prepared.input.startUtc - trace.startUtc) / trace.stepSeconds),
            static_cast<std::size_t>((prepared.input.deadlineUtc - trace.startUtc) / trace.stepSeconds)};
}

double meanCi(const Window& w) {
    double sum = 0.0;
    for (std::size_t i = w.first; i < w.last; ++i)
        sum += w.trace.gPerKwh[i];
    return sum / static_cast<double>(w.last - w.first);
}

// Mean over the window's whole days of (max - min) / the window's mean CI.
double dailySwing(const Window& w, double mean) {
    const auto perDay = static_cast<std::size_t>(kSecondsPerDay / w.trace.stepSeconds);
    double swing = 0.0;
    int days = 0;
    for (std::size_t d = w.first; d + perDay <= w.last; d += perDay) {
        const auto begin = w.trace.gPerKwh.begin() + static_cast<std::ptrdiff_t>(d);
        const auto [lo, hi] = std::minmax_element(begin, begin + static_cast<std::ptrdiff_t>(perDay));
        swing += (*hi - *lo) / mean;
        ++days;
    }
    return swing / std::max(1, days);
}

// What a delayed start alone can buy: the mean CI over the static-max runtime starting at the best slot
// within the slack, against starting now.
double delayedStartGain(const Window& w, double runtimeSeconds) {
    const auto runtime = static_cast<std::size_t>(runtimeSeconds / w.trace.stepSeconds);
    auto windowMean = [&](std::size_t from) {
        double total = 0.0;
        for (std::size_t i = from; i < from + runtime; ++i)
            total += w.trace.gPerKwh[i];
        return total / static_cast<double>(runtime);
    };
    const double now = windowMean(w.first);
    double best = now;
    for (std::size_t s = w.first; s + runtime <= w.last; ++s)
        best = std::min(best, windowMean(s));
    return 1.0 - best / now;
}

ForecastError forecastErrorOf(const ForecastKindInfo& info, const std::vector<PreparedScenario>& regions,
                              double horizonHours) {
    ForecastError error;
    error.kind = info.kind;
    for (const PreparedScenario& prepared : regions) {
        const CarbonTrace& trace = prepared.input.regions.front();
        ForecastSpec spec = prepared.input.forecast;
        spec.kind = info.kind;
        auto forecaster = makeForecaster(spec, trace);
        error.mapeByRegion.push_back(
            forecastMape(*forecaster, trace, 0, trace.size(), forecastHorizonSlots(trace, horizonHours)));
    }
    error.meanMape = std::accumulate(error.mapeByRegion.begin(), error.mapeByRegion.end(), 0.0) /
                     static_cast<double>(error.mapeByRegion.size());
    return error;
}

bool staticMaxFinishesFirst(const std::vector<RegionResults>& regions) {
    for (const RegionResults& r : regions) {
        const double first = r.metrics(baselinePolicy()).completionSeconds;
        for (const RunResult& run : r.runs)
            if (run.metrics.completionSeconds < first)
                return false;
    }
    return true;
}

} // namespace

std::vector<UtcSeconds> robustnessStarts() {
    std::vector<UtcSeconds> starts;
    for (unsigned month = 1; month <= 12; ++month)
        for (unsigned day : {1U, 15U})
            starts.push_back(daysFromCivil(2022, month, day) * kSecondsPerDay);
    return starts;
}

std::vector<std::string> resultsPolicies(const std::vector<std::string>& requested) {
    std::vector<std::string> policies = requested;
    if (policies.empty())
        for (const PolicyInfo& info : policyCatalog())
            policies.emplace_back(info.name);
    auto has = [&](const std::string& name) {
        return std::find(policies.begin(), policies.end(), name) != policies.end();
    };
    if (!has(baselinePolicy()))
        policies.insert(policies.begin(), baselinePolicy());
    for (const char* compared : {"oracle", "dynamic-3d", "suspend-resume"}) // the findings compare these
        if (!has(compared))
            policies.emplace_back(compared);
    return policies;
}

const RunMetrics& RegionResults::metrics(const std::string& policy) const {
    for (const RunResult& run : runs)
        if (run.policy == policy)
            return run.metrics;
    throw InputError("report-results", 0, 0, "missing policy " + policy);
}

double RegionResults::saving(const std::string& policy) const {
    return savingsFraction(metrics(baselinePolicy()).totalG, metrics(policy).totalG);
}

double RegionResults::sharedSaving(const std::string& policy) const {
    return savingsFraction(metrics(baselinePolicy()).sharedG, metrics(policy).sharedG);
}

ResultsReport computeResultsReport(const ResultsReportInputs& inputs) {
    const Scenario base = loadScenario(inputs.scenarioPath);
    const std::vector<std::string> policies = resultsPolicies(inputs.requestedPolicies);
    ResultsReport report;
    report.requestedPolicies = inputs.requestedPolicies;
    report.scenarioName = base.name;
    report.forecast = base.forecast;
    std::vector<PreparedScenario> preparedRegions;
    for (const std::string& file : bundledTraceFiles()) {
        const PreparedScenario& prepared = preparedRegions.emplace_back(
            prepareScenario(inBundledRegion(base, inputs.sampleDataDirectory, file)));
        RegionResults row;
        row.region = prepared.input.regions.front().regionId;
        const Window window = windowOf(prepared);
        row.meanCi = meanCi(window);
        row.dailySwing = dailySwing(window, row.meanCi);
        const RunResult fastest = runPolicy(prepared, PolicySpec{baselinePolicy(), {}});
        row.delayedStart = delayedStartGain(window, fastest.metrics.completionSeconds);
        for (const std::string& name : policies)
            row.runs.push_back(runPolicy(prepared, PolicySpec{name, {}})); // the runner applies eadt's levers
        report.regions.push_back(std::move(row));
        // Every region shares the job, the menu and the window; the header quotes them.
        report.startUtc = prepared.input.startUtc;
        report.deadlineUtc = prepared.input.deadlineUtc;
        report.menuOptions = prepared.menu.size();
        report.gpusHeld = prepared.input.gpusHeld;
    }
    report.modelling = report.regions.front().runs.front().modelling;
    std::vector<double> oracle, delayed, swing;
    for (const RegionResults& r : report.regions) {
        oracle.push_back(r.saving("oracle"));
        delayed.push_back(r.delayedStart);
        swing.push_back(r.dailySwing);
    }
    report.oracleVsDelayedStartSpearman = spearman(oracle, delayed);
    report.oracleVsDailySwingSpearman = spearman(oracle, swing);
    report.staticMaxFinishesFirst = staticMaxFinishesFirst(report.regions);

    // The forecasters that see only the past: not the truth with or without a drawn error, not a file.
    std::vector<CarbonTrace> traces;
    traces.reserve(preparedRegions.size());
    for (const PreparedScenario& prepared : preparedRegions)
        traces.push_back(prepared.input.regions.front());
    for (const ForecastKindInfo& info : forecastCatalog())
        if (!info.perfectKnowledge && !info.seeded() && !info.takesFile)
            report.forecastErrors.push_back(
                forecastErrorOf(info, preparedRegions, base.forecast.effectiveHorizonHours()));
    report.forecastByLead = computeForecastLeadReport(traces, base.forecast.effectiveHorizonHours(),
                                                      inputs.sampleDataDirectory + "/forecasts/GB_2023-05");

    // The same job from every robustness start in every region: the menu does not depend on either, so
    // only the engine input is rebuilt (start, deadline).
    for (const PreparedScenario& region : preparedRegions) {
        for (const UtcSeconds start : robustnessStarts()) {
            PreparedScenario prepared = region;
            prepared.scenario.startUtc = start;
            prepared.input = makeSimulationInput(prepared.scenario, region.menu, region.input.totalWork);
            RobustnessCase row;
            row.region = prepared.input.regions.front().regionId;
            row.startUtc = start;
            row.bestStaticG = runPolicy(prepared, PolicySpec{"best-static", {}}).metrics.totalG;
            row.dynamicG = runPolicy(prepared, PolicySpec{"dynamic-3d", {}}).metrics.totalG;
            row.riskNeutralG =
                runPolicy(prepared, PolicySpec{"dynamic-3d", {{"beyond_horizon_risk", "0"}}}).metrics.totalG;
            report.robustness.push_back(row);
        }
    }
    report.reshaping = computeStudyLesson(loadStudyLesson(inputs.sampleDataDirectory));
    return report;
}

} // namespace carbon3d::reports
