// SPDX-License-Identifier: MIT
// carbon3d-cli study: run a study file's cells into a results database (resuming where a killed run
// stopped, one shard of several if asked), list, show, export and delete the studies there, and write one
// cell's scenario out. docs/STUDIES.md.
#include "cli/Commands.h"
#include "cli/ExistingStore.h"
#include "cli/ProgressLines.h"
#include "cli/StudySlurm.h"
#include "config/ConfigFiles.h"
#include "config/ScenarioJson.h"
#include "domain/FileIdentity.h"
#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/NumberText.h"
#include "domain/OutputFile.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "storage/ResultsStore.h"
#include "storage/ScratchDatabase.h"
#include "study/StudyCells.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"
#include "study/StudyStoreReading.h"
#include "support/DataDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

namespace carbon3d::cli {

namespace {

std::int64_t positiveInteger(const std::string& text, const char* what) {
    const std::optional<std::int64_t> value = parseInteger(text);
    if (!value || *value < 0)
        throw UsageError(std::string("expected ") + what + ", found '" + text + "'");
    return *value;
}

// "--shard I/N": shard I (0-based) of N.
std::pair<std::size_t, std::size_t> parseShard(const std::string& text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
        throw UsageError("--shard expects I/N (shard I of N, 0 <= I < N), found '" + text + "'");
    const auto index = positiveInteger(text.substr(0, slash), "a shard index");
    const auto count = positiveInteger(text.substr(slash + 1), "a shard count");
    if (count < 1 || index >= count)
        throw UsageError("--shard expects I/N with 0 <= I < N, found '" + text + "'");
    return {static_cast<std::size_t>(index), static_cast<std::size_t>(count)};
}

std::string bundledTraces() {
    return app::sampleDataDirectory().toStdString() + "/traces";
}

// Finished cells pass from the workers to the thread that owns the store (SQLite connections belong to
// one thread), which saves them in batches, each batch one transaction. The queue is bounded: a worker
// waits while it is full, so a slow or stuck store holds at most kMostUnsavedStudyCells unsaved cells in
// memory (issue 40: a study whose saves failed used to compute every remaining cell and grow by about 1
// MB/s).
class CellQueue {
public:
    // Waits for room; once the saver has stopped, drops the cell (it is recomputed on resume).
    void push(StoredCell cell) {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_room.wait(lock, [this] { return m_stopped || m_cells.size() < kMaxPending; });
        if (m_stopped)
            return;
        m_cells.push_back(std::move(cell));
        m_ready.notify_one();
    }
    void close() {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
        m_ready.notify_one();
    }
    // The saver gives up (a save failed): waiting workers return and what is queued is dropped.
    void stop() {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stopped = true;
        m_cells.clear();
        m_room.notify_all();
    }
    // Waits up to `wait` for cells; returns what there is (empty and closed() when all is done).
    std::vector<StoredCell> take(std::chrono::milliseconds wait) {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait_for(lock, wait, [this] { return m_closed || m_cells.size() >= kBatch; });
        std::vector<StoredCell> cells(std::make_move_iterator(m_cells.begin()),
                                      std::make_move_iterator(m_cells.end()));
        m_cells.clear();
        m_room.notify_all();
        return cells;
    }
    bool closed() {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_closed && m_cells.empty();
    }

private:
    static constexpr std::size_t kBatch = 256; // a transaction per batch: cheap, and a kill loses little
    static constexpr std::size_t kMaxPending = kMostUnsavedStudyCells; // four batches
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::condition_variable m_room;
    std::deque<StoredCell> m_cells;
    bool m_closed = false;
    bool m_stopped = false;
};

// Saves what the workers finish until they are done; at the first failed save, stops them (within a
// decision of each running cell) and reports what is saved and how to resume.
std::size_t saveAsTheyFinish(ResultsStore& store, StudyId id, CellQueue& queue, std::atomic<bool>& cancel,
                             std::thread& runner, const std::atomic<std::size_t>& computed,
                             std::size_t savedBefore, std::size_t total,
                             const std::function<void()>& afterSave) {
    std::size_t conflicts = 0;
    std::size_t saved = savedBefore;
    try {
        while (!queue.closed()) {
            const std::vector<StoredCell> cells = queue.take(std::chrono::milliseconds(1000));
            if (cells.empty())
                continue;
            conflicts += store.saveCells(id, cells).size();
            saved += cells.size();
            afterSave();
        }
    } catch (const std::exception& error) {
        cancel = true;
        queue.stop();
        runner.join();
        const auto* input = dynamic_cast<const InputError*>(&error); // it names the database already
        const std::string reason = input != nullptr ? input->problem() : std::string(error.what());
        throw InputError(
            store.path(), 0, 0,
            "saving the study's cells failed, so the study stopped: " + reason + ". " +
                std::to_string(saved) + " of " + std::to_string(total) +
                " cells are saved and stay saved (this run computed " + std::to_string(computed) +
                " before it stopped); run the same command again to resume (saved cells are skipped)");
    }
    runner.join();
    return conflicts;
}

// SIGTERM and SIGINT (scancel, a job's time limit, Ctrl+C) while a study runs in scratch: its cells stop
// within a decision, so that what is saved can still be published before Slurm's KillWait (30 s by default)
// ends in SIGKILL. Without scratch the database is in place and a killed run loses nothing it saved.
class StopOnSignals {
public:
    explicit StopOnSignals(std::atomic<bool>& cancel) {
        static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
        s_cancel = &cancel;
        s_signal = 0;
        struct sigaction action {};
        action.sa_handler = &StopOnSignals::stop;
        sigemptyset(&action.sa_mask);
        sigaction(SIGTERM, &action, &m_previousTerm);
        sigaction(SIGINT, &action, &m_previousInt);
    }
    ~StopOnSignals() {
        sigaction(SIGTERM, &m_previousTerm, nullptr);
        sigaction(SIGINT, &m_previousInt, nullptr);
        s_cancel = nullptr;
    }
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;
    static int received() { return s_signal; }

private:
    static void stop(int signal) {
        s_signal = signal;
        if (std::atomic<bool>* cancel = s_cancel)
            cancel->store(true);
    }
    static inline std::atomic<bool>* volatile s_cancel = nullptr;
    static inline volatile std::sig_atomic_t s_signal = 0;
    struct sigaction m_previousTerm {};
    struct sigaction m_previousInt {};
};

// How often a study running in scratch publishes what it saved: a node that dies (SIGKILL, a power cut)
// loses at most this much work, and a publication copies the shard's database once.
constexpr std::chrono::minutes kPublishInterval{10};

// Where `study run` saves: the database itself, or with --scratch a copy in the scratch folder, published
// into the database every kPublishInterval, at the end and after a failure, its cells stopped by SIGTERM
// and SIGINT (StopOnSignals) so that what is saved can be published first.
class StudyDestination {
public:
    StudyDestination(const std::string& db, const std::optional<std::string>& scratchFolder,
                     std::atomic<bool>& cancel)
        : m_db(db)
        , m_scratch(scratchFolder ? std::make_optional<ScratchDatabase>(db, *scratchFolder) : std::nullopt)
        , m_store(m_scratch ? m_scratch->workingPath() : db) {
        if (m_scratch)
            m_signals.emplace(cancel);
    }
    ResultsStore& store() { return m_store; }
    void publish() {
        if (!m_scratch)
            return;
        m_scratch->publish(m_store);
        m_lastPublished = std::chrono::steady_clock::now();
    }
    void publishWhenDue() {
        if (std::chrono::steady_clock::now() - m_lastPublished >= kPublishInterval)
            publish();
    }
    // After a failure: what is saved is kept, published if the shared folder takes it.
    void publishIfPossible() noexcept {
        try {
            publish();
        } catch (const std::exception&) {
        }
    }
    int stoppedBySignal() const { return m_scratch ? StopOnSignals::received() : 0; }
    std::string described() const { return m_db + (m_scratch ? " (published from scratch)" : ""); }

private:
    std::string m_db;
    std::optional<ScratchDatabase> m_scratch;
    ResultsStore m_store;
    std::optional<StopOnSignals> m_signals;
    std::chrono::steady_clock::time_point m_lastPublished = std::chrono::steady_clock::now();
};

void printStudyRun(const CliArguments& args, CommandIo& io, StudyId id, const StudyDefinition& study,
                   const StudyRunSummary& summary, const StudyRunOptions& options,
                   const StudyDestination& destination) {
    if (args.has("json")) {
        JsonValue o = JsonValue::makeObject();
        o.insert("study_id", JsonValue::makeNumber(static_cast<double>(id)));
        o.insert("cells", JsonValue::makeNumber(static_cast<double>(summary.cells)));
        o.insert("skipped", JsonValue::makeNumber(static_cast<double>(summary.skipped)));
        o.insert("ran", JsonValue::makeNumber(static_cast<double>(summary.ran)));
        o.insert("infeasible", JsonValue::makeNumber(static_cast<double>(summary.infeasible)));
        io.out << o.dump(2) << '\n';
        return;
    }
    io.out << "study " << id << " '" << printable(study.name) << "': " << summary.cells << " cells"
           << (options.shards > 1
                   ? " in shard " + std::to_string(options.shard) + "/" + std::to_string(options.shards)
                   : "")
           << ", " << summary.ran << " ran, " << summary.infeasible << " infeasible, " << summary.skipped
           << " already saved; database " << destination.described() << '\n';
}

int runStudyFile(const CliArguments& args, CommandIo& io, const std::string& path, const std::string& db) {
    const StudyDefinition study = loadStudy(path, bundledTraces());
    const auto [shard, shards] = parseShard(args.value("shard").value_or("0/1"));
    std::atomic<bool> cancel{false};
    StudyDestination destination(db, args.value("scratch"), cancel);
    ResultsStore& store = destination.store();
    const StudyId id = store.registerStudy(storedStudyOf(study));
    const std::vector<std::int64_t> saved = store.savedCellIndexes(id);
    const std::set<std::int64_t> done(saved.begin(), saved.end());

    StudyRunOptions options;
    options.jobs = args.intValue("jobs", 1, 4096).value_or(0);
    options.shard = shard;
    options.shards = shards;
    options.keepSeries = args.has("series");
    options.cancel = &cancel;
    options.skip = [&done](std::size_t index) { return done.count(static_cast<std::int64_t>(index)) > 0; };
    CellQueue queue;
    std::atomic<std::size_t> computed{0};
    options.onCell = [&](CellResult&& result) {
        ++computed;
        queue.push(storedCellOf(study, result));
    };
    StudyRunSummary summary;
    std::exception_ptr failure;
    std::thread runner([&] {
        try {
            summary = runStudy(study, options);
        } catch (...) {
            failure = std::current_exception();
        }
        queue.close();
    });
    const std::size_t total = cellCount(study);
    std::size_t conflicts = 0;
    {
        // A line every so often while the cells run (ProgressLines); gone before anything else is written.
        const ProgressLines lines(io.err, [&](double seconds) {
            return "study: " + std::to_string(computed.load()) + " cells computed after " +
                   fixedNumber(seconds, 0) + " s (the study has " + std::to_string(total) + ", " +
                   std::to_string(done.size()) + " saved before this run)";
        });
        try {
            conflicts = saveAsTheyFinish(store, id, queue, cancel, runner, computed, done.size(), total,
                                         [&destination] { destination.publishWhenDue(); });
        } catch (...) {
            destination.publishIfPossible();
            throw;
        }
    }
    destination.publish();
    if (failure)
        std::rethrow_exception(failure);
    if (const int signal = destination.stoppedBySignal(); signal != 0) {
        io.err << "study: stopped by signal " << signal << " (" << strsignal(signal) << "); "
               << store.savedCellIndexes(id).size() << " of " << total << " cells are saved in " << db
               << "; run the same command again to resume\n";
        return 128 + signal;
    }
    printStudyRun(args, io, id, study, summary, options, destination);
    if (conflicts > 0)
        io.err << conflicts << " cell(s) were already saved with another result and were left as they were\n";
    return 0;
}

JsonValue studyJson(const StoredStudy& s) {
    JsonValue o = JsonValue::makeObject();
    o.insert("id", JsonValue::makeNumber(static_cast<double>(s.id)));
    o.insert("name", JsonValue::makeString(s.name));
    o.insert("cells", JsonValue::makeNumber(static_cast<double>(s.cellCount)));
    o.insert("saved_cells", JsonValue::makeNumber(static_cast<double>(s.savedCells)));
    o.insert("infeasible_cells", JsonValue::makeNumber(static_cast<double>(s.infeasibleCells)));
    o.insert("columns", jsonStrings(s.columns));
    o.insert("source_file", JsonValue::makeString(s.sourceFile));
    o.insert("program_version", JsonValue::makeString(s.programVersion));
    return o;
}

void writeCellScenario(const CliArguments& args, CommandIo& io, const std::string& path,
                       const std::string& indexText) {
    const StudyDefinition study = loadStudy(path, bundledTraces());
    const auto index = static_cast<std::size_t>(positiveInteger(indexText, "a cell index"));
    if (index >= cellCount(study))
        throw UsageError("the study has " + std::to_string(cellCount(study)) + " cells (0 to " +
                         std::to_string(cellCount(study) - 1) + "), found " + indexText);
    const auto out = args.value("scenario-out");
    if (!out)
        throw UsageError("study cell expects --scenario-out FILE");
    const StudyCell cell = cellAt(study, index);
    const CellSetup setup = cellSetup(study, cell);
    const std::string text = toJson(setup.scenario, directoryOf(*out)).dump(2) + "\n";
    writeFileAtomically(*out, text, "cannot write");
    io.out << "cell " << index << " (" << cell.hash.substr(0, 12) << "): " << printable(setup.scenario.name)
           << " -> " << *out << '\n';
}

int printStudyList(const CliArguments& args, CommandIo& io, const std::string& db) {
    expectOperands(args.positionals(), 0, "study", "no further arguments");
    const std::vector<StoredStudy> studies = openExistingStore(db, false)->listStudies();
    if (args.has("json")) {
        JsonValue array = JsonValue::makeArray();
        for (const StoredStudy& s : studies)
            array.append(studyJson(s));
        JsonValue o = JsonValue::makeObject();
        o.insert("studies", std::move(array));
        io.out << o.dump(2) << '\n';
    } else {
        for (const StoredStudy& s : studies)
            io.out << s.id << "  " << printable(s.name) << "  " << s.savedCells << "/" << s.cellCount
                   << " cells (" << s.infeasibleCells << " infeasible)\n";
    }
    return 0;
}

int printStudy(const CliArguments& args, CommandIo& io, const std::string& db) {
    const std::vector<std::string>& p = args.positionals();
    expectOperands(p, 1, "study", "one study id");
    const StoredStudy s = openExistingStore(db, false)->loadStudy(positiveInteger(p[1], "a study id"));
    if (args.has("json")) {
        io.out << studyJson(s).dump(2) << '\n';
    } else {
        io.out << "study " << s.id << " '" << printable(s.name) << "' from " << printable(s.sourceFile)
               << "\n  axes: " << joinedText(s.columns) << "\n  cells: " << s.savedCells << " of "
               << s.cellCount << " saved, " << s.infeasibleCells << " infeasible\n  program version "
               << s.programVersion << '\n';
    }
    return 0;
}

// study export ID --csv FILE: the study's table, savings against --baseline.
int exportStudyTable(const CliArguments& args, CommandIo& io, const std::string& db) {
    const std::vector<std::string>& p = args.positionals();
    expectOperands(p, 1, "study", "one study id");
    const auto csv = args.value("csv");
    if (!csv)
        throw UsageError("study export expects --csv FILE");
    refuseOutputOverInputs(*csv, {db});
    const std::unique_ptr<ResultsStore> store = openExistingStore(db, false);
    const StudyId id = positiveInteger(p[1], "a study id");
    const std::size_t rows = exportStudyCsv(
        *store, store->loadStudy(id), args.value("baseline").value_or(defaultBaselinePolicy().name), *csv);
    io.out << rows << " cells -> " << *csv << '\n';
    return 0;
}

int deleteStoredStudy(const CliArguments& args, CommandIo& io, const std::string& db) {
    const std::vector<std::string>& p = args.positionals();
    expectOperands(p, 1, "study", "one study id");
    const StudyId id = positiveInteger(p[1], "a study id");
    openExistingStore(db, true)->deleteStudy(id);
    io.out << "deleted study " << id << '\n';
    return 0;
}

int runStudyCommand(const CliArguments& args, CommandIo& io) {
    const std::vector<std::string>& p = args.positionals();
    if (p.empty())
        throw UsageError("expected an action: run, list, show, export, delete, cell, slurm or status");
    const std::string& action = p[0];
    const std::string db = args.value("db").value_or(app::defaultDatabasePath());
    if (action == "run") {
        expectOperands(p, 1, "study", "a study file");
        return runStudyFile(args, io, p[1], db);
    }
    if (action == "slurm") {
        expectOperands(p, 1, "study", "a study file");
        writeSlurmScripts(args, io, p[1], bundledTraces());
        return 0;
    }
    if (action == "status") {
        expectOperands(p, 1, "study", "the folder study slurm wrote");
        return printSlurmStatus(args, io, p[1]);
    }
    if (action == "cell") {
        expectOperands(p, 2, "study", "a study file and a cell index");
        writeCellScenario(args, io, p[1], p[2]);
        return 0;
    }
    if (action == "list")
        return printStudyList(args, io, db);
    if (action == "show")
        return printStudy(args, io, db);
    if (action == "export")
        return exportStudyTable(args, io, db);
    if (action == "delete")
        return deleteStoredStudy(args, io, db);
    throw UsageError("unknown action '" + action +
                     "': expected run, list, show, export, delete, cell, slurm or status");
}

} // namespace

Command makeStudyCommand() {
    Command command;
    command.name = "study";
    command.summary = "run a study (one scenario swept over axes) and list, show, export or delete studies";
    command.usage = "study run STUDY.json [--jobs N] [--shard I/N] [--series] [--scratch DIR] "
                    "[--json]|list|show ID|export "
                    "ID --csv FILE [--baseline POLICY]|delete ID|cell STUDY.json INDEX --scenario-out "
                    "FILE|slurm STUDY.json "
                    "--shards N --out DIR [--partition NAME] [--time T] [--mem SIZE] [--cpus-per-task N] "
                    "[--account NAME] "
                    "[--qos NAME] [--sbatch-line OPTION]... [--scratch DIR]|status DIR [--json]";
    command.details =
        "A study file names a base scenario and axes (" + joinedText(studyAxisKeys()) +
        "); its cells are their Cartesian product (docs/STUDIES.md). run saves each finished cell in the "
        "database as it goes; run it again "
        "after a kill and it carries on where it stopped. --shard I/N runs every N-th cell from cell I "
        "(0 <= I < N), so N machines can share a study; 'runs merge' joins their databases. --series keeps "
        "each cell's per-interval series as a run of its own (runs show, export and plot read it); without "
        "it a study keeps metrics only. export writes "
        "one line per cell: the axis columns, then emissions_kg, operational_kg, embodied_kg, "
        "savings_vs_baseline (against --baseline, default the catalogue's baseline, in the same cell), "
        "completion_hours, deadline_met, energy_kwh, reconfigurations, preemptions, feasible and reason. "
        "cell writes the scenario one cell runs, for `simulate`. --scratch DIR runs the study in a copy in "
        "DIR and publishes it whole into --db (every 10 minutes, at the end, and when stopped by SIGTERM or "
        "SIGINT), so that SQLite never writes on a network filesystem. slurm writes DIR/submit.sh, which "
        "submits an sbatch job array of N shards (each its own database, worked on in the node's scratch, "
        "each task's log appended to by every attempt) and a merge job that runs once all of them ended, "
        "into DIR/study.sqlite, failing with the command that runs the missing cells when a task did not "
        "finish. status DIR shows each shard's published cells and attempts and the merged database's.";
    command.flags = {
        {"db", true, false, "FILE", "results database (default: " + app::defaultDatabasePath() + ")"},
        {"jobs", true, false, "N", "worker threads (default: one per core)"},
        {"shard", true, false, "I/N", "run shard I (0-based) of N"},
        {"series", false, false, "", "run: keep every cell's per-interval series (a run per cell)"},
        {"csv", true, false, "FILE", "export: the CSV file to write"},
        {"baseline", true, false, "POLICY", "export: the policy savings are measured against"},
        {"scenario-out", true, false, "FILE", "cell: where to write the cell's scenario"},
        {"scratch", true, false, "DIR",
         "run: work in DIR (node-local) and publish the database whole into --db's folder; slurm: the "
         "tasks' scratch (default: $TMPDIR, else /tmp)"},
        {"json", false, false, "", "machine-readable output (run: the study's id and counts; status)"},
    };
    for (FlagSpec& flag : slurmFlags())
        command.flags.push_back(std::move(flag));
    command.run = runStudyCommand;
    return command;
}

} // namespace carbon3d::cli
