// SPDX-License-Identifier: MIT
#pragma once

#include "domain/FileIdentity.h"
#include "storage/StoredRun.h"
#include "storage/StoredStudy.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

struct sqlite3;

namespace carbon3d {

// The results store: every run kept in one SQLite file (schema in docs/DATABASE.md). This class owns its
// connection; every SQL statement of Carbon3D is in core/storage (schema, opening, row mapping) and runs
// through it. The file's path is always given: app/support/DataDirectory.h has the default location.
//
// Threads: a store belongs to the thread that opened it (every call checks, std::logic_error otherwise);
// the GUI opens one on its worker thread, the CLI on the main thread. Processes: several stores in several
// processes may share a file. Writers wait up to kBusyTimeoutMs for each other, then the whole operation
// is retried (kBusyAttempts in all) before an InputError says the database is busy.
//
// Every write is one transaction: a run is saved whole or not at all, even if the process is killed.
// Errors: InputError naming the database file (bad or busy file, unknown run id, invalid run).
class ResultsStore {
public:
    static constexpr int kSchemaVersion = 9;
    // PRAGMA application_id of our files: "C3DS" in ASCII, so `file(1)` and we can tell them from others'.
    static constexpr std::int32_t kApplicationId = 0x43334453;
    static constexpr int kBusyTimeoutMs = 5000;
    static constexpr int kBusyAttempts = 3;

    enum class OpenMode {
        CreateIfMissing, // a missing file (and its directory) is created
        MustExist,       // a missing file is an InputError (e.g. `runs list` on a mistyped --db)
    };
    enum class OpenCheck {
        Quick, // PRAGMA quick_check of the whole file at open: linear in the file size (docs/PERFORMANCE.md)
        HeaderOnly // application id, schema version and a readable schema only
    };
    enum class Access {
        // Saving, renaming and deleting: a file (or folder) that cannot be written is refused at open, with
        // the reason, before any work.
        ReadWrite,
        // Listing, showing, comparing, exporting: a file that cannot be written is opened for reading only
        // and nothing is created beside it (docs/DATABASE.md "Read-only databases"); writes then refuse.
        ReadOnlyWhenUnwritable,
        // Reading a file no one writes any more (a shard published from scratch, ScratchDatabase.h): opened
        // for reading only whatever its permissions, without locks when its -wal holds nothing (SQLite's
        // immutable mode), so that it reads on a filesystem whose locks do not work.
        ReadOnly,
    };
    struct OpenOptions {
        OpenMode mode = OpenMode::CreateIfMissing;
        OpenCheck check = OpenCheck::Quick;
        Access access = Access::ReadWrite;
    };

    // Opens (or creates) the database at `path` and upgrades its schema step by step to kSchemaVersion.
    // An existing file is first opened read-only and checked: a file that is not SQLite, a SQLite file of
    // another program, a damaged file or one from a newer Carbon3D is refused with an InputError naming it,
    // and is never modified. A zero-byte file is an empty database (SQLite's own convention).
    explicit ResultsStore(std::string path, OpenOptions options);
    explicit ResultsStore(std::string path)
        : ResultsStore(std::move(path), OpenOptions{}) {}
    ~ResultsStore();
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;

    const std::string& path() const { return m_path; }
    // Why this store was opened for reading only (Access::ReadOnlyWhenUnwritable on a file the user cannot
    // write); empty when it can write.
    const std::string& readOnlyReason() const { return m_readOnlyReason; }

    // Saves one run in one transaction; returns its id. The scenario and trace rows are shared with earlier
    // runs of the same scenario hash and trace identity. traces[i] is the trace of region index i; every
    // series interval's regionIndex must name one of them (when any are given).
    RunId saveRun(const StoredScenario& scenario, const RunResult& run,
                  const std::vector<StoredTrace>& traces, const SaveOptions& options = {});

    std::vector<RunSummary> listRuns(const RunFilter& filter = {}) const;
    StoredRun loadRun(RunId id) const;
    std::vector<IntervalRecord> loadSeries(RunId id) const;

    // Each run of `ids` (in that order) against the baseline: baselineId when given (it need not be among
    // ids), otherwise ids.front(). The baseline's own row has zero savings.
    std::vector<RunComparison> compareRuns(const std::vector<RunId>& ids,
                                           std::optional<RunId> baselineId = std::nullopt) const;
    // The same with a baseline per scenario when baseline.policyPerScenario is set: each run against the
    // lowest-id run among `ids` with that policy and the same scenario hash, else the lowest-id such run in
    // the store (RunComparison::baselineNotCompared); a run whose scenario has none gets baselineId 0 and
    // NaN savings.
    std::vector<RunComparison> compareRuns(const std::vector<RunId>& ids,
                                           const ComparisonBaseline& baseline) const;

    void renameRun(RunId id, const std::string& name);
    // Deletes the run with its metrics, series and warnings; scenarios and traces no run uses any more go
    // too.
    void deleteRun(RunId id);

    // Writes DIR/run-ID-series.csv (the columns of `simulate --series-out`, see RunCsv.h) and
    // DIR/run-ID-metrics.csv, each atomically; creates DIR if needed.
    ExportedRunFiles exportRunCsv(RunId id, const std::string& directory,
                                  SeriesUnits units = SeriesUnits::Si) const;

    // Studies (docs/STUDIES.md; implemented in StudyStore.cpp). registerStudy returns the id of the study
    // with the same hash when there is one (a resumed or sharded study writes into it), else a new one.
    StudyId registerStudy(const StoredStudy& study);
    std::vector<StoredStudy> listStudies() const;
    StoredStudy loadStudy(StudyId id) const; // InputError when there is none
    std::vector<std::int64_t> savedCellIndexes(StudyId id) const;
    std::vector<StoredCell> loadCells(StudyId id) const;
    // The study's cells one at a time, in index order, at most a page of them held: what reads a million-cell
    // study in flat memory (exports, merges). `visit` may use this store (it runs between pages).
    void forEachCell(StudyId id, const std::function<void(StoredCell&&)>& visit) const;
    // Saves cells in one transaction: each whole or not at all, a cell's run (its series, when the study
    // keeps them) with it. A cell already saved is kept once (and its run is not saved again); when the
    // saved one has another hash or other metrics it is left as it was and its index is returned (merging
    // two databases reports such cells rather than choosing one).
    std::vector<std::int64_t> saveCells(StudyId id, const std::vector<StoredCell>& cells);
    // Deletes the study with its cells (and the runs its cells' series were kept in).
    void deleteStudy(StudyId id);

    // PRAGMA integrity_check: empty when the file is sound, otherwise SQLite's findings.
    std::vector<std::string> integrityCheck() const;
    // Writes the database as it is now (its last committed state) into a new file at `path`: compact, one
    // file, in rollback-journal mode (VACUUM INTO), so that it can be copied and read anywhere, locks or
    // not. `path` must not exist. Used to publish a database kept in scratch (ScratchDatabase.h).
    void writeCompactCopy(const std::string& path) const;

    // Tests and tools: creates a database at `path` holding schema version `version` exactly, by running only
    // migrations 1..version (0 = an empty SQLite file). Used to prove that every earlier version upgrades.
    static void createWithSchemaVersion(const std::string& path, int version);

private:
    struct CloseConnection {
        void operator()(sqlite3* db) const;
    };
    using Connection = std::unique_ptr<sqlite3, CloseConnection>;

    // Opening itself (the check, the connection, the migrations) is in StoreOpening.h.
    ResultsStore(std::string path, OpenOptions options, int targetVersion);
    void checkThread() const;
    void checkWritable(const char* operation) const;
    std::int64_t upsertScenario(const StoredScenario& scenario, std::int64_t nowUtc);
    std::int64_t upsertTrace(const StoredTrace& trace);
    // The oldest stored run that SaveOptions::reuseIdentical would return for `run`, if any. traceList:
    // the run's trace ids in region order, comma-separated.
    std::optional<RunId> findIdenticalRun(std::int64_t scenarioId, const RunResult& run,
                                          const std::string& optionsJson, const std::string& modellingJson,
                                          const std::string& traceList) const;
    void insertSeries(RunId id, const std::vector<IntervalRecord>& series, const SaveOptions& options);
    // saveRun's rows, inside the caller's write transaction (saveRun's own, or saveCells' for a cell
    // whose series are kept).
    RunId insertRun(const StoredScenario& scenario, const RunResult& run,
                    const std::vector<StoredTrace>& traces, const SaveOptions& options);
    // Inside a write transaction: the scenarios and traces no run uses any more.
    void deleteUnusedScenariosAndTraces();
    std::optional<RunSummary> findSummary(RunId id) const;
    // The lowest-id run of `policy` in the scenario with this hash (inside the caller's transaction).
    std::optional<RunSummary> findFirstRunOf(const std::string& policy,
                                             const std::string& scenarioHash) const;
    std::vector<IntervalRecord> readSeries(RunId id) const;

    std::string m_path;
    std::string m_readOnlyReason;
    // Declared before the connection, so that the file stays marked until the connection has closed.
    OpenDatabaseMark m_openMark;
    Connection m_db;
    std::thread::id m_owner;
};

} // namespace carbon3d
