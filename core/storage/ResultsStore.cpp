// SPDX-License-Identifier: MIT
#include "storage/ResultsStore.h"

#include "domain/InputError.h"
#include "domain/Json.h"
#include "storage/RunCsv.h"
#include "storage/SqliteStatement.h"
#include "storage/SqliteTransaction.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <sqlite3.h>
#include <sstream>

namespace carbon3d {

using storage_detail::BusyError;
using storage_detail::checkSqlite;
using storage_detail::SqliteStatement;
using storage_detail::SqliteTransaction;

namespace {

// ---------------------------------------------------------------------------------------------------------
// Schema migrations. Migration N takes a database from user_version N-1 to N; each runs in its own
// transaction. Never edit a released migration: add the next one (docs/DATABASE.md "Migrations").
// ---------------------------------------------------------------------------------------------------------

// v1: the tables. Instants are integer seconds since the Unix epoch, UTC; REAL columns are SI units named
// in the column; NULL in a REAL column means NaN (SQLite stores NaN as NULL). The series table's CHECKs are
// spelled as OR chains, not IN lists: SQLite builds an ephemeral table for an IN list once per statement
// run, i.e. once per inserted row here, which made a one-year save 2.5x slower (docs/PERFORMANCE.md).
constexpr const char* kMigration1 = R"sql(
CREATE TABLE scenarios (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    canonical_json TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
CREATE TABLE traces (
    id INTEGER PRIMARY KEY,
    region_id TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    source_column TEXT NOT NULL,
    source_file TEXT NOT NULL,
    format TEXT NOT NULL,
    signal TEXT NOT NULL CHECK (signal IN ('average', 'marginal')),
    step_seconds INTEGER NOT NULL,
    start_utc INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    attribution TEXT NOT NULL,
    UNIQUE (content_sha256, source_column, signal, region_id, step_seconds, start_utc, rows)
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    policy TEXT NOT NULL,
    options_json TEXT NOT NULL,
    modelling_json TEXT NOT NULL,
    forecast_kind TEXT NOT NULL,
    forecast_mape REAL,
    program_version TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('met-deadline', 'missed-deadline', 'unfinished')),
    start_utc INTEGER NOT NULL,
    deadline_utc INTEGER NOT NULL
);
CREATE TABLE run_traces (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    region_index INTEGER NOT NULL CHECK (region_index >= 0),
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE RESTRICT,
    PRIMARY KEY (run_id, region_index)
) WITHOUT ROWID;
CREATE TABLE metrics (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    operational_g REAL,
    marginal_g REAL,
    embodied_g REAL,
    total_g REAL,
    energy_j REAL,
    work_done REAL,
    completion_s REAL,
    finished INTEGER NOT NULL CHECK (finished IN (0, 1)),
    deadline_met INTEGER NOT NULL CHECK (deadline_met IN (0, 1)),
    reconfigurations INTEGER NOT NULL,
    reconfiguration_s REAL,
    preemptions INTEGER NOT NULL,
    preemption_s REAL,
    migrations INTEGER NOT NULL,
    migration_s REAL,
    average_power_w REAL,
    work_per_g REAL
);
CREATE TABLE series (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_utc INTEGER NOT NULL,
    end_utc INTEGER NOT NULL,
    region_index INTEGER NOT NULL,
    activity TEXT NOT NULL CHECK (activity = 'training' OR activity = 'paused' OR activity = 'reconfiguring'
                                  OR activity = 'preempting' OR activity = 'migrating'),
    dp INTEGER NOT NULL,
    tp INTEGER NOT NULL,
    pp INTEGER NOT NULL,
    micro_batch INTEGER NOT NULL,
    interleave INTEGER NOT NULL,
    recompute TEXT NOT NULL CHECK (recompute = 'none' OR recompute = 'selective' OR recompute = 'full'),
    sequence_parallel INTEGER NOT NULL CHECK (sequence_parallel = 0 OR sequence_parallel = 1),
    distributed_optimizer INTEGER NOT NULL CHECK (distributed_optimizer = 0 OR distributed_optimizer = 1),
    gpus_active INTEGER NOT NULL,
    gpus_held INTEGER NOT NULL,
    power_limit_w REAL,
    facility_power_w REAL,
    ci_g_per_kwh REAL,
    forecast_ci_g_per_kwh REAL,
    marginal_ci_g_per_kwh REAL,
    work_done REAL,
    energy_j REAL,
    emissions_g REAL,
    marginal_emissions_g REAL,
    embodied_g REAL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE warnings (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
)sql";

// v2: renamable run names (backfilled as "<scenario> / <policy>"), the indexes behind the foreign keys
// that lacked one, and the views for sqlite3 users (display units: kg, kWh, hours, ISO-8601 text).
constexpr const char* kMigration2 = R"sql(
ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
UPDATE runs SET name = (SELECT s.name FROM scenarios s WHERE s.id = runs.scenario_id) || ' / ' || policy;
CREATE INDEX runs_by_scenario ON runs(scenario_id, created_at);
CREATE INDEX run_traces_by_trace ON run_traces(trace_id);
CREATE VIEW run_summary AS
SELECT r.id AS run_id,
       r.name AS name,
       s.name AS scenario,
       r.policy AS policy,
       t.region_id AS region,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.start_utc, 'unixepoch') AS start,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.deadline_utc, 'unixepoch') AS deadline,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.created_at, 'unixepoch') AS created,
       r.status AS status,
       m.total_g / 1000.0 AS total_kg,
       m.operational_g / 1000.0 AS operational_kg,
       m.embodied_g / 1000.0 AS embodied_kg,
       m.marginal_g / 1000.0 AS marginal_kg,
       m.energy_j / 3.6e6 AS energy_kwh,
       m.completion_s / 3600.0 AS completion_h,
       m.average_power_w / 1000.0 AS average_power_kw,
       m.work_done AS work_done,
       m.work_per_g * 1000.0 AS work_per_kg,
       m.reconfigurations AS reconfigurations,
       m.preemptions AS preemptions,
       m.migrations AS migrations,
       m.deadline_met AS deadline_met
FROM runs r
JOIN scenarios s ON s.id = r.scenario_id
JOIN metrics m ON m.run_id = r.id
LEFT JOIN run_traces rt ON rt.run_id = r.id AND rt.region_index = 0
LEFT JOIN traces t ON t.id = rt.trace_id;
CREATE VIEW run_savings AS
SELECT r.id AS run_id,
       r.name AS name,
       r.policy AS policy,
       b.id AS baseline_id,
       b.policy AS baseline_policy,
       s.name AS scenario,
       mb.total_g / 1000.0 AS baseline_total_kg,
       mr.total_g / 1000.0 AS total_kg,
       (mb.total_g - mr.total_g) / 1000.0 AS saved_kg,
       100.0 * (mb.total_g - mr.total_g) / NULLIF(mb.total_g, 0) AS saved_pct,
       (mb.operational_g - mr.operational_g) / 1000.0 AS saved_operational_kg,
       (mr.energy_j - mb.energy_j) / 3.6e6 AS extra_energy_kwh,
       (mr.completion_s - mb.completion_s) / 3600.0 AS extra_hours
FROM runs r
JOIN runs b ON b.scenario_id = r.scenario_id AND b.id <> r.id
JOIN metrics mr ON mr.run_id = r.id
JOIN metrics mb ON mb.run_id = b.id
JOIN scenarios s ON s.id = r.scenario_id;
)sql";

constexpr const char* kMigrations[] = {kMigration1, kMigration2};
static_assert(std::size(kMigrations) == ResultsStore::kSchemaVersion, "one migration per schema version");

// The summary columns shared by listRuns() and findSummary(); readSummary() reads them in this order.
constexpr const char* kSummarySelect = R"sql(
SELECT r.id, r.name, s.name, s.content_hash, r.policy, COALESCE(t.region_id, ''),
       r.start_utc, r.deadline_utc, r.created_at, r.status,
       m.operational_g, m.marginal_g, m.embodied_g, m.total_g, m.energy_j, m.work_done, m.completion_s,
       m.finished, m.deadline_met, m.reconfigurations, m.reconfiguration_s, m.preemptions, m.preemption_s,
       m.migrations, m.migration_s, m.average_power_w, m.work_per_g
FROM runs r
JOIN scenarios s ON s.id = r.scenario_id
JOIN metrics m ON m.run_id = r.id
LEFT JOIN run_traces rt ON rt.run_id = r.id AND rt.region_index = 0
LEFT JOIN traces t ON t.id = rt.trace_id
)sql";

constexpr const char* kSeriesColumns[] = {"run_id",
                                          "idx",
                                          "start_utc",
                                          "end_utc",
                                          "region_index",
                                          "activity",
                                          "dp",
                                          "tp",
                                          "pp",
                                          "micro_batch",
                                          "interleave",
                                          "recompute",
                                          "sequence_parallel",
                                          "distributed_optimizer",
                                          "gpus_active",
                                          "gpus_held",
                                          "power_limit_w",
                                          "facility_power_w",
                                          "ci_g_per_kwh",
                                          "forecast_ci_g_per_kwh",
                                          "marginal_ci_g_per_kwh",
                                          "work_done",
                                          "energy_j",
                                          "emissions_g",
                                          "marginal_emissions_g",
                                          "embodied_g"};
constexpr std::size_t kSeriesColumnCount = std::size(kSeriesColumns);

std::string joined(const char* prefix, const char* separator) {
    std::string out;
    for (std::size_t i = 0; i < kSeriesColumnCount; ++i) {
        if (i > 0)
            out += separator;
        out += prefix;
        out += kSeriesColumns[i];
    }
    return out;
}

const std::string& insertSeriesSql() {
    static const std::string sql =
        "INSERT INTO series (" + joined("", ", ") + ") VALUES (" + joined(":", ", ") + ")";
    return sql;
}

const std::string& selectSeriesSql() {
    // Skips run_id and idx (columns 0 and 1): readInterval() starts at start_utc.
    static const std::string sql = [] {
        std::string columns;
        for (std::size_t i = 2; i < kSeriesColumnCount; ++i)
            columns += (i > 2 ? ", " : "") + std::string(kSeriesColumns[i]);
        return "SELECT " + columns + " FROM series WHERE run_id = :run_id ORDER BY idx";
    }();
    return sql;
}

// ---------------------------------------------------------------------------------------------------------

std::int64_t nowUtc() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string mapToJson(const std::map<std::string, std::string>& map) {
    JsonValue object = JsonValue::makeObject();
    for (const auto& [key, value] : map)
        object.insert(key, JsonValue::makeString(value));
    return object.dump(-1);
}

std::map<std::string, std::string> mapFromJson(const std::string& text, const std::string& where) {
    const JsonValue object = parseJson(text, where);
    if (!object.isObject())
        throw InputError(where, 1, 1,
                         std::string("expected a JSON object, found ") + JsonValue::typeName(object.type()));
    std::map<std::string, std::string> map;
    for (const JsonValue::Member& member : object.members()) {
        if (!member.value.isString())
            throw InputError(where, member.value.line(), member.value.column(),
                             "expected a string value for '" + member.key + "'");
        map[member.key] = member.value.toString();
    }
    return map;
}

IntervalActivity parseActivity(std::string_view text, const std::string& path) {
    for (IntervalActivity a :
         {IntervalActivity::Training, IntervalActivity::Paused, IntervalActivity::Reconfiguring,
          IntervalActivity::Preempting, IntervalActivity::Migrating}) {
        if (text == intervalActivityName(a))
            return a;
    }
    throw InputError(path, 0, 0,
                     "series.activity: expected training|paused|reconfiguring|preempting|migrating, found '" +
                         std::string(text) + "'");
}

Recompute parseRecompute(std::string_view text, const std::string& path) {
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
        if (text == recomputeName(r))
            return r;
    }
    throw InputError(path, 0, 0,
                     "series.recompute: expected none|selective|full, found '" + std::string(text) + "'");
}

void bindMetrics(SqliteStatement& s, const RunMetrics& m) {
    s.bindReal(":operational_g", m.operationalG);
    s.bindReal(":marginal_g", m.marginalG);
    s.bindReal(":embodied_g", m.embodiedG);
    s.bindReal(":total_g", m.totalG);
    s.bindReal(":energy_j", m.energyJ);
    s.bindReal(":work_done", m.workDone);
    s.bindReal(":completion_s", m.completionSeconds);
    s.bindInt(":finished", m.finished ? 1 : 0);
    s.bindInt(":deadline_met", m.deadlineMet ? 1 : 0);
    s.bindInt(":reconfigurations", m.reconfigurations);
    s.bindReal(":reconfiguration_s", m.reconfigurationSeconds);
    s.bindInt(":preemptions", m.preemptions);
    s.bindReal(":preemption_s", m.preemptionSeconds);
    s.bindInt(":migrations", m.migrations);
    s.bindReal(":migration_s", m.migrationSeconds);
    s.bindReal(":average_power_w", m.averagePowerW);
    s.bindReal(":work_per_g", m.workPerGram);
}

// Reads the columns of kSummarySelect.
RunSummary readSummary(const SqliteStatement& s) {
    RunSummary r;
    r.id = s.integer(0);
    r.name = s.text(1);
    r.scenarioName = s.text(2);
    r.scenarioHash = s.text(3);
    r.policy = s.text(4);
    r.regionId = s.text(5);
    r.startUtc = s.integer(6);
    r.deadlineUtc = s.integer(7);
    r.createdUtc = s.integer(8);
    r.status = s.text(9);
    RunMetrics& m = r.metrics;
    m.operationalG = s.real(10);
    m.marginalG = s.real(11);
    m.embodiedG = s.real(12);
    m.totalG = s.real(13);
    m.energyJ = s.real(14);
    m.workDone = s.real(15);
    m.completionSeconds = s.real(16);
    m.finished = s.integer(17) != 0;
    m.deadlineMet = s.integer(18) != 0;
    m.reconfigurations = static_cast<int>(s.integer(19));
    m.reconfigurationSeconds = s.real(20);
    m.preemptions = static_cast<int>(s.integer(21));
    m.preemptionSeconds = s.real(22);
    m.migrations = static_cast<int>(s.integer(23));
    m.migrationSeconds = s.real(24);
    m.averagePowerW = s.real(25);
    m.workPerGram = s.real(26);
    return r;
}

// Runs `operation` (which opens and commits its own transaction), retrying it whole when another process
// held the database for longer than the busy timeout. The failed attempt has rolled back by then.
template <typename Operation>
auto retryingWhenBusy(const std::string& path, const char* what, Operation&& operation) {
    for (int attempt = 1;; ++attempt) {
        try {
            return operation();
        } catch (const BusyError& error) {
            if (attempt >= ResultsStore::kBusyAttempts)
                throw InputError(path, 0, 0,
                                 std::string(what) +
                                     ": the database stayed busy (another program is writing to it) for " +
                                     std::to_string(attempt * ResultsStore::kBusyTimeoutMs / 1000) +
                                     " s; try again (" + error.what() + ")");
        }
    }
}

std::string refusal(const std::string& finding) {
    return finding + ". Carbon3D has not modified the file: choose another file, or start a new database";
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
    if (info.exists()) {
        if (!info.isFile())
            throw InputError(m_path, 0, 0,
                             "expected a results database file, found a directory or a special file");
        checkBeforeWriting(m_path, options.check);
    } else if (options.mode == OpenMode::MustExist) {
        throw InputError(m_path, 0, 0,
                         "no results database here (a run saved with --db FILE creates one; check the path)");
    } else if (!QDir().mkpath(info.absolutePath())) {
        throw InputError(m_path, 0, 0, "cannot create the directory for the results database");
    }
    openReadWrite(options.mode);
    migrateTo(targetVersion);
}

ResultsStore::~ResultsStore() = default;

void ResultsStore::createWithSchemaVersion(const std::string& path, int version) {
    if (version < 0 || version > kSchemaVersion)
        throw std::invalid_argument("schema version out of range");
    const ResultsStore store(path, OpenOptions{}, version);
}

// Everything here is read-only: a file we refuse must stay byte-for-byte as it was. One side effect
// remains: reading a WAL-mode file (ours, or a damaged copy of ours) creates its -wal and -shm companions
// when they are missing; a refusal removes the ones this check created, so the directory is left as found.
void ResultsStore::checkBeforeWriting(const std::string& path, OpenCheck check) {
    const QString wal = QString::fromStdString(path + "-wal");
    const QString shm = QString::fromStdString(path + "-shm");
    const bool hadWal = QFileInfo::exists(wal);
    const bool hadShm = QFileInfo::exists(shm);
    try {
        checkReadOnly(path, check);
    } catch (const InputError&) {
        // Only files this check created and that hold nothing: an empty -wal, and the -shm index with it.
        if (!hadWal && QFileInfo(wal).size() == 0) {
            QFile::remove(wal);
            if (!hadShm)
                QFile::remove(shm);
        }
        throw;
    }
}

void ResultsStore::checkReadOnly(const std::string& path, OpenCheck check) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    const Connection db(raw);
    if (rc != SQLITE_OK)
        throw InputError(path, 0, 0, refusal("cannot open the file: " + std::string(sqlite3_errstr(rc))));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, kBusyTimeoutMs);
    try {
        const auto pragmaInt = [&](const char* sql) {
            SqliteStatement s(raw, sql, path);
            return s.step() ? s.integer(0) : 0;
        };
        // Reading the header is what fails for a file that is not SQLite ("file is not a database").
        const std::int64_t applicationId = pragmaInt("PRAGMA application_id");
        const std::int64_t version = pragmaInt("PRAGMA user_version");
        const std::int64_t objects = pragmaInt("SELECT count(*) FROM sqlite_master");
        if (applicationId != kApplicationId && !(applicationId == 0 && objects == 0)) {
            std::ostringstream finding;
            finding << "is a SQLite database of another program (application_id 0x" << std::hex
                    << applicationId << std::dec << ", " << objects
                    << " schema objects; Carbon3D's files have application_id 0x" << std::hex
                    << kApplicationId << ")";
            throw InputError(path, 0, 0, refusal(finding.str()));
        }
        if (version > kSchemaVersion)
            throw InputError(path, 0, 0,
                             refusal("was written by a newer Carbon3D (schema version " +
                                     std::to_string(version) + "; this program knows versions up to " +
                                     std::to_string(kSchemaVersion) + "): open it with that version"));
        if (check == OpenCheck::Quick) {
            SqliteStatement s(raw, "PRAGMA quick_check(5)", path);
            std::vector<std::string> findings;
            while (s.step())
                findings.push_back(s.text(0));
            if (!(findings.size() == 1 && findings.front() == "ok")) {
                std::string joinedFindings;
                for (const std::string& f : findings)
                    joinedFindings += (joinedFindings.empty() ? "" : "; ") + f;
                throw InputError(path, 0, 0,
                                 refusal("is damaged (SQLite quick_check: " + joinedFindings + ")"));
            }
        }
    } catch (const BusyError& error) {
        throw InputError(path, 0, 0,
                         std::string("the database stayed busy while checking it: ") + error.what());
    } catch (const InputError& error) {
        if (error.problem().find("Carbon3D has not modified") != std::string::npos)
            throw;
        const int code = sqlite3_extended_errcode(raw) & 0xff;
        const std::string finding = code == SQLITE_NOTADB
                                        ? "is not a SQLite database (" + error.problem() + ")"
                                    : code == SQLITE_CORRUPT ? "is damaged (" + error.problem() + ")"
                                                             : "cannot be read (" + error.problem() + ")";
        throw InputError(path, 0, 0, refusal(finding));
    }
}

void ResultsStore::openReadWrite(OpenMode mode) {
    sqlite3* raw = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                      (mode == OpenMode::CreateIfMissing ? SQLITE_OPEN_CREATE : 0);
    const int rc = sqlite3_open_v2(m_path.c_str(), &raw, flags, nullptr);
    m_db.reset(raw); // closed by the unique_ptr even when opening failed (SQLite allocates a handle anyway)
    if (rc != SQLITE_OK)
        throw InputError(m_path, 0, 0,
                         "cannot open the results database for writing: " + std::string(sqlite3_errstr(rc)));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, kBusyTimeoutMs);
    retryingWhenBusy(m_path, "opening", [&] {
        // WAL: readers never block the writer nor it them, so the GUI can read while the CLI saves.
        // synchronous=NORMAL is safe against a crashed or killed process in WAL mode (a committed run stays
        // committed); only a power cut may lose the last commits, never corrupt the file.
        SqliteStatement wal(raw, "PRAGMA journal_mode = WAL", m_path);
        if (!wal.step() || wal.text(0) != "wal")
            throw InputError(m_path, 0, 0,
                             "cannot switch the database to WAL mode (is the directory read-only?)");
        SqliteStatement(raw, "PRAGMA synchronous = NORMAL", m_path).exec();
        // Never delete the WAL on close. SQLite deletes it when the closing connection gets an exclusive
        // lock, taken to mean "no other connection": a process that lost its POSIX locks (any descriptor on
        // the file closed in that process releases them all) then keeps writing into a deleted file, and
        // its runs vanish. Kept, the file is reset in place by the next writer (docs/DATABASE.md). A limit of
        // 0 empties it once checkpointed, so the closed database file stands alone: no stale frames beside it.
        int persistWal = 1;
        sqlite3_file_control(raw, "main", SQLITE_FCNTL_PERSIST_WAL, &persistWal);
        SqliteStatement(raw, "PRAGMA journal_size_limit = 0", m_path).step();
        SqliteStatement(raw, "PRAGMA foreign_keys = ON", m_path).exec();
        return 0;
    });
}

int ResultsStore::userVersion() const {
    SqliteStatement s(m_db.get(), "PRAGMA user_version", m_path);
    return s.step() ? static_cast<int>(s.integer(0)) : 0;
}

void ResultsStore::migrateTo(int targetVersion) {
    if (userVersion() >= targetVersion)
        return;
    for (;;) {
        const bool done = retryingWhenBusy(m_path, "upgrading the database schema", [&] {
            SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
            // Read again under the write lock: another process may have migrated in the meantime.
            const int version = userVersion();
            if (version >= targetVersion)
                return true;
            applyMigration(version + 1);
            transaction.commit();
            return false;
        });
        if (done)
            return;
    }
}

void ResultsStore::applyMigration(int version) {
    char* message = nullptr;
    const int rc = sqlite3_exec(m_db.get(), kMigrations[version - 1], nullptr, nullptr, &message);
    const std::string text = message != nullptr ? message : "";
    sqlite3_free(message);
    checkSqlite(m_db.get(), rc, m_path,
                "schema migration to version " + std::to_string(version) + " (" + text + ")");
    // PRAGMA takes no bound parameters; both values are integers we control.
    std::string pragmas = "PRAGMA user_version = " + std::to_string(version) + ";";
    if (version == 1)
        pragmas += "PRAGMA application_id = " + std::to_string(kApplicationId) + ";";
    checkSqlite(m_db.get(), sqlite3_exec(m_db.get(), pragmas.c_str(), nullptr, nullptr, nullptr), m_path,
                "setting the schema version");
}

void ResultsStore::checkThread() const {
    if (std::this_thread::get_id() != m_owner)
        throw std::logic_error("ResultsStore used from a thread other than the one that opened it");
}

// ---------------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------------

RunId ResultsStore::saveRun(const StoredScenario& scenario, const RunResult& run,
                            const std::vector<StoredTrace>& traces, const SaveOptions& options) {
    checkThread();
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

    return retryingWhenBusy(m_path, "saving a run", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        const std::int64_t now = nowUtc();
        const std::int64_t scenarioId = upsertScenario(scenario, now);
        std::vector<std::int64_t> traceIds;
        traceIds.reserve(traces.size());
        for (const StoredTrace& trace : traces)
            traceIds.push_back(upsertTrace(trace));

        SqliteStatement insertRun(
            m_db.get(),
            "INSERT INTO runs (scenario_id, name, policy, options_json, modelling_json, "
            "forecast_kind, forecast_mape, program_version, created_at, status, start_utc, "
            "deadline_utc) VALUES (:scenario_id, :name, :policy, :options_json, "
            ":modelling_json, :forecast_kind, :forecast_mape, :program_version, :created_at, "
            ":status, :start_utc, :deadline_utc)",
            m_path);
        insertRun.bindInt(":scenario_id", scenarioId);
        insertRun.bindText(":name", name);
        insertRun.bindText(":policy", run.policy);
        insertRun.bindText(":options_json", optionsJson);
        insertRun.bindText(":modelling_json", modellingJson);
        insertRun.bindText(":forecast_kind", run.forecastKind);
        insertRun.bindReal(":forecast_mape", run.forecastMape);
        insertRun.bindText(":program_version", CARBON3D_VERSION);
        insertRun.bindInt(":created_at", now);
        insertRun.bindText(":status", runStatusName(runStatusOf(run.metrics)));
        insertRun.bindInt(":start_utc", run.startUtc);
        insertRun.bindInt(":deadline_utc", run.deadlineUtc);
        insertRun.exec();
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

        SqliteStatement insertMetrics(
            m_db.get(),
            "INSERT INTO metrics (run_id, operational_g, marginal_g, embodied_g, total_g, energy_j, "
            "work_done, "
            "completion_s, finished, deadline_met, reconfigurations, reconfiguration_s, preemptions, "
            "preemption_s, "
            "migrations, migration_s, average_power_w, work_per_g) VALUES (:run_id, :operational_g, "
            ":marginal_g, "
            ":embodied_g, :total_g, :energy_j, :work_done, :completion_s, :finished, :deadline_met, "
            ":reconfigurations, :reconfiguration_s, :preemptions, :preemption_s, :migrations, :migration_s, "
            ":average_power_w, :work_per_g)",
            m_path);
        insertMetrics.bindInt(":run_id", id);
        bindMetrics(insertMetrics, run.metrics);
        insertMetrics.exec();

        insertSeries(id, run.series, options);

        SqliteStatement insertWarning(
            m_db.get(), "INSERT INTO warnings (run_id, idx, message) VALUES (:run_id, :idx, :message)",
            m_path);
        for (std::size_t i = 0; i < run.warnings.size(); ++i) {
            insertWarning.bindInt(":run_id", id);
            insertWarning.bindInt(":idx", static_cast<std::int64_t>(i));
            insertWarning.bindText(":message", run.warnings[i]);
            insertWarning.exec();
        }
        transaction.commit();
        return id;
    });
}

std::int64_t ResultsStore::upsertScenario(const StoredScenario& scenario, std::int64_t now) {
    SqliteStatement insert(m_db.get(),
                           "INSERT INTO scenarios (name, canonical_json, content_hash, created_at) "
                           "VALUES (:name, :canonical_json, :content_hash, :created_at) "
                           "ON CONFLICT (content_hash) DO NOTHING",
                           m_path);
    insert.bindText(":name", scenario.name);
    insert.bindText(":canonical_json", scenario.canonicalJson);
    insert.bindText(":content_hash", scenario.contentHash);
    insert.bindInt(":created_at", now);
    insert.exec();
    SqliteStatement select(m_db.get(), "SELECT id FROM scenarios WHERE content_hash = :content_hash", m_path);
    select.bindText(":content_hash", scenario.contentHash);
    if (!select.step())
        throw std::logic_error("scenario row missing right after its insert");
    return select.integer(0);
}

std::int64_t ResultsStore::upsertTrace(const StoredTrace& trace) {
    SqliteStatement insert(
        m_db.get(),
        "INSERT INTO traces (region_id, content_sha256, source_column, source_file, format, signal, "
        "step_seconds, "
        "start_utc, rows, attribution) VALUES (:region_id, :content_sha256, :source_column, :source_file, "
        ":format, :signal, :step_seconds, :start_utc, :rows, :attribution) "
        "ON CONFLICT (content_sha256, source_column, signal, region_id, step_seconds, start_utc, rows) DO "
        "NOTHING",
        m_path);
    // The identity columns (the UNIQUE key) are bound the same way in the insert and the select below.
    const auto bindIdentity = [&trace](SqliteStatement& statement) {
        statement.bindText(":region_id", trace.regionId);
        statement.bindText(":content_sha256", trace.contentSha256);
        statement.bindText(":source_column", trace.sourceColumn);
        statement.bindText(":signal", trace.signal);
        statement.bindInt(":step_seconds", trace.stepSeconds);
        statement.bindInt(":start_utc", trace.startUtc);
        statement.bindInt(":rows", trace.rows);
    };
    bindIdentity(insert);
    insert.bindText(":source_file", trace.sourceFile);
    insert.bindText(":format", trace.format);
    insert.bindText(":attribution", trace.attribution);
    insert.exec();
    SqliteStatement select(
        m_db.get(),
        "SELECT id FROM traces WHERE content_sha256 = :content_sha256 AND source_column = "
        ":source_column AND signal = :signal AND region_id = :region_id AND step_seconds = "
        ":step_seconds AND start_utc = :start_utc AND rows = :rows",
        m_path);
    bindIdentity(select);
    if (!select.step())
        throw InputError(m_path, 0, 0,
                         "saving a run: trace '" + trace.regionId + "' was not stored (signal '" +
                             trace.signal + "': expected average or marginal)");
    return select.integer(0);
}

void ResultsStore::insertSeries(RunId id, const std::vector<IntervalRecord>& series,
                                const SaveOptions& options) {
    // One prepared statement reused for every row, parameter indexes looked up once: the hot loop of a save.
    SqliteStatement insert(m_db.get(), insertSeriesSql(), m_path);
    int ix[kSeriesColumnCount];
    // append() rather than operator+: GCC 12 at -O2 raises a false -Wrestrict on the latter.
    for (std::size_t c = 0; c < kSeriesColumnCount; ++c)
        ix[c] = insert.parameterIndex(std::string(":").append(kSeriesColumns[c]).c_str());
    constexpr std::size_t kProgressBlock = 1024;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const IntervalRecord& r = series[i];
        int c = 0;
        insert.bindInt(ix[c++], id);
        insert.bindInt(ix[c++], static_cast<std::int64_t>(i));
        insert.bindInt(ix[c++], r.start);
        insert.bindInt(ix[c++], r.end);
        insert.bindInt(ix[c++], r.regionIndex);
        insert.bindText(ix[c++], intervalActivityName(r.activity));
        insert.bindInt(ix[c++], r.config.dp);
        insert.bindInt(ix[c++], r.config.tp);
        insert.bindInt(ix[c++], r.config.pp);
        insert.bindInt(ix[c++], r.config.microBatch);
        insert.bindInt(ix[c++], r.config.interleave);
        insert.bindText(ix[c++], recomputeName(r.config.recompute));
        insert.bindInt(ix[c++], r.config.sequenceParallel ? 1 : 0);
        insert.bindInt(ix[c++], r.config.distributedOptimizer ? 1 : 0);
        insert.bindInt(ix[c++], r.gpusActive);
        insert.bindInt(ix[c++], r.gpusHeld);
        insert.bindReal(ix[c++], r.powerLimitW);
        insert.bindReal(ix[c++], r.facilityPowerW);
        insert.bindReal(ix[c++], r.ciGPerKwh);
        insert.bindReal(ix[c++], r.forecastCiGPerKwh);
        insert.bindReal(ix[c++], r.marginalCiGPerKwh);
        insert.bindReal(ix[c++], r.workDone);
        insert.bindReal(ix[c++], r.energyJ);
        insert.bindReal(ix[c++], r.emissionsG);
        insert.bindReal(ix[c++], r.marginalEmissionsG);
        insert.bindReal(ix[c++], r.embodiedG);
        insert.exec();
        if (options.progress && ((i + 1) % kProgressBlock == 0 || i + 1 == series.size()))
            options.progress(i + 1, series.size());
    }
}

void ResultsStore::renameRun(RunId id, const std::string& name) {
    checkThread();
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
    checkThread();
    retryingWhenBusy(m_path, "deleting a run", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        SqliteStatement remove(m_db.get(), "DELETE FROM runs WHERE id = :id", m_path);
        remove.bindInt(":id", id);
        remove.exec();
        if (sqlite3_changes(m_db.get()) == 0)
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        // Scenarios and traces are shared by runs; the last run out takes them along.
        SqliteStatement(m_db.get(), "DELETE FROM scenarios WHERE id NOT IN (SELECT scenario_id FROM runs)",
                        m_path)
            .exec();
        SqliteStatement(m_db.get(), "DELETE FROM traces WHERE id NOT IN (SELECT trace_id FROM run_traces)",
                        m_path)
            .exec();
        transaction.commit();
        return 0;
    });
}

// ---------------------------------------------------------------------------------------------------------
// Reading. Each call reads inside one transaction, so it sees one consistent snapshot even while another
// process commits (WAL readers are never blocked by the writer).
// ---------------------------------------------------------------------------------------------------------

std::vector<RunSummary> ResultsStore::listRuns(const RunFilter& filter) const {
    checkThread();
    return retryingWhenBusy(m_path, "listing runs", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        SqliteStatement s(m_db.get(),
                          std::string(kSummarySelect) +
                              "WHERE (:scenario_name = '' OR s.name = :scenario_name) "
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
    SqliteStatement s(m_db.get(), std::string(kSummarySelect) + "WHERE r.id = :id", m_path);
    s.bindInt(":id", id);
    if (!s.step())
        return std::nullopt;
    return readSummary(s);
}

std::vector<IntervalRecord> ResultsStore::readSeries(RunId id) const {
    SqliteStatement s(m_db.get(), selectSeriesSql(), m_path);
    s.bindInt(":run_id", id);
    std::vector<IntervalRecord> series;
    while (s.step()) {
        IntervalRecord r;
        int c = 0;
        r.start = s.integer(c++);
        r.end = s.integer(c++);
        r.regionIndex = static_cast<int>(s.integer(c++));
        r.activity = parseActivity(s.textView(c++), m_path);
        r.config.dp = static_cast<int>(s.integer(c++));
        r.config.tp = static_cast<int>(s.integer(c++));
        r.config.pp = static_cast<int>(s.integer(c++));
        r.config.microBatch = static_cast<int>(s.integer(c++));
        r.config.interleave = static_cast<int>(s.integer(c++));
        r.config.recompute = parseRecompute(s.textView(c++), m_path);
        r.config.sequenceParallel = s.integer(c++) != 0;
        r.config.distributedOptimizer = s.integer(c++) != 0;
        r.gpusActive = static_cast<int>(s.integer(c++));
        r.gpusHeld = static_cast<int>(s.integer(c++));
        r.powerLimitW = s.real(c++);
        r.facilityPowerW = s.real(c++);
        r.ciGPerKwh = s.real(c++);
        r.forecastCiGPerKwh = s.real(c++);
        r.marginalCiGPerKwh = s.real(c++);
        r.workDone = s.real(c++);
        r.energyJ = s.real(c++);
        r.emissionsG = s.real(c++);
        r.marginalEmissionsG = s.real(c++);
        r.embodiedG = s.real(c++);
        series.push_back(r);
    }
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

        SqliteStatement run(
            m_db.get(),
            "SELECT s.name, s.canonical_json, s.content_hash, r.policy, r.options_json, "
            "r.modelling_json, r.forecast_kind, r.forecast_mape, r.program_version, r.start_utc, "
            "r.deadline_utc FROM runs r JOIN scenarios s ON s.id = r.scenario_id WHERE r.id = :id",
            m_path);
        run.bindInt(":id", id);
        if (!run.step())
            throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
        const std::string where = m_path + " (run " + std::to_string(id) + ")";
        stored.scenario = {run.text(0), run.text(1), run.text(2)};
        RunResult& result = stored.result;
        result.policy = run.text(3);
        result.options = mapFromJson(run.text(4), where + " options_json");
        result.modelling = mapFromJson(run.text(5), where + " modelling_json");
        result.forecastKind = run.text(6);
        result.forecastMape = run.real(7);
        stored.programVersion = run.text(8);
        result.startUtc = run.integer(9);
        result.deadlineUtc = run.integer(10);
        result.metrics = stored.summary.metrics;

        SqliteStatement traces(
            m_db.get(),
            "SELECT t.region_id, t.content_sha256, t.source_column, t.source_file, t.format, "
            "t.signal, t.step_seconds, t.start_utc, t.rows, t.attribution FROM run_traces rt "
            "JOIN traces t ON t.id = rt.trace_id WHERE rt.run_id = :id ORDER BY rt.region_index",
            m_path);
        traces.bindInt(":id", id);
        while (traces.step()) {
            StoredTrace t;
            t.regionId = traces.text(0);
            t.contentSha256 = traces.text(1);
            t.sourceColumn = traces.text(2);
            t.sourceFile = traces.text(3);
            t.format = traces.text(4);
            t.signal = traces.text(5);
            t.stepSeconds = traces.integer(6);
            t.startUtc = traces.integer(7);
            t.rows = traces.integer(8);
            t.attribution = traces.text(9);
            stored.traces.push_back(std::move(t));
        }

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
    checkThread();
    if (ids.empty())
        return {};
    const RunId baseline = baselineId.value_or(ids.front());
    return retryingWhenBusy(m_path, "comparing runs", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        const auto summaryOf = [&](RunId id) {
            std::optional<RunSummary> s = findSummary(id);
            if (!s)
                throw InputError(m_path, 0, 0, "no run with id " + std::to_string(id));
            return *s;
        };
        const RunSummary base = summaryOf(baseline);
        std::vector<RunComparison> comparisons;
        for (RunId id : ids) {
            const RunSummary run = summaryOf(id);
            RunComparison c;
            c.runId = id;
            c.baselineId = baseline;
            c.name = run.name;
            c.policy = run.policy;
            c.scenarioName = run.scenarioName;
            c.sameScenario = run.scenarioHash == base.scenarioHash;
            c.metrics = run.metrics;
            c.baselineMetrics = base.metrics;
            c.savedG = base.metrics.totalG - run.metrics.totalG;
            c.savedFraction = base.metrics.totalG != 0.0 ? c.savedG / base.metrics.totalG
                                                         : std::numeric_limits<double>::quiet_NaN();
            c.savedOperationalG = base.metrics.operationalG - run.metrics.operationalG;
            c.extraEnergyJ = run.metrics.energyJ - base.metrics.energyJ;
            c.extraCompletionSeconds = run.metrics.completionSeconds - base.metrics.completionSeconds;
            comparisons.push_back(std::move(c));
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

ExportedRunFiles ResultsStore::exportRunCsv(RunId id, const std::string& directory) const {
    const StoredRun run = loadRun(id);
    std::vector<std::string> regionIds;
    for (const StoredTrace& trace : run.traces)
        regionIds.push_back(trace.regionId);
    return writeRunCsvFiles(run.result, regionIds, directory, "run-" + std::to_string(id) + "-");
}

std::string defaultDatabasePath() {
    return (QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
            QStringLiteral("/results.sqlite"))
        .toStdString();
}

} // namespace carbon3d
