// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "domain/Time.h"
#include "reports/ForecastLeadErrors.h"
#include "reports/StudyLesson.h"

#include <map>
#include <string>
#include <vector>

// docs/RESULTS.md as numbers: the bundled default scenario on every bundled region under every policy
// (computeResultsReport), and its Markdown (renderResultsMarkdown), whose findings are computed from them.
namespace carbon3d::reports {

struct ResultsReportInputs {
    std::string scenarioPath;                   // the bundled default scenario (scenarios/default.json)
    std::string sampleDataDirectory;            // holds traces/
    std::vector<std::string> requestedPolicies; // as given with --policy (empty: the whole catalogue)
};

// The policies a results report runs: the requested ones (or the catalogue), plus those its findings
// compare (static-max, the baseline, first; then oracle, dynamic-3d, suspend-resume when missing).
std::vector<std::string> resultsPolicies(const std::vector<std::string>& requested);

struct RegionResults {
    std::string region;
    double meanCi = 0.0;       // g/kWh over the job's window
    double dailySwing = 0.0;   // mean over the window's days of (max - min) / mean CI
    double delayedStart = 0.0; // 1 - (cleanest full-size runtime starting within the slack) / (starting now)
    std::vector<RunResult> runs;                                // in the order of resultsPolicies()
    const RunMetrics& metrics(const std::string& policy) const; // InputError when the policy did not run
    double saving(const std::string& policy) const;             // against static-max
    // The same schedules' saving with parked GPUs free (backfill 1, RunMetrics::sharedG), against
    // static-max's shared end: what the saving would be on a shared cluster.
    double sharedSaving(const std::string& policy) const;
};

// How well one forecast kind predicts each bundled trace: MAPE of forecasts issued every hour of 2022 over
// the scenario's horizon (engine/forecast/Forecaster.h, forecastMape), past data only.
struct ForecastError {
    std::string kind;
    std::vector<double> mapeByRegion; // in the order of ResultsReport::regions
    double meanMape = 0.0;            // over the regions
};

// One start date in one region under the scenario's default forecast: what dynamic-3d (with its default
// risk margin past the forecast horizon, and risk-neutral) and best-static (the least-carbon single
// configuration, fixed for the run) emit.
struct RobustnessCase {
    std::string region;
    UtcSeconds startUtc = 0;
    double bestStaticG = 0.0;
    double dynamicG = 0.0;
    double riskNeutralG = 0.0; // dynamic-3d with beyond_horizon_risk = 0
    double ratio() const { return dynamicG / bestStaticG; }
    double riskNeutralRatio() const { return riskNeutralG / bestStaticG; }
};

struct ResultsReport {
    std::vector<std::string> requestedPolicies; // quoted in the header's command line
    std::string scenarioName;
    UtcSeconds startUtc = 0;
    UtcSeconds deadlineUtc = 0;
    size_t menuOptions = 0;
    int gpusHeld = 0;
    std::map<std::string, std::string> modelling; // the modelling choices in force (the first run's)
    ForecastSpec forecast;
    std::vector<RegionResults> regions; // one per bundled trace
    // Evidence for the findings: rank correlation over the regions of the oracle's saving with the
    // delayed-start gain and with the daily swing.
    double oracleVsDelayedStartSpearman = 0.0;
    double oracleVsDailySwingSpearman = 0.0;
    bool staticMaxFinishesFirst = false;       // in every region, no policy completes before static-max
    std::vector<ForecastError> forecastErrors; // every forecaster that sees only the past
    ForecastLeadReport forecastByLead;         // the default's error by lead, beside a real operator's
    std::vector<RobustnessCase> robustness;    // the 1st and 15th of each month of 2022 x every region
    StudyLessonNumbers reshaping;              // when dynamic 3D parallelism pays (the Learn lesson's study)
};

// The start dates of the robustness table: 00:00 UTC on the 1st and the 15th of every month of 2022.
std::vector<UtcSeconds> robustnessStarts();

// Runs every policy on every bundled region (InputError when the sample data cannot be read).
ResultsReport computeResultsReport(const ResultsReportInputs& inputs);

std::string renderResultsMarkdown(const ResultsReport& report);

} // namespace carbon3d::reports
