// SPDX-License-Identifier: MIT
#include "storage/ResultsStore.h"

#include "domain/InputError.h"
#include "domain/TextList.h"
#include "storage/BusyRetry.h"
#include "storage/RowMapping.h"
#include "storage/SqliteStatement.h"
#include "storage/SqliteTransaction.h"
#include "storage/StoreOpening.h"

#include <QDir>
#include <QFileInfo>
#include <chrono>
#include <sqlite3.h>
#include <stdexcept>

// The store's operations, one transaction each. The SQL lives beside it in core/storage: the schema in
// Schema.cpp, opening and migrating in StoreOpening.cpp, the statements of each row kind in RowMapping.cpp.
namespace carbon3d {

using namespace storage_detail;

namespace {

std::int64_t nowUtc() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

// ---------------------------------------------------------------------------------------------------------
// Opening
// ---------------------------------------------------------------------------------------------------------

void ResultsStore::CloseConnection::operator()(sqlite3* db) const {
    sqlite3_close_v2(db);
}

ResultsStore::ResultsStore(std::string path, OpenOptions options)
    : ResultsStore(std::move(path), options, kSchemaVersion) {}

ResultsStore::ResultsStore(std::string path, OpenOptions options, int targetVersion)
    : m_path(std::move(path))
    , m_owner(std::this_thread::get_id()) {
    const QFileInfo info(QString::fromStdString(m_path));
    if (info.exists() && !info.isFile())
        throw InputError(m_path, 0, 0,
                         "expected a results database file, found a directory or a special file");
    if (!info.exists() && options.mode == OpenMode::MustExist)
        throw InputError(m_path, 0, 0,
                         "no results database here (a run saved with --db FILE creates one; check the path)");
    const std::optional<std::string> unwritable =
        options.access == Access::ReadOnly ? std::optional<std::string>("it was opened for reading only")
                                           : whyUnwritable(m_path);
    if (unwritable) {
        if (info.exists() && options.access != Access::ReadWrite) {
            m_readOnlyReason = *unwritable;
            m_openMark = OpenDatabaseMark(m_path);
            m_db.reset(openReadOnly(m_path, options.check).release());
            return;
        }
        // Refused before any look at the file: even a read-only look creates a -wal and -shm beside it.
        throw InputError(m_path, 0, 0,
                         "this results database cannot be written: " + *unwritable +
                             ". Save to a database you can write (--db FILE)");
    }
    if (info.exists())
        checkBeforeWriting(m_path, options.check);
    else if (!QDir().mkpath(info.absolutePath()))
        throw InputError(m_path, 0, 0, "cannot create the directory for the results database");
    m_openMark = OpenDatabaseMark(m_path);
    m_db.reset(openReadWrite(m_path, options.mode).release());
    migrateTo(m_db.get(), m_path, targetVersion);
}

ResultsStore::~ResultsStore() = default;

void ResultsStore::createWithSchemaVersion(const std::string& path, int version) {
    if (version < 0 || version > kSchemaVersion)
        throw std::invalid_argument("schema version out of range");
    const ResultsStore store(path, OpenOptions{}, version);
}

void ResultsStore::checkThread() const {
    if (std::this_thread::get_id() != m_owner)
        throw std::logic_error("ResultsStore used from a thread other than the one that opened it");
}

void ResultsStore::checkWritable(const char* operation) const {
    checkThread();
    if (!m_readOnlyReason.empty())
        throw InputError(m_path, 0, 0,
                         std::string(operation) + ": the database is open for reading only (" +
                             m_readOnlyReason + ")");
}

// ---------------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------------

std::optional<RunId> ResultsStore::findIdenticalRun(std::int64_t scenarioId, const RunResult& run,
                                                    const std::string& optionsJson,
                                                    const std::string& modellingJson,
                                                    const std::string& traceList) const {
    SqliteStatement find(
        m_db.get(),
        "SELECT r.id FROM runs r WHERE r.scenario_id = :scenario AND r.policy = :policy "
        "AND r.options_json = :options AND r.modelling_json = :modelling "
        "AND r.forecast_kind = :forecast AND r.program_version = :version "
        "AND r.start_utc = :start AND r.deadline_utc = :deadline "
        "AND COALESCE((SELECT group_concat(trace_id, ',') FROM (SELECT trace_id FROM run_traces "
        "WHERE run_id = r.id ORDER BY region_index)), '') = :traces "
        "ORDER BY r.id LIMIT 1",
        m_path);
    find.bindInt(":scenario", scenarioId);
    find.bindText(":policy", run.policy);
    find.bindText(":options", optionsJson);
    find.bindText(":modelling", modellingJson);
    find.bindText(":forecast", run.forecastKind);
    find.bindText(":version", CARBON3D_VERSION);
    find.bindInt(":start", run.startUtc);
    find.bindInt(":deadline", run.deadlineUtc);
    find.bindText(":traces", traceList);
    if (!find.step())
        return std::nullopt;
    return find.integer(0);
}

RunId ResultsStore::saveRun(const StoredScenario& scenario, const RunResult& run,
                            const std::vector<StoredTrace>& traces, const SaveOptions& options) {
    checkWritable("saving a run");
    return retryingWhenBusy(m_path, "saving a run", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        const RunId id = insertRun(scenario, run, traces, options);
        transaction.commit();
        return id;
    });
}

RunId ResultsStore::insertRun(const StoredScenario& scenario, const RunResult& run,
                              const std::vector<StoredTrace>& traces, const SaveOptions& options) {
    if (scenario.contentHash.empty())
        throw InputError(m_path, 0, 0, "saving a run: the scenario has no content hash");
    if (!traces.empty()) {
        for (std::size_t i = 0; i < run.series.size(); ++i) {
            const int region = run.series[i].regionIndex;
            if (region < 0 || static_cast<std::size_t>(region) >= traces.size())
                throw InputError(m_path, 0, 0,
                                 "saving a run: series interval " + std::to_string(i) + " has region index " +
                                     std::to_string(region) + " but " + std::to_string(traces.size()) +
                                     " trace(s) were given");
        }
    }
    const std::string optionsJson = mapToJson(run.options);
    const std::string modellingJson = mapToJson(run.modelling);
    const std::string name = options.name.empty() ? scenario.name + " / " + run.policy : options.name;
    const std::int64_t now = nowUtc();
    const std::int64_t scenarioId = upsertScenario(scenario, now);
    std::vector<std::int64_t> traceIds;
    traceIds.reserve(traces.size());
    for (const StoredTrace& trace : traces)
        traceIds.push_back(upsertTrace(trace));

    const std::string traceList =
        joinedText(traceIds, ",", [](std::int64_t traceId) { return std::to_string(traceId); });
    if (options.reuseIdentical) {
        // The scenario and trace rows are shared and unchanged.
        if (const std::optional<RunId> twin =
                findIdenticalRun(scenarioId, run, optionsJson, modellingJson, traceList))
            return *twin;
    }

    SqliteStatement insert(m_db.get(), insertRunSql(), m_path);
    bindRun(insert, RunRow{scenarioId, name, run.policy, optionsJson, modellingJson, run.forecastKind,
                           run.forecastMape, CARBON3D_VERSION, now, runStatusName(runStatusOf(run.metrics)),
                           run.startUtc, run.deadlineUtc});
    insert.exec();
    const RunId id = sqlite3_last_insert_rowid(m_db.get());

    SqliteStatement insertTrace(m_db.get(),
                                "INSERT INTO run_traces (run_id, region_index, trace_id) "
                                "VALUES (:run_id, :region_index, :trace_id)",
                                m_path);
    for (std::size_t i = 0; i < traceIds.size(); ++i) {
        insertTrace.bindInt(":run_id", id);
        insertTrace.bindInt(":region_index", static_cast<std::int64_t>(i));
        insertTrace.bindInt(":trace_id", traceIds[i]);
        insertTrace.exec();
    }

    SqliteStatement insertMetrics(m_db.get(), insertMetricsSql(), m_path);
    insertMetrics.bindInt(":run_id", id);
    bindMetrics(insertMetrics, run.metrics);
    insertMetrics.exec();

    insertSeries(id, run.series, options);

    SqliteStatement insertWarning(
        m_db.get(), "INSERT INTO warnings (run_id, idx, message) VALUES (:run_id, :idx, :message)", m_path);
    for (std::size_t i = 0; i < run.warnings.size(); ++i) {
        insertWarning.bindInt(":run_id", id);
        insertWarning.bindInt(":idx", static_cast<std::int64_t>(i));
        insertWarning.bindText(":message", run.warnings[i]);
        insertWarning.exec();
    }
    return id;
}

void ResultsStore::deleteUnusedScenariosAndTraces() {
    // Scenarios and traces are shared by runs; the last run out takes them along.
    SqliteStatement(m_db.get(), "DELETE FROM scenarios WHERE id NOT IN (SELECT scenario_id FROM runs)",
                    m_path)
        .exec();
    SqliteStatement(m_db.get(), "DELETE FROM traces WHERE id NOT IN (SELECT trace_id FROM run_traces)",
                    m_path)
        .exec();
}

std::int64_t ResultsStore::upsertScenario(const StoredScenario& scenario, std::int64_t now) {
    SqliteStatement insert(m_db.get(), insertScenarioSql(), m_path);
    bindScenario(insert, scenario);
    insert.bindInt(":created_at", now);
    insert.exec();
    SqliteStatement select(m_db.get(), selectScenarioIdSql(), m_path);
    bindScenarioKey(select, scenario);
    if (!select.step())
        throw std::logic_error("scenario row missing right after its insert");
    return select.integer(0);
}

std::int64_t ResultsStore::upsertTrace(const StoredTrace& trace) {
    SqliteStatement insert(m_db.get(), insertTraceSql(), m_path);
    bindTrace(insert, trace);
    insert.exec();
    SqliteStatement select(m_db.get(), selectTraceIdSql(), m_path);
    bindTraceKey(select, trace);
    if (!select.step())
        throw InputError(m_path, 0, 0,
                         "saving a run: trace '" + trace.regionId + "' was not stored (signal '" +
                             trace.signal + "': expected average or marginal)");
    return select.integer(0);
}

void ResultsStore::insertSeries(RunId id, const std::vector<IntervalRecord>& series,
                                const SaveOptions& options) {
    SeriesInsert insert(m_db.get(), m_path);
    constexpr std::size_t kProgressBlock = 1024;
    for (std::size_t i = 0; i < series.size(); ++i) {
        insert.insert(id, i, series[i]);
        if (options.progress && ((i + 1) % kProgressBlock == 0 || i + 1 == series.size()))
            options.progress(i + 1, series.size());
    }
}

void ResultsStore::renameRun(RunId id, const std::string& name) {
    checkWritable("renaming a run");
    if (name.empty())
        throw InputError(m_path, 0, 0, "renaming run " + std::to_string(id) + ": expected a non-empty name");
    retryingWhenBusy(m_path, "renaming a run", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        SqliteStatement update(m_db.get(), "UPDATE runs SET name = :name WHERE id = :id", m_path);
        update.bindText(":name", name);
        update.bindInt(":id", id);
        update.exec();
        if (sqlite3_changes(m_db.get()) == 0)
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        transaction.commit();
        return 0;
    });
}

void ResultsStore::deleteRun(RunId id) {
    checkWritable("deleting a run");
    retryingWhenBusy(m_path, "deleting a run", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        SqliteStatement remove(m_db.get(), "DELETE FROM runs WHERE id = :id", m_path);
        remove.bindInt(":id", id);
        remove.exec();
        if (sqlite3_changes(m_db.get()) == 0)
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        deleteUnusedScenariosAndTraces();
        transaction.commit();
        return 0;
    });
}

} // namespace carbon3d
