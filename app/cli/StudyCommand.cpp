// SPDX-License-Identifier: MIT
// carbon3d-cli study: run a study file's cells into a results database (resuming where a killed run
// stopped, one shard of several if asked), list, show, export and delete the studies there, and write one
// cell's scenario out. docs/STUDIES.md.
#include "cli/Commands.h"
#include "cli/ExistingStore.h"
#include "cli/ProgressLines.h"
#include "cli/ShellWord.h"
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
#include "study/StudyCells.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"
#include "study/StudyTable.h"
#include "support/DataDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
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
                             std::size_t savedBefore, std::size_t total) {
    std::size_t conflicts = 0;
    std::size_t saved = savedBefore;
    try {
        while (!queue.closed()) {
            const std::vector<StoredCell> cells = queue.take(std::chrono::milliseconds(1000));
            if (cells.empty())
                continue;
            conflicts += store.saveCells(id, cells).size();
            saved += cells.size();
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

int runStudyFile(const CliArguments& args, CommandIo& io, const std::string& path, const std::string& db) {
    const StudyDefinition study = loadStudy(path, bundledTraces());
    const auto [shard, shards] = parseShard(args.value("shard").value_or("0/1"));
    ResultsStore store(db);
    const StudyId id = store.registerStudy(storedStudyOf(study));
    const std::vector<std::int64_t> saved = store.savedCellIndexes(id);
    const std::set<std::int64_t> done(saved.begin(), saved.end());

    std::atomic<bool> cancel{false};
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
        conflicts = saveAsTheyFinish(store, id, queue, cancel, runner, computed, done.size(), total);
    }
    if (failure)
        std::rethrow_exception(failure);
    if (args.has("json")) {
        JsonValue o = JsonValue::makeObject();
        o.insert("study_id", JsonValue::makeNumber(static_cast<double>(id)));
        o.insert("cells", JsonValue::makeNumber(static_cast<double>(summary.cells)));
        o.insert("skipped", JsonValue::makeNumber(static_cast<double>(summary.skipped)));
        o.insert("ran", JsonValue::makeNumber(static_cast<double>(summary.ran)));
        o.insert("infeasible", JsonValue::makeNumber(static_cast<double>(summary.infeasible)));
        io.out << o.dump(2) << '\n';
    } else {
        io.out << "study " << id << " '" << printable(study.name) << "': " << summary.cells << " cells"
               << (shards > 1 ? " in shard " + std::to_string(shard) + "/" + std::to_string(shards) : "")
               << ", " << summary.ran << " ran, " << summary.infeasible << " infeasible, " << summary.skipped
               << " already saved; database " << store.path() << '\n';
    }
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

void writeScript(const std::string& path, const std::string& text) {
    writeFileAtomically(path, text, "cannot write");
    QFile::setPermissions(QString::fromStdString(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                            QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                                            QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                            QFileDevice::ExeOther);
}

// A value for an #SBATCH line: sbatch reads those lines as comments of the script, one option a line, so
// the value may hold no line break, space or quote (which would end it or start another line). Refused by
// name otherwise: nothing a study file or a flag holds is pasted into a script unchecked.
std::string sbatchValue(const std::string& value, const char* what) {
    const bool safe = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("/._-,:%+=@").find(c) != std::string_view::npos;
    });
    if (!safe)
        throw UsageError(std::string(what) + " " + quotedExcerpt(value) +
                         " cannot go on an #SBATCH line: use letters, digits and / . _ - , : % + = @ only");
    return value;
}

// What a site's jobs must say to be scheduled (issue 44): each a flag of study slurm and an #SBATCH line of
// the same name in both scripts, its value checked by sbatchValue. One entry a resource.
struct SbatchResource {
    const char* flag;
    const char* value;
    const char* help;
};
constexpr SbatchResource kSbatchResources[] = {
    {"partition", "NAME", "slurm: the partition to submit to (default: the cluster's)"},
    {"time", "TIME",
     "slurm: each job's time limit, as sbatch takes it (e.g. 4:00:00; default: the partition's)"},
    {"mem", "SIZE", "slurm: each job's memory, as sbatch takes it (e.g. 8G)"},
    {"cpus-per-task", "N", "slurm: CPUs per task; each shard runs that many threads"},
    {"account", "NAME", "slurm: the account the jobs are charged to"},
    {"qos", "NAME", "slurm: the quality of service the jobs ask for"},
};

// The #SBATCH lines of the resources given.
std::string sbatchResourceLines(const CliArguments& args) {
    std::string lines;
    for (const SbatchResource& resource : kSbatchResources)
        if (const auto value = args.value(resource.flag))
            lines += std::string("#SBATCH --") + resource.flag + "=" +
                     sbatchValue(*value, (std::string("--") + resource.flag).c_str()) + "\n";
    return lines;
}

// What the three scripts are made of.
struct SlurmJob {
    std::string cli;       // the carbon3d-cli the jobs run
    std::string studyFile; // absolute
    std::string dir;       // the --out folder, absolute
    std::string logs;      // dir/logs, checked for an #SBATCH line
    std::string resources; // #SBATCH lines for both scripts
    int shards = 1;
};

// The array's task I + $CARBON3D_FIRST_SHARD runs that shard (an offset, since a site's MaxArraySize caps
// the task index: submit.sh splits a larger study into several arrays). Its output goes to the shard's own
// log, appended to by every attempt; Slurm's own file keeps only what comes before.
std::string arrayScript(const SlurmJob& job, const StudyDefinition& study) {
    const std::string n = std::to_string(job.shards);
    return "#!/bin/bash\n# " + printable(study.name) + ": " + std::to_string(cellCount(study)) +
           " cells in " + n +
           " shards (written by carbon3d-cli study slurm; submit.sh submits it)\n"
           "#SBATCH --job-name=carbon3d-study\n#SBATCH --array=0-" +
           std::to_string(job.shards - 1) + "\n" + job.resources + "#SBATCH --output=" + job.logs +
           "/slurm-%A_%a.log\nset -euo pipefail\n" +
           "shard=$((SLURM_ARRAY_TASK_ID + ${CARBON3D_FIRST_SHARD:-0}))\n"
           "exec >>" +
           shellWord(job.logs) +
           "/shard-\"$shard\".log 2>&1\n"
           "echo \"== $(date -u +%Y-%m-%dT%H:%M:%SZ) shard $shard: task ${SLURM_ARRAY_TASK_ID} of job "
           "${SLURM_ARRAY_JOB_ID:-none (by hand)}, restart ${SLURM_RESTART_COUNT:-0}\"\n"
           "exec " +
           shellWord(job.cli) + " study run " + shellWord(job.studyFile) + " --shard \"$shard/" + n +
           "\" --db " + shellWord(job.dir) +
           "/shard-\"$shard\".sqlite --jobs "
           "\"${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-$(nproc)}}\"\n";
}

// The shards' databases that exist: a task that failed before writing one leaves its cells missing, which
// the merge then names.
std::string mergeScript(const SlurmJob& job) {
    return "#!/bin/bash\n#SBATCH --job-name=carbon3d-merge\n" + job.resources +
           "#SBATCH --output=" + job.logs +
           "/merge.log\nset -euo pipefail\nshards=()\nfor shard in $(seq 0 " +
           std::to_string(job.shards - 1) + "); do\n    file=" + shellWord(job.dir) +
           "/shard-\"$shard\".sqlite\n    if [ -f \"$file\" ]; then shards+=(\"$file\"); fi\ndone\n"
           "[ \"${#shards[@]}\" -gt 0 ] || { echo \"no shard wrote its database\" >&2; exit 1; }\n"
           "exec " +
           shellWord(job.cli) + " runs merge \"${shards[@]}\" --into " +
           shellWord(job.dir + "/study.sqlite") + "\n";
}

// Arrays of at most the site's MaxArraySize tasks (scontrol's, else Slurm's default 1001: sbatch refused
// --array=0-1999), each told its first shard, then the merge once all of them ended.
std::string submitScript(const SlurmJob& job) {
    return "#!/bin/bash\n# Submits the shards as job arrays no larger than the site allows, then the merge "
           "to "
           "run once all of them ended.\nset -euo pipefail\nshards=" +
           std::to_string(job.shards) +
           "\n"
           "max=$(scontrol show config 2>/dev/null | awk '$1 == \"MaxArraySize\" {print $3}' || true)\n"
           "max=${max:-1001}\narrays=()\n"
           "for ((first = 0; first < shards; first += max)); do\n"
           "    count=$((shards - first < max ? shards - first : max))\n"
           "    id=$(sbatch --parsable --array=0-$((count - 1)) "
           "--export=ALL,CARBON3D_FIRST_SHARD=\"$first\" " +
           shellWord(job.dir + "/study-array.sbatch") +
           ")\n"
           "    arrays+=(\"${id%%;*}\")\ndone\n"
           "merge=$(sbatch --parsable --dependency=afterany:\"$(IFS=:; echo \"${arrays[*]}\")\" " +
           shellWord(job.dir + "/study-merge.sbatch") +
           ")\n"
           "echo \"array job(s) ${arrays[*]}, merge job ${merge%%;*}:\" " +
           shellWord(job.dir + "/study.sqlite") + "\n";
}

// study slurm: an sbatch job array (a task per shard, each writing its own database), a merge job that runs
// once every task ended, however it ended (--dependency=afterany: with afterok a failed task left the merge
// pending forever), merging the shards that exist and failing, with the command that runs the missing cells,
// when the study is short of any (runs merge), and submit.sh that submits both.
void writeSlurmScripts(const CliArguments& args, CommandIo& io, const std::string& studyPath) {
    const StudyDefinition study = loadStudy(studyPath, bundledTraces()); // refuse a bad file before any job
    const auto shards = args.intValue("shards", 1, 100000);
    const auto out = args.value("out");
    if (!shards || !out)
        throw UsageError("study slurm expects --shards N and --out DIR");
    if (args.has("db"))
        throw UsageError("study slurm writes its databases under --out (DIR/shard-I.sqlite, merged into "
                         "DIR/study.sqlite): --db is for run, list, show and export");
    SlurmJob job;
    job.shards = *shards;
    job.dir = QFileInfo(QString::fromStdString(*out)).absoluteFilePath().toStdString();
    job.logs = sbatchValue(job.dir + "/logs", "the --out folder"); // checked before anything is made
    job.cli = args.value("cli").value_or(QCoreApplication::applicationFilePath().toStdString());
    job.studyFile = QFileInfo(QString::fromStdString(studyPath)).absoluteFilePath().toStdString();
    // Slurm's own files (the merge's log, anything a task says before its shard's log takes over) are
    // appended to, as the shards' logs are: a re-run kept the last attempt only.
    job.resources = sbatchResourceLines(args) + "#SBATCH --open-mode=append\n";
    if (!QDir().mkpath(QString::fromStdString(job.logs)))
        throw InputError(*out, 0, 0, "cannot create the directory");
    writeScript(job.dir + "/study-array.sbatch", arrayScript(job, study));
    writeScript(job.dir + "/study-merge.sbatch", mergeScript(job));
    writeScript(job.dir + "/submit.sh", submitScript(job));
    io.out << "wrote " << job.dir << "/submit.sh (with study-array.sbatch: " << job.shards
           << " tasks, study-merge.sbatch)\n";
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
    const StudyTable table = studyTable(store->loadStudy(id), store->loadCells(id),
                                        args.value("baseline").value_or(defaultBaselinePolicy().name));
    writeStudyCsv(table, *csv);
    io.out << table.rows.size() << " cells -> " << *csv << '\n';
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
        throw UsageError("expected an action: run, list, show, export, delete, cell or slurm");
    const std::string& action = p[0];
    const std::string db = args.value("db").value_or(app::defaultDatabasePath());
    if (action == "run") {
        expectOperands(p, 1, "study", "a study file");
        return runStudyFile(args, io, p[1], db);
    }
    if (action == "slurm") {
        expectOperands(p, 1, "study", "a study file");
        writeSlurmScripts(args, io, p[1]);
        return 0;
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
                     "': expected run, list, show, export, delete, cell or slurm");
}

} // namespace

Command makeStudyCommand() {
    Command command;
    command.name = "study";
    command.summary = "run a study (one scenario swept over axes) and list, show, export or delete studies";
    command.usage =
        "study run STUDY.json [--jobs N] [--shard I/N] [--series] [--json]|list|show ID|export ID --csv FILE "
        "[--baseline POLICY]|delete ID|cell STUDY.json INDEX --scenario-out FILE|slurm STUDY.json --shards N "
        "--out DIR [--partition NAME] [--time T] [--mem SIZE] [--cpus-per-task N] [--account NAME] [--qos "
        "NAME]";
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
        "cell writes the scenario one cell runs, for `simulate`. slurm writes DIR/submit.sh, which submits "
        "an sbatch job array of N shards (each its own database, each task's log appended to by every "
        "attempt) "
        "and a merge job that runs once all of them ended, into DIR/study.sqlite, failing with the command "
        "that runs the missing cells when a task did not finish.";
    command.flags = {
        {"db", true, false, "FILE", "results database (default: " + app::defaultDatabasePath() + ")"},
        {"jobs", true, false, "N", "worker threads (default: one per core)"},
        {"shard", true, false, "I/N", "run shard I (0-based) of N"},
        {"series", false, false, "", "run: keep every cell's per-interval series (a run per cell)"},
        {"csv", true, false, "FILE", "export: the CSV file to write"},
        {"baseline", true, false, "POLICY", "export: the policy savings are measured against"},
        {"scenario-out", true, false, "FILE", "cell: where to write the cell's scenario"},
        {"shards", true, false, "N", "slurm: tasks of the job array"},
        {"out", true, false, "DIR", "slurm: where the scripts, logs and databases go"},
        {"cli", true, false, "PATH", "slurm: the carbon3d-cli the jobs run (default: this one)"},
        {"json", false, false, "", "machine-readable output (run: the study's id and counts)"},
    };
    for (const SbatchResource& resource : kSbatchResources)
        command.flags.push_back({resource.flag, true, false, resource.value, resource.help});
    command.run = runStudyCommand;
    return command;
}

} // namespace carbon3d::cli
