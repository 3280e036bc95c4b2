// SPDX-License-Identifier: MIT
// The results store's reading operations (ResultsStore.h: listing, loading, comparing, checking and exporting
// runs), one read transaction each, beside the writing operations of ResultsStore.cpp and the study
// operations of StudyStore.cpp.
#include "domain/InputError.h"
#include "domain/Savings.h"
#include "storage/BusyRetry.h"
#include "storage/ResultsStore.h"
#include "storage/RowMapping.h"
#include "storage/RunCsv.h"
#include "storage/SqliteStatement.h"
#include "storage/SqliteTransaction.h"

#include <limits>
#include <sqlite3.h>

namespace carbon3d {

using namespace storage_detail;

// ---------------------------------------------------------------------------------------------------------
// Reading. Each call reads inside one transaction, so it sees one consistent snapshot even while another
// process commits (WAL readers are never blocked by the writer).
// ---------------------------------------------------------------------------------------------------------

std::vector<RunSummary> ResultsStore::listRuns(const RunFilter& filter) const {
    checkThread();
    return retryingWhenBusy(m_path, "listing runs", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        SqliteStatement s(m_db.get(),
                          summarySelectSql() + "WHERE (:scenario_name = '' OR s.name = :scenario_name) "
                                               "AND (:scenario_hash = '' OR s.content_hash = :scenario_hash) "
                                               "AND (:policy = '' OR r.policy = :policy) "
                                               "AND (:region_id = '' OR t.region_id = :region_id) "
                                               "ORDER BY r.id DESC LIMIT :limit",
                          m_path);
        s.bindText(":scenario_name", filter.scenarioName);
        s.bindText(":scenario_hash", filter.scenarioHash);
        s.bindText(":policy", filter.policy);
        s.bindText(":region_id", filter.regionId);
        s.bindInt(":limit", filter.limit == 0 ? -1 : static_cast<std::int64_t>(filter.limit));
        std::vector<RunSummary> runs;
        while (s.step())
            runs.push_back(readSummary(s));
        return runs;
    });
}

std::optional<RunSummary> ResultsStore::findSummary(RunId id) const {
    SqliteStatement s(m_db.get(), summarySelectSql() + "WHERE r.id = :id", m_path);
    s.bindInt(":id", id);
    if (!s.step())
        return std::nullopt;
    return readSummary(s);
}

std::optional<RunSummary> ResultsStore::findFirstRunOf(const std::string& policy,
                                                       const std::string& scenarioHash) const {
    SqliteStatement s(m_db.get(),
                      summarySelectSql() +
                          "WHERE r.policy = :policy AND s.content_hash = :hash ORDER BY r.id LIMIT 1",
                      m_path);
    s.bindText(":policy", policy);
    s.bindText(":hash", scenarioHash);
    if (!s.step())
        return std::nullopt;
    return readSummary(s);
}

std::vector<IntervalRecord> ResultsStore::readSeries(RunId id) const {
    SqliteStatement s(m_db.get(), selectSeriesSql(), m_path);
    s.bindInt(":run_id", id);
    std::vector<IntervalRecord> series;
    while (s.step())
        series.push_back(readInterval(s, m_path));
    return series;
}

std::vector<IntervalRecord> ResultsStore::loadSeries(RunId id) const {
    checkThread();
    return retryingWhenBusy(m_path, "loading a run's series", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        if (!findSummary(id))
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        return readSeries(id);
    });
}

StoredRun ResultsStore::loadRun(RunId id) const {
    checkThread();
    return retryingWhenBusy(m_path, "loading a run", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        StoredRun stored;
        const std::optional<RunSummary> summary = findSummary(id);
        if (!summary)
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        stored.summary = *summary;

        SqliteStatement run(m_db.get(), selectStoredRunSql(), m_path);
        run.bindInt(":id", id);
        if (!run.step())
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        readStoredRun(run, stored, m_path + " (run " + std::to_string(id) + ")");
        RunResult& result = stored.result;
        result.metrics = stored.summary.metrics;

        SqliteStatement traces(m_db.get(), selectRunTracesSql(), m_path);
        traces.bindInt(":id", id);
        while (traces.step())
            stored.traces.push_back(readTrace(traces));

        result.series = readSeries(id);

        SqliteStatement warnings(m_db.get(), "SELECT message FROM warnings WHERE run_id = :id ORDER BY idx",
                                 m_path);
        warnings.bindInt(":id", id);
        while (warnings.step())
            result.warnings.push_back(warnings.text(0));
        return stored;
    });
}

std::vector<RunComparison> ResultsStore::compareRuns(const std::vector<RunId>& ids,
                                                     std::optional<RunId> baselineId) const {
    return compareRuns(ids, ComparisonBaseline{baselineId, {}});
}

namespace {

// One run against its baseline; `base` null: it has none.
RunComparison comparison(const RunSummary& run, const RunSummary* base) {
    RunComparison c;
    c.runId = run.id;
    c.name = run.name;
    c.policy = run.policy;
    c.regionId = run.regionId;
    c.scenarioName = run.scenarioName;
    c.metrics = run.metrics;
    c.chargedParkedShare = run.chargedParkedShare;
    if (!base) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        c.savedG = c.savedFraction = c.savedOperationalG = c.extraEnergyJ = c.extraCompletionSeconds =
            c.extraCostUsd = nan;
        return c;
    }
    c.baselineId = base->id;
    c.sameScenario = run.scenarioHash == base->scenarioHash;
    c.baselineMetrics = base->metrics;
    c.savedG = base->metrics.totalG - run.metrics.totalG;
    c.savedFraction = savingsFraction(base->metrics.totalG, run.metrics.totalG); // NaN for a 0 baseline
    c.savedOperationalG = base->metrics.operationalG - run.metrics.operationalG;
    c.extraEnergyJ = run.metrics.energyJ - base->metrics.energyJ;
    c.extraCompletionSeconds = run.metrics.completionSeconds - base->metrics.completionSeconds;
    c.extraCostUsd = run.metrics.costUsd - base->metrics.costUsd;
    return c;
}

} // namespace

std::vector<RunComparison> ResultsStore::compareRuns(const std::vector<RunId>& ids,
                                                     const ComparisonBaseline& baseline) const {
    checkThread();
    if (ids.empty())
        return {};
    return retryingWhenBusy(m_path, "comparing runs", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        const auto summaryOf = [&](RunId id) {
            std::optional<RunSummary> s = findSummary(id);
            if (!s)
                throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
            return *s;
        };
        std::vector<RunSummary> runs;
        runs.reserve(ids.size());
        for (const RunId id : ids)
            runs.push_back(summaryOf(id));
        std::vector<RunComparison> comparisons;
        comparisons.reserve(ids.size());
        if (baseline.policyPerScenario.empty()) {
            const RunSummary base = summaryOf(baseline.run.value_or(ids.front()));
            for (const RunSummary& run : runs)
                comparisons.push_back(comparison(run, &base));
            return comparisons;
        }
        for (const RunSummary& run : runs) {
            const RunSummary* base = nullptr;
            for (const RunSummary& candidate : runs) {
                if (candidate.policy == baseline.policyPerScenario &&
                    candidate.scenarioHash == run.scenarioHash && (!base || candidate.id < base->id))
                    base = &candidate;
            }
            // Not among those compared: the scenario's own baseline run in the store, said as such (a user
            // who picked two dynamic-3d runs still has the static-max run they were run beside).
            const std::optional<RunSummary> stored =
                base ? std::nullopt : findFirstRunOf(baseline.policyPerScenario, run.scenarioHash);
            comparisons.push_back(comparison(run, base ? base : (stored ? &*stored : nullptr)));
            comparisons.back().baselineNotCompared = stored.has_value();
        }
        return comparisons;
    });
}

std::vector<std::string> ResultsStore::integrityCheck() const {
    checkThread();
    return retryingWhenBusy(m_path, "checking the database", [&] {
        SqliteStatement s(m_db.get(), "PRAGMA integrity_check", m_path);
        std::vector<std::string> findings;
        while (s.step())
            findings.push_back(s.text(0));
        if (findings.size() == 1 && findings.front() == "ok")
            findings.clear();
        return findings;
    });
}

void ResultsStore::writeCompactCopy(const std::string& path) const {
    checkThread();
    retryingWhenBusy(m_path, "copying the database", [&] {
        SqliteStatement s(m_db.get(), "VACUUM INTO :path", m_path);
        s.bindText(":path", path);
        s.exec();
        return 0;
    });
}

ExportedRunFiles ResultsStore::exportRunCsv(RunId id, const std::string& directory, SeriesUnits units) const {
    const StoredRun run = loadRun(id);
    std::vector<std::string> regionIds;
    for (const StoredTrace& trace : run.traces)
        regionIds.push_back(trace.regionId);
    return writeRunCsvFiles(run.result, regionIds, directory, "run-" + std::to_string(id) + "-", units);
}

} // namespace carbon3d
