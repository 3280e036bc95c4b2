// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "domain/Time.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

// Plain value types the results store takes and returns (no Qt, no SQLite): the GUI gets them back from a
// worker thread by value.
namespace carbon3d {

using RunId = std::int64_t;

// A scenario as the store keeps it. canonicalJson and contentHash come from core/config
// (canonicalJson(Scenario), scenarioHash(Scenario)); the store does not depend on config. Two runs whose
// scenarios have the same contentHash belong to the same scenario row: a re-run is recognised.
struct StoredScenario {
    std::string name;
    std::string canonicalJson;
    std::string contentHash;
};

// The identity of a carbon trace a run used: where it came from, not its values (the file can be re-read
// and checked against contentSha256).
struct StoredTrace {
    std::string regionId;
    std::string contentSha256; // hex SHA-256 of the source file's bytes (or of the values, see storedTraceOf)
    std::string sourceColumn;  // which column of the source was read; the same file read twice is two signals
    std::string sourceFile;
    std::string format;
    std::string signal = "average"; // "average" | "marginal"
    std::int64_t stepSeconds = 3600;
    UtcSeconds startUtc = 0;
    std::int64_t rows = 0;
    std::string attribution;

    bool operator==(const StoredTrace&) const = default;
};

// The identity of a loaded trace. A trace built in memory has no source file and so no file hash: then
// contentSha256 is "values:" + the SHA-256 of its values (start, step and every gPerKwh as IEEE bytes), so
// two different in-memory traces never share a row.
StoredTrace storedTraceOf(const CarbonTrace& trace);

// The traces of a scenario's regions in region order: what saveRun() takes for a run of that scenario
// (`simulate --db`: saveRun({s.name, canonicalJson(s), scenarioHash(s)}, result, storedTracesOf(s))).
std::vector<StoredTrace> storedTracesOf(const Scenario& scenario);

// What saveRun() records besides the result.
struct SaveOptions {
    std::string name; // the run's label; empty = "<scenario name> / <policy>"
    // When a run of the same scenario (content hash), traces, policy, options, modelling, forecast, window
    // and program version is already stored, return its id and save nothing: the engine is deterministic,
    // so that run is this one. The studio sets it, so that pressing Run twice does not fill the database
    // with twins that cannot be told apart.
    bool reuseIdentical = false;
    // Called inside the write transaction after every block of series rows (and once at the end) with
    // (rows written, rows in total). Lets a caller show progress, and lets the crash test know that the
    // transaction has begun. It must not call back into the store.
    std::function<void(std::size_t, std::size_t)> progress;
};

// How a run ended: derived from its metrics, stored so that `WHERE status = ...` works in sqlite3.
enum class RunStatus { MetDeadline, MissedDeadline, Unfinished };
const char* runStatusName(RunStatus status); // "met-deadline", "missed-deadline", "unfinished"
RunStatus runStatusOf(const RunMetrics& metrics);

// One row of listRuns(): enough to fill a table of runs without loading any series.
struct RunSummary {
    RunId id = 0;
    std::string name;
    std::string scenarioName;
    std::string scenarioHash;
    std::string policy;
    std::string regionId; // the first region's (region index 0)
    UtcSeconds startUtc = 0;
    UtcSeconds deadlineUtc = 0;
    UtcSeconds createdUtc = 0;
    std::string status;
    double chargedParkedShare = 1.0; // 1 - the run's backfill (RunResult::chargedParkedShare)
    RunMetrics metrics;              // SI units, exactly as saved
    std::size_t seriesRows = 0;
};

// Which runs listRuns() returns; empty fields match everything. Newest first.
struct RunFilter {
    std::string scenarioName;
    std::string scenarioHash;
    std::string policy;
    std::string regionId;  // matches the first region
    std::size_t limit = 0; // 0 = no limit
};

// Everything saved for one run.
struct StoredRun {
    RunSummary summary;
    StoredScenario scenario;
    std::vector<StoredTrace> traces; // by region index
    std::string programVersion;
    RunResult result; // including the series and the warnings
};

// One run against a baseline run. Savings are positive when the run emits less than the baseline.
// What each compared run is measured against: one run for all, or, so that runs of different regions or
// starts compare like with like, the run of one policy in each run's own scenario.
struct ComparisonBaseline {
    std::optional<RunId> run;      // one baseline for every run; none: the first compared run
    std::string policyPerScenario; // non-empty: each run against this policy's run of the same scenario
};

struct RunComparison {
    RunId runId = 0;
    RunId baselineId = 0; // 0: no baseline (no run of the baseline policy in this run's scenario)
    // The baseline is a stored run of the run's scenario that was not among those compared (per scenario).
    bool baselineNotCompared = false;
    std::string name;
    std::string policy;
    std::string regionId;
    std::string scenarioName;
    bool sameScenario = false; // false: comparing across scenarios (June vs December, CAISO vs DE)
    RunMetrics metrics;
    double chargedParkedShare = 1.0; // the run's attribution of parked GPUs, for its saving split
    RunMetrics baselineMetrics;
    double savedG = 0.0;                 // baseline total - run total, gCO2e
    double savedFraction = 0.0;          // savedG / baseline total; NaN when the baseline total is 0
    double savedOperationalG = 0.0;      // baseline operational - run operational, gCO2e
    double extraEnergyJ = 0.0;           // run energy - baseline energy, J
    double extraCompletionSeconds = 0.0; // run completion - baseline completion, s
    double extraCostUsd = 0.0;           // run cost - baseline cost, USD; NaN for a run saved before cost
};

// The units of an exported series (RunCsv.h): SI as stored, or the larger units analysts read.
enum class SeriesUnits { Si, Analyst };

// The two files exportRunCsv() wrote.
struct ExportedRunFiles {
    std::string seriesCsv;
    std::string metricsCsv;
};

} // namespace carbon3d
