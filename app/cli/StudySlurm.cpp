// SPDX-License-Identifier: MIT
// carbon3d-cli study slurm and study status (docs/STUDIES.md "On your cluster").
#include "cli/StudySlurm.h"

#include "cli/ShellWord.h"
#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/OutputFile.h"
#include "domain/PrintableText.h"
#include "storage/ResultsStore.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>
#include <algorithm>
#include <ostream>

namespace carbon3d::cli {

namespace {

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

// --sbatch-line 'OPTION': what a site needs beyond the resources above (--gres, --constraint, --exclusive,
// --mail-type...), each an #SBATCH line as given. sbatch reads the line up to its end, and bash reads it as a
// comment, so only what would end the line early or start another is refused: a line break or any other
// control character. It must be an option (begin with '-'): anything else sbatch would ignore silently.
std::string sbatchExtraLines(const CliArguments& args) {
    std::string lines;
    for (const std::string& option : args.values("sbatch-line")) {
        const bool printable =
            std::all_of(option.begin(), option.end(), [](char c) { return c >= ' ' && c != '\x7f'; });
        if (option.empty() || option.front() != '-' || !printable)
            throw UsageError("--sbatch-line " + quotedExcerpt(option) +
                             " is not one sbatch option: it must begin with '-' and hold no line break or "
                             "other control character");
        lines += "#SBATCH " + option + "\n";
    }
    return lines;
}

// What the three scripts are made of.
struct SlurmJob {
    std::string cli;       // the carbon3d-cli the jobs run
    std::string studyFile; // absolute
    std::string dir;       // the --out folder, absolute
    std::string logs;      // dir/logs, checked for an #SBATCH line
    std::string resources; // #SBATCH lines for both scripts
    std::string scratch;   // the node-local folder, as a shell word or expression
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
           "\" --db " + shellWord(job.dir) + "/shard-\"$shard\".sqlite --scratch " + job.scratch +
           " --jobs \"${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-$(nproc)}}\"\n";
}

// The shards' databases that exist, each missing one named with its log: a task that failed before
// publishing leaves its cells missing, which the merge then counts with the command that runs them.
std::string mergeScript(const SlurmJob& job) {
    return "#!/bin/bash\n#SBATCH --job-name=carbon3d-merge\n" + job.resources +
           "#SBATCH --output=" + job.logs +
           "/merge.log\nset -euo pipefail\nshards=()\nfor shard in $(seq 0 " +
           std::to_string(job.shards - 1) + "); do\n    file=" + shellWord(job.dir) +
           "/shard-\"$shard\".sqlite\n    if [ -f \"$file\" ]; then shards+=(\"$file\"); else echo \"shard "
           "$shard published no database (its task failed or was cancelled): see \"" +
           shellWord(job.logs) +
           "\"/shard-$shard.log\" >&2; fi\ndone\n"
           "[ \"${#shards[@]}\" -gt 0 ] || { echo \"no shard wrote its database\" >&2; exit 1; }\n"
           "exec " +
           shellWord(job.cli) + " runs merge \"${shards[@]}\" --into " +
           shellWord(job.dir + "/study.sqlite") + " --scratch " + job.scratch + "\n";
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
// What study status needs to know of a folder study slurm wrote, beside its scripts.
constexpr const char* kManifestName = "study-slurm.json";

void writeManifest(const SlurmJob& job, const StudyDefinition& study) {
    JsonValue manifest = JsonValue::makeObject();
    manifest.insert("schema", JsonValue::makeNumber(1));
    manifest.insert("study_name", JsonValue::makeString(study.name));
    manifest.insert("study_file", JsonValue::makeString(job.studyFile));
    manifest.insert("study_hash", JsonValue::makeString(study.hash));
    manifest.insert("cells", JsonValue::makeNumber(static_cast<double>(cellCount(study))));
    manifest.insert("shards", JsonValue::makeNumber(job.shards));
    writeFileAtomically(job.dir + "/" + kManifestName, manifest.dump(2) + "\n", "cannot write");
}

} // namespace

// study slurm: an sbatch job array (a task per shard, each writing its own database in node-local scratch
// and publishing it into the folder), a merge job that runs once every task ended, however it ended
// (--dependency=afterany: with afterok a failed task left the merge pending forever), merging the shards
// that exist and failing, with the command that runs the missing cells, when the study is short of any
// (runs merge), and submit.sh that submits both.
void writeSlurmScripts(const CliArguments& args, CommandIo& io, const std::string& studyPath,
                       const std::string& bundledTraces) {
    const StudyDefinition study = loadStudy(studyPath, bundledTraces); // refuse a bad file before any job
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
    job.resources = sbatchResourceLines(args) + sbatchExtraLines(args) + "#SBATCH --open-mode=append\n";
    // The node's own disk: Slurm's TMPDIR where the site sets one (often a per-job folder), else /tmp.
    job.scratch = args.value("scratch") ? shellWord(*args.value("scratch")) : "\"${TMPDIR:-/tmp}\"";
    if (!QDir().mkpath(QString::fromStdString(job.logs)))
        throw InputError(*out, 0, 0, "cannot create the directory");
    writeScript(job.dir + "/study-array.sbatch", arrayScript(job, study));
    writeScript(job.dir + "/study-merge.sbatch", mergeScript(job));
    writeScript(job.dir + "/submit.sh", submitScript(job));
    writeManifest(job, study);
    io.out << "wrote " << job.dir << "/submit.sh (with study-array.sbatch: " << job.shards
           << " tasks, study-merge.sbatch)\n";
}

namespace {

// One shard's progress as its published database and its log tell it.
struct ShardProgress {
    std::int64_t cells = 0; // the shard's share of the study
    std::int64_t saved = 0; // in its published database
    int attempts = 0;       // header lines in its log, one per start
    // "done", "N to go", "no database published" (started: running, or ended before it published),
    // "not started", or why its database cannot be read.
    std::string state;
};

// Cells i, i + n, i + 2n... of `total` (study run --shard I/N).
std::int64_t cellsOfShard(std::int64_t total, std::int64_t shard, std::int64_t shards) {
    return shard < total ? (total - 1 - shard) / shards + 1 : 0;
}

// The study's saved cells in a database published from scratch, read without locks (Access::ReadOnly);
// nullopt when the file is missing.
std::optional<std::int64_t> savedCellsIn(const std::string& path, const std::string& studyHash) {
    if (!QFileInfo::exists(QString::fromStdString(path)))
        return std::nullopt;
    const ResultsStore store(path, ResultsStore::OpenOptions{ResultsStore::OpenMode::MustExist,
                                                             ResultsStore::OpenCheck::HeaderOnly,
                                                             ResultsStore::Access::ReadOnly});
    for (const StoredStudy& study : store.listStudies())
        if (study.hash == studyHash)
            return study.savedCells;
    return 0;
}

int attemptsIn(const std::string& log) {
    QFile file(QString::fromStdString(log));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return 0;
    int attempts = 0;
    QTextStream lines(&file);
    while (!lines.atEnd())
        attempts += lines.readLine().startsWith(QStringLiteral("== ")) ? 1 : 0;
    return attempts;
}

ShardProgress shardProgress(const std::string& folder, const std::string& hash, std::int64_t total, int shard,
                            int shards) {
    ShardProgress progress;
    progress.cells = cellsOfShard(total, shard, shards);
    progress.attempts = attemptsIn(folder + "/logs/shard-" + std::to_string(shard) + ".log");
    try {
        const auto saved = savedCellsIn(folder + "/shard-" + std::to_string(shard) + ".sqlite", hash);
        progress.saved = saved.value_or(0);
        progress.state = !saved ? (progress.attempts > 0 ? "no database published" : "not started")
                         : progress.saved >= progress.cells
                             ? "done"
                             : std::to_string(progress.cells - progress.saved) + " to go";
    } catch (const InputError& error) {
        progress.state = "unreadable: " + error.problem();
    }
    return progress;
}

} // namespace

// study status DIR: each shard's published cells and attempts, and the merged database's cells.
int printSlurmStatus(const CliArguments& args, CommandIo& io, const std::string& folder) {
    const std::string manifestPath = folder + "/" + kManifestName;
    if (!QFileInfo::exists(QString::fromStdString(manifestPath)))
        throw InputError(folder, 0, 0,
                         std::string("holds no ") + kManifestName +
                             ": expected a folder written by 'carbon3d-cli study slurm --out'");
    const JsonValue manifest = parseJson(readTextFile(manifestPath), manifestPath);
    JsonObjectReader reader(manifest, manifestPath);
    reader.schema();
    const std::string name = reader.string("study_name");
    reader.string("study_file");
    const std::string hash = reader.string("study_hash");
    const std::int64_t total = reader.integer("cells", 0, 1 << 30, "cells");
    const int shards = reader.integer("shards", 1, 100000, "shards");
    reader.finish();

    std::vector<ShardProgress> progress;
    std::int64_t published = 0;
    for (int shard = 0; shard < shards; ++shard) {
        progress.push_back(shardProgress(folder, hash, total, shard, shards));
        published += progress.back().saved;
    }
    const ShardProgress merged = [&] {
        ShardProgress m;
        m.cells = total;
        try {
            const auto saved = savedCellsIn(folder + "/study.sqlite", hash);
            m.saved = saved.value_or(0);
            m.state = !saved ? "not merged yet" : m.saved >= total ? "complete" : "partial";
        } catch (const InputError& error) {
            m.state = "unreadable: " + error.problem();
        }
        return m;
    }();
    if (args.has("json")) {
        JsonValue o = JsonValue::makeObject();
        o.insert("study", JsonValue::makeString(name));
        o.insert("cells", JsonValue::makeNumber(static_cast<double>(total)));
        JsonValue list = JsonValue::makeArray();
        for (std::size_t shard = 0; shard < progress.size(); ++shard) {
            JsonValue s = JsonValue::makeObject();
            s.insert("shard", JsonValue::makeNumber(static_cast<double>(shard)));
            s.insert("cells", JsonValue::makeNumber(static_cast<double>(progress[shard].cells)));
            s.insert("saved", JsonValue::makeNumber(static_cast<double>(progress[shard].saved)));
            s.insert("attempts", JsonValue::makeNumber(progress[shard].attempts));
            s.insert("state", JsonValue::makeString(progress[shard].state));
            list.append(std::move(s));
        }
        o.insert("shards", std::move(list));
        o.insert("merged_cells", JsonValue::makeNumber(static_cast<double>(merged.saved)));
        o.insert("merged_state", JsonValue::makeString(merged.state));
        io.out << o.dump(2) << '\n';
        return 0;
    }
    io.out << "study '" << printable(name) << "': " << total << " cells in " << shards << " shards, "
           << published << " published by the shards\nshard  cells  saved  attempts  state\n";
    for (std::size_t shard = 0; shard < progress.size(); ++shard)
        io.out << shard << "  " << progress[shard].cells << "  " << progress[shard].saved << "  "
               << progress[shard].attempts << "  " << printable(progress[shard].state) << '\n';
    io.out << "merged: " << folder << "/study.sqlite holds " << merged.saved << " of " << total << " cells ("
           << printable(merged.state) << ")\n";
    return 0;
}

std::vector<FlagSpec> slurmFlags() {
    std::vector<FlagSpec> flags = {
        {"shards", true, false, "N", "slurm: tasks of the job array"},
        {"out", true, false, "DIR", "slurm: where the scripts, logs and databases go"},
        {"cli", true, false, "PATH", "slurm: the carbon3d-cli the jobs run (default: this one)"},
        {"sbatch-line", true, true, "OPTION",
         "slurm: one more #SBATCH line for both scripts, e.g. '--gres=gpu:0' (repeatable)"},
    };
    for (const SbatchResource& resource : kSbatchResources)
        flags.push_back({resource.flag, true, false, resource.value, resource.help});
    return flags;
}

} // namespace carbon3d::cli
