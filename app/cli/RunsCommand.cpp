// SPDX-License-Identifier: MIT
// carbon3d-cli runs: the saved runs of a results database (core/storage), listed, shown, compared,
// exported, renamed and deleted.
#include "cli/Commands.h"
#include "cli/ExistingStore.h"
#include "cli/ShellWord.h"
#include "domain/FileIdentity.h"
#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/MetricFields.h"
#include "domain/NumberText.h"
#include "domain/OutputFile.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "engine/forecast/Forecaster.h"
#include "storage/ResultsStore.h"
#include "storage/RunCsv.h"
#include "storage/ScratchDatabase.h"
#include "support/DataDirectory.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>

namespace carbon3d::cli {

namespace {

constexpr double kJPerKwh = 3.6e6;
constexpr double kGPerKg = 1000.0;
constexpr double kSPerHour = 3600.0;

RunId parseRunId(const std::string& text) {
    const std::optional<std::int64_t> id = parseInteger(text);
    if (!id || *id <= 0)
        throw UsageError("expected a run id (a positive integer, see 'runs list'), found '" + text + "'");
    return *id;
}

// Fixed-point text with `digits` decimals; "-" for NaN.
std::string fixed(double value, int digits) {
    return std::isnan(value) ? "-" : fixedNumber(value, digits);
}

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width)
        text.append(width - text.size(), ' ');
    return text;
}

std::string padLeft(const std::string& text, std::size_t width) {
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

// The headline metrics in display units, with the key names of `simulate --json`.
JsonValue summaryJson(const RunSummary& r) {
    JsonValue o = JsonValue::makeObject();
    o.insert("id", JsonValue::makeNumber(static_cast<double>(r.id)));
    o.insert("name", JsonValue::makeString(r.name));
    o.insert("scenario", JsonValue::makeString(r.scenarioName));
    o.insert("scenario_hash", JsonValue::makeString(r.scenarioHash));
    o.insert("policy", JsonValue::makeString(r.policy));
    o.insert("region", JsonValue::makeString(r.regionId));
    o.insert("start", JsonValue::makeString(formatIsoUtc(r.startUtc)));
    o.insert("deadline", JsonValue::makeString(formatIsoUtc(r.deadlineUtc)));
    o.insert("created", JsonValue::makeString(formatIsoUtc(r.createdUtc)));
    o.insert("status", JsonValue::makeString(r.status));
    insertMetricsJson(o, r.metrics, /*storedOnly=*/true); // a saved run has the stored metrics only
    return o;
}

JsonValue mapJson(const std::map<std::string, std::string>& map) {
    JsonValue o = JsonValue::makeObject();
    for (const auto& [key, value] : map)
        o.insert(key, JsonValue::makeString(value));
    return o;
}

std::string mapText(const std::map<std::string, std::string>& map) {
    const std::string text =
        joinedText(map, ", ", [](const auto& entry) { return entry.first + "=" + entry.second; });
    return text.empty() ? "(none)" : text;
}

void printList(std::ostream& out, const std::vector<RunSummary>& runs) {
    if (runs.empty()) {
        out << "no runs saved yet\n";
        return;
    }
    // The name comes last: names are long and vary in length, so any column after them would not line up.
    out << padLeft("ID", 5) << "  " << pad("POLICY", 16) << pad("REGION", 14) << pad("START (UTC)", 22)
        << padLeft("TOTAL kg", 12) << padLeft("ENERGY kWh", 13) << padLeft("HOURS", 9) << "  "
        << pad("STATUS", 14) << "NAME\n";
    for (const RunSummary& r : runs) {
        out << padLeft(std::to_string(r.id), 5) << "  " << pad(r.policy, 15) << ' ' << pad(r.regionId, 13)
            << ' ' << pad(formatIsoUtc(r.startUtc), 22) << padLeft(fixed(r.metrics.totalG / kGPerKg, 1), 12)
            << padLeft(fixed(r.metrics.energyJ / kJPerKwh, 1), 13)
            << padLeft(fixed(r.metrics.completionSeconds / kSPerHour, 1), 9) << "  " << pad(r.status, 13)
            << ' ' << printable(r.name) << '\n';
    }
}

void printRun(std::ostream& out, const StoredRun& run) {
    const RunSummary& s = run.summary;
    const RunMetrics& m = run.result.metrics;
    out << "run " << s.id << ": " << printable(s.name) << '\n';
    out << "scenario        " << printable(run.scenario.name) << " (hash " << run.scenario.contentHash
        << ")\n";
    out << "policy          " << run.result.policy << "; options " << mapText(run.result.options) << '\n';
    out << "modelling       " << mapText(run.result.modelling) << '\n';
    out << "forecast        " << forecastLabel(run.result.forecastKind) << " (MAPE "
        << fixed(run.result.forecastMape * 100.0, 2) << " %)\n";
    out << "window (UTC)    " << formatIsoUtc(run.result.startUtc) << " .. "
        << formatIsoUtc(run.result.deadlineUtc) << " (deadline)\n";
    out << "saved           " << formatIsoUtc(s.createdUtc) << " by Carbon3D " << run.programVersion
        << "; status " << s.status << '\n';
    for (std::size_t i = 0; i < run.traces.size(); ++i) {
        const StoredTrace& t = run.traces[i];
        out << "trace [" << i << "]       " << t.regionId << ", " << t.signal << ", " << t.rows << " x "
            << t.stepSeconds << " s from " << formatIsoUtc(t.startUtc) << "; " << t.sourceFile << " ("
            << t.format << (t.sourceColumn.empty() ? "" : ", " + t.sourceColumn) << "), sha256 "
            << t.contentSha256 << '\n';
        if (!t.attribution.empty())
            out << "                " << t.attribution << '\n';
    }
    out << "emissions       " << fixed(m.totalG / kGPerKg, 3)
        << " kgCO2e total = " << fixed(m.operationalG / kGPerKg, 3) << " operational + "
        << fixed(m.embodiedG / kGPerKg, 3) << " embodied (marginal " << fixed(m.marginalG / kGPerKg, 3)
        << ")\n";
    out << "energy          " << fixed(m.energyJ / kJPerKwh, 3) << " kWh (facility), average "
        << fixed(m.averagePowerW / 1000.0, 3) << " kW\n";
    out << "completion      " << fixed(m.completionSeconds / kSPerHour, 3) << " h; finished "
        << (m.finished ? "yes" : "no") << ", deadline met " << (m.deadlineMet ? "yes" : "no") << '\n';
    out << "overheads       " << m.reconfigurations << " reconfigurations ("
        << fixed(m.reconfigurationSeconds / kSPerHour, 2) << " h), " << m.preemptions << " preemptions ("
        << fixed(m.preemptionSeconds / kSPerHour, 2) << " h), " << m.migrations << " migrations ("
        << fixed(m.migrationSeconds / kSPerHour, 2) << " h)\n";
    out << "work            " << m.workDone << " units; " << fixed(m.workPerGram, 3) << " per gCO2e\n";
    out << "series          " << run.result.series.size() << " intervals\n";
    for (const std::string& w : run.result.warnings)
        out << "warning         " << w << '\n';
}

JsonValue runJson(const StoredRun& run) {
    JsonValue o = summaryJson(run.summary);
    o.insert("options", mapJson(run.result.options));
    o.insert("modelling", mapJson(run.result.modelling));
    o.insert("forecast", JsonValue::makeString(run.result.forecastKind));
    o.insert("forecast_mape", JsonValue::makeNumber(run.result.forecastMape));
    o.insert("program_version", JsonValue::makeString(run.programVersion));
    JsonValue traces = JsonValue::makeArray();
    for (const StoredTrace& t : run.traces) {
        JsonValue j = JsonValue::makeObject();
        j.insert("region", JsonValue::makeString(t.regionId));
        j.insert("signal", JsonValue::makeString(t.signal));
        j.insert("source_file", JsonValue::makeString(t.sourceFile));
        j.insert("format", JsonValue::makeString(t.format));
        j.insert("column", JsonValue::makeString(t.sourceColumn));
        j.insert("sha256", JsonValue::makeString(t.contentSha256));
        j.insert("step_seconds", JsonValue::makeNumber(static_cast<double>(t.stepSeconds)));
        j.insert("start", JsonValue::makeString(formatIsoUtc(t.startUtc)));
        j.insert("rows", JsonValue::makeNumber(static_cast<double>(t.rows)));
        j.insert("attribution", JsonValue::makeString(t.attribution));
        traces.append(std::move(j));
    }
    o.insert("traces", std::move(traces));
    o.insert("intervals", JsonValue::makeNumber(static_cast<double>(run.result.series.size())));
    o.insert("warnings", jsonStrings(run.result.warnings));
    return o;
}

void printComparison(std::ostream& out, const std::vector<RunComparison>& rows) {
    out << "baseline: run " << rows.front().baselineId << " ("
        << fixed(rows.front().baselineMetrics.totalG / kGPerKg, 3) << " kgCO2e)\n";
    // Every numeric column is right-aligned after a space, so wide values never run into each other.
    const auto cell = [](const std::string& text, std::size_t width) { return ' ' + padLeft(text, width); };
    out << padLeft("ID", 5) << "  " << pad("POLICY", 15) << cell("TOTAL kg", 13) << cell("SAVED kg", 13)
        << cell("SAVED %", 9) << cell("+kWh", 12) << cell("+HOURS", 9) << cell("+USD", 12) << "  NAME\n";
    for (const RunComparison& c : rows) {
        out << padLeft(std::to_string(c.runId), 5) << "  " << pad(c.policy, 15)
            << cell(fixed(c.metrics.totalG / kGPerKg, 3), 13) << cell(fixed(c.savedG / kGPerKg, 3), 13)
            << cell(fixed(c.savedFraction * 100.0, 2), 9) << cell(fixed(c.extraEnergyJ / kJPerKwh, 2), 12)
            << cell(fixed(c.extraCompletionSeconds / kSPerHour, 2), 9) << cell(fixed(c.extraCostUsd, 2), 12)
            << "  " << printable(c.name) << (c.sameScenario ? "" : "  (other scenario)") << '\n';
    }
}

JsonValue comparisonJson(const std::vector<RunComparison>& rows) {
    JsonValue o = JsonValue::makeObject();
    o.insert("baseline", JsonValue::makeNumber(static_cast<double>(rows.front().baselineId)));
    JsonValue runs = JsonValue::makeArray();
    for (const RunComparison& c : rows) {
        JsonValue j = JsonValue::makeObject();
        j.insert("id", JsonValue::makeNumber(static_cast<double>(c.runId)));
        j.insert("name", JsonValue::makeString(c.name));
        j.insert("policy", JsonValue::makeString(c.policy));
        j.insert("scenario", JsonValue::makeString(c.scenarioName));
        j.insert("same_scenario", JsonValue::makeBool(c.sameScenario));
        j.insert("total_kg", JsonValue::makeNumber(c.metrics.totalG / kGPerKg));
        j.insert("baseline_total_kg", JsonValue::makeNumber(c.baselineMetrics.totalG / kGPerKg));
        j.insert("saved_kg", JsonValue::makeNumber(c.savedG / kGPerKg));
        j.insert("saved_fraction", JsonValue::makeNumber(c.savedFraction));
        j.insert("saved_operational_kg", JsonValue::makeNumber(c.savedOperationalG / kGPerKg));
        j.insert("extra_energy_kwh", JsonValue::makeNumber(c.extraEnergyJ / kJPerKwh));
        j.insert("extra_hours", JsonValue::makeNumber(c.extraCompletionSeconds / kSPerHour));
        j.insert("extra_cost_usd", JsonValue::makeNumber(c.extraCostUsd));
        runs.append(std::move(j));
    }
    o.insert("runs", std::move(runs));
    return o;
}

constexpr std::size_t kMergeChunk = 64; // study cells merged per transaction

// A merge of shards that did not all finish looks like success unless said (issue 44: a merge of 943 of 1,302
// cells exited 0, and `study export` wrote the 943 rows). Each merged study short of its cells is named with
// what re-runs only the missing ones; the merge fails unless --allow-partial says a partial study is meant.
int reportIncompleteStudies(const ResultsStore& target, const std::vector<StudyId>& merged,
                            const std::string& into, const std::optional<std::string>& scratch,
                            bool allowPartial, CommandIo& io) {
    bool partial = false;
    for (const StoredStudy& study : target.listStudies()) {
        if (std::find(merged.begin(), merged.end(), study.id) == merged.end() ||
            study.savedCells >= study.cellCount)
            continue;
        partial = true;
        io.err << (allowPartial ? "warning: " : "") << "study " << study.id << " '" << printable(study.name)
               << "' holds " << study.savedCells << " of its " << study.cellCount
               << " cells; its missing cells run with: carbon3d-cli study run " << shellWord(study.sourceFile)
               << " --db " << shellWord(into) << (scratch ? " --scratch " + shellWord(*scratch) : "") << '\n';
    }
    if (!partial || allowPartial)
        return 0;
    io.err << "the merge is partial: run the missing cells as above, or merge with --allow-partial to keep a "
              "partial study\n";
    return 1;
}

struct CellsMerged {
    std::size_t cells = 0;
    std::size_t conflicts = 0; // cells the target kept with another result
};

// One study's cells of `source` into the target's study `id`, streamed in chunks, each one transaction: a
// cell's series run (about 1.4 MB a year of hours) is read only for its chunk, and no more than a chunk of
// cells is held, so memory stays flat however many cells the study has or keep series (issue 40; issue 44
// item 4).
CellsMerged mergeStudyCells(const ResultsStore& source, ResultsStore& target, const StoredStudy& study,
                            StudyId id, const std::string& input, CommandIo& io) {
    CellsMerged merged;
    std::vector<StoredCell> chunk;
    const auto saveChunk = [&] {
        merged.cells += chunk.size();
        for (const std::int64_t index : target.saveCells(id, chunk)) {
            ++merged.conflicts;
            io.err << "study '" << printable(study.name) << "' cell " << index << ": " << input
                   << " has another result than the one kept\n";
        }
        chunk.clear();
    };
    source.forEachCell(study.id, [&](StoredCell&& cell) {
        // A cell's series run moves with it: saved in the target with the cell, under the target's id.
        if (cell.runId) {
            const StoredRun run = source.loadRun(*cell.runId);
            cell.runToSave = std::make_shared<const StoredCell::RunToSave>(
                StoredCell::RunToSave{run.scenario, run.result, run.traces});
            cell.runId.reset();
        }
        chunk.push_back(std::move(cell));
        if (chunk.size() == kMergeChunk)
            saveChunk();
    });
    saveChunk();
    return merged;
}

// runs merge A B ... --into C: every study and its cells, and every run, of the inputs into C. Idempotent: a
// study is matched by its hash and a cell by its index, so a cell present in two inputs is kept once; a cell
// whose two copies differ (another hash or other metrics) is kept as first merged and reported. Runs are
// matched as the studio matches a re-run (same scenario, traces, policy, options and program version); a
// run saved by another program version is left out and reported, since its copy would carry this version.
int mergeDatabases(const CliArguments& args, CommandIo& io, const std::vector<std::string>& inputs) {
    const auto into = args.value("into");
    if (!into)
        throw UsageError("runs merge expects --into FILE (the database to merge into)");
    // By device and inode, before the target is opened: an input named through a link is the target too.
    refuseOutputOverInputs(*into, inputs);
    // With --scratch the merge is built in a node-local copy and published whole, and the inputs (shards
    // published the same way, never written again) are read without locks: nothing SQLite does touches the
    // shared folder (ScratchDatabase.h).
    const auto scratchFolder = args.value("scratch");
    std::optional<ScratchDatabase> scratch;
    if (scratchFolder)
        scratch.emplace(*into, *scratchFolder);
    ResultsStore target(scratch ? scratch->workingPath() : *into);
    // Runs already in the target are matched, not copied (SaveOptions::reuseIdentical): the report counts
    // what was added, so that it says what the target now holds (issue 40: it printed 188 and stored 187).
    const std::size_t runsBefore = target.listRuns().size();
    std::size_t conflicts = 0;
    std::size_t cells = 0;
    std::size_t runs = 0;
    std::size_t otherVersion = 0;
    std::vector<StudyId> merged; // the target's studies this merge added cells to
    for (const std::string& input : inputs) {
        const ResultsStore source(
            input,
            ResultsStore::OpenOptions{ResultsStore::OpenMode::MustExist, ResultsStore::OpenCheck::Quick,
                                      scratch ? ResultsStore::Access::ReadOnly
                                              : ResultsStore::Access::ReadOnlyWhenUnwritable});
        for (const StoredStudy& study : source.listStudies()) {
            const StudyId id = target.registerStudy(study);
            if (std::find(merged.begin(), merged.end(), id) == merged.end())
                merged.push_back(id);
            const CellsMerged added = mergeStudyCells(source, target, study, id, input, io);
            cells += added.cells;
            conflicts += added.conflicts;
        }
        for (const RunSummary& summary : source.listRuns()) {
            const StoredRun run = source.loadRun(summary.id);
            if (run.programVersion != CARBON3D_VERSION) {
                ++otherVersion;
                continue;
            }
            SaveOptions options;
            options.name = run.summary.name;
            options.reuseIdentical = true;
            target.saveRun(run.scenario, run.result, run.traces, options);
            ++runs;
        }
    }
    const std::size_t added = target.listRuns().size() - runsBefore;
    if (scratch)
        scratch->publish(target);
    io.out << "merged " << inputs.size() << " database(s) into " << *into << ": " << cells << " study cells, "
           << added << " runs added";
    if (runs > added)
        io.out << " (" << runs - added << " already there)";
    if (otherVersion > 0)
        io.out << "; " << otherVersion << " run(s) of another program version left out";
    io.out << '\n';
    if (conflicts > 0) {
        io.err << conflicts << " cell(s) had two different results; the first merged was kept\n";
        return 1;
    }
    return reportIncompleteStudies(target, merged, *into, scratchFolder, args.has("allow-partial"), io);
}

// runs list: the saved runs that pass --policy, --scenario, --region and --limit.
// The filters `list` and `export` share: --policy, --scenario, --region.
RunFilter runFilter(const CliArguments& args) {
    RunFilter filter;
    filter.policy = args.value("policy").value_or("");
    filter.scenarioName = args.value("scenario").value_or("");
    filter.regionId = args.value("region").value_or("");
    return filter;
}

int listSavedRuns(const CliArguments& args, CommandIo& io, const std::string& path) {
    expectOperands(args.positionals(), 0, "runs", "no further arguments (filters are options)");
    RunFilter filter = runFilter(args);
    filter.limit = static_cast<std::size_t>(args.intValue("limit", 1, 100000000).value_or(0));
    const std::vector<RunSummary> runs = openExistingStore(path, false)->listRuns(filter);
    if (args.has("json")) {
        JsonValue array = JsonValue::makeArray();
        for (const RunSummary& r : runs)
            array.append(summaryJson(r));
        JsonValue o = JsonValue::makeObject();
        o.insert("runs", std::move(array));
        io.out << o.dump(2) << '\n';
    } else {
        printList(io.out, runs);
    }
    return 0;
}

int showSavedRun(const CliArguments& args, CommandIo& io, const std::string& path) {
    const std::vector<std::string>& p = args.positionals();
    expectOperands(p, 1, "runs", "one run id");
    const StoredRun run = openExistingStore(path, false)->loadRun(parseRunId(p[1]));
    if (args.has("json"))
        io.out << runJson(run).dump(2) << '\n';
    else
        printRun(io.out, run);
    return 0;
}

// runs compare ID... [--baseline ID]: each run against the baseline (else the first id).
int compareSavedRuns(const CliArguments& args, CommandIo& io, const std::string& path) {
    const std::vector<std::string>& p = args.positionals();
    if (p.size() < 2)
        throw UsageError("runs compare expects at least one run id");
    std::vector<RunId> ids;
    for (std::size_t i = 1; i < p.size(); ++i)
        ids.push_back(parseRunId(p[i]));
    std::optional<RunId> baseline;
    if (const auto text = args.value("baseline"))
        baseline = parseRunId(*text);
    if (ids.size() < 2 && !baseline)
        throw UsageError("runs compare needs two runs, or one run and --baseline ID");
    const std::vector<RunComparison> rows = openExistingStore(path, false)->compareRuns(ids, baseline);
    if (args.has("json"))
        io.out << comparisonJson(rows).dump(2) << '\n';
    else
        printComparison(io.out, rows);
    return 0;
}

// The runs `export` names, oldest first: ids, ranges A-B and `all` (every run), narrowed by the filters;
// with the filters alone, every run they match. An id asked for by itself must exist; a range takes the
// runs it holds.
std::vector<RunSummary> selectedRuns(const CliArguments& args, const ResultsStore& store) {
    const std::vector<std::string>& p = args.positionals();
    const RunFilter filter = runFilter(args);
    const bool filtered = !filter.policy.empty() || !filter.scenarioName.empty() || !filter.regionId.empty();
    if (p.size() < 2 && !filtered)
        throw UsageError("runs export expects run ids, ranges such as 3-10, 'all', or a filter (--policy, "
                         "--scenario, --region)");
    std::vector<RunSummary> runs = store.listRuns(filter);
    std::reverse(runs.begin(), runs.end()); // oldest first: the order they were saved in
    bool all = p.size() < 2;
    std::vector<std::pair<RunId, RunId>> ranges;
    for (std::size_t i = 1; i < p.size(); ++i) {
        const std::size_t dash = p[i].find('-');
        if (p[i] == "all") {
            all = true;
        } else if (dash != std::string::npos && dash > 0) {
            const RunId from = parseRunId(p[i].substr(0, dash));
            const RunId to = parseRunId(p[i].substr(dash + 1));
            if (to < from)
                throw UsageError("expected a range from a lower to a higher id, found '" + p[i] + "'");
            ranges.emplace_back(from, to);
        } else {
            const RunId id = parseRunId(p[i]);
            if (std::none_of(runs.begin(), runs.end(), [id](const RunSummary& run) { return run.id == id; }))
                throw UsageError("no saved run " + std::to_string(id) +
                                 (filtered ? " matches the filters" : "") + " (see 'runs list')");
            ranges.emplace_back(id, id);
        }
    }
    if (!all)
        std::erase_if(runs, [&ranges](const RunSummary& run) {
            return std::none_of(ranges.begin(), ranges.end(), [&run](const auto& range) {
                return run.id >= range.first && run.id <= range.second;
            });
        });
    if (runs.empty())
        throw UsageError("no saved run matches the selection (see 'runs list')");
    return runs;
}

// runs export SELECTION... --table FILE.csv | --csv DIR [--units si|analyst]: the selected runs as one tidy
// table (a row per run, analysts' units), and/or each run's series and metrics as two CSV files; the paths
// written are printed.
int exportSavedRuns(const CliArguments& args, CommandIo& io, const std::string& path) {
    const auto table = args.value("table");
    const auto dir = args.value("csv");
    if (!table && !dir)
        throw UsageError("runs export expects --table FILE.csv (one row per run) or --csv DIR (each run's "
                         "series and metrics)");
    const std::string unitsText = args.value("units").value_or("si");
    if (unitsText != "si" && unitsText != "analyst")
        throw UsageError("--units expects si or analyst, found '" + unitsText + "'");
    const SeriesUnits units = unitsText == "analyst" ? SeriesUnits::Analyst : SeriesUnits::Si;
    const auto store = openExistingStore(path, false);
    const std::vector<RunSummary> runs = selectedRuns(args, *store);
    if (dir)
        ensureOutputDirectory(*dir); // before any file, so that a bad folder costs nothing
    std::vector<std::string> written;
    if (table) {
        std::ostringstream text;
        writeRunTableCsv(text, runs);
        writeFileAtomically(*table, text.str(), "cannot write");
        written.push_back(*table);
    }
    for (std::size_t i = 0; dir && i < runs.size(); ++i) {
        const ExportedRunFiles files = store->exportRunCsv(runs[i].id, *dir, units);
        written.push_back(files.seriesCsv);
        written.push_back(files.metricsCsv);
    }
    if (args.has("json")) {
        JsonValue files = JsonValue::makeArray();
        for (const std::string& file : written)
            files.append(JsonValue::makeString(file));
        JsonValue o = JsonValue::makeObject();
        o.insert("runs", JsonValue::makeNumber(static_cast<double>(runs.size())));
        o.insert("files", std::move(files));
        io.out << o.dump(2) << '\n';
    } else {
        for (const std::string& file : written)
            io.out << file << '\n';
    }
    return 0;
}

int deleteSavedRun(const CliArguments& args, CommandIo& io, const std::string& path) {
    const std::vector<std::string>& p = args.positionals();
    expectOperands(p, 1, "runs", "one run id");
    const RunId id = parseRunId(p[1]);
    openExistingStore(path, true)->deleteRun(id);
    io.out << "deleted run " << id << '\n';
    return 0;
}

int renameSavedRun(const CliArguments& args, CommandIo& io, const std::string& path) {
    const std::vector<std::string>& p = args.positionals();
    expectOperands(p, 2, "runs", "a run id and a name");
    const RunId id = parseRunId(p[1]);
    openExistingStore(path, true)->renameRun(id, p[2]);
    io.out << "run " << id << " is now named '" << printable(p[2]) << "'\n";
    return 0;
}

int runRuns(const CliArguments& args, CommandIo& io) {
    const std::vector<std::string>& p = args.positionals();
    if (p.empty())
        throw UsageError("expected an action: list, show, compare, export, delete, rename or merge");
    const std::string& action = p[0];
    if (action == "merge") {
        if (p.size() < 2)
            throw UsageError("runs merge expects one or more databases and --into FILE");
        return mergeDatabases(args, io, std::vector<std::string>(p.begin() + 1, p.end()));
    }
    const std::string path = args.value("db").value_or(app::defaultDatabasePath());
    if (action == "list")
        return listSavedRuns(args, io, path);
    if (action == "show")
        return showSavedRun(args, io, path);
    if (action == "compare")
        return compareSavedRuns(args, io, path);
    if (action == "export")
        return exportSavedRuns(args, io, path);
    if (action == "delete")
        return deleteSavedRun(args, io, path);
    if (action == "rename")
        return renameSavedRun(args, io, path);
    throw UsageError("unknown action '" + action +
                     "': expected list, show, compare, export, delete, rename or merge");
}

} // namespace

Command makeRunsCommand() {
    Command command;
    command.name = "runs";
    command.summary = "list, show, compare, export, rename and delete saved runs";
    command.usage = "runs list|show ID|compare ID ID... [--baseline ID]|export ID|A-B|all... [--table "
                    "FILE.csv] [--csv DIR] "
                    "[--units si|analyst]|delete ID|rename ID NAME|"
                    "merge A.sqlite B.sqlite... --into C.sqlite "
                    "[--db FILE] [--json]";
    command.details =
        "Runs are saved by 'simulate --db FILE' (and by the GUI) into a SQLite results database; without "
        "--db "
        "the default database in the user's data directory is used. compare reports each run against the "
        "baseline (--baseline, else the first id): saved kgCO2e (positive = less than the baseline), saved "
        "%, "
        "extra kWh and extra hours. export takes run ids, ranges (3-10) and 'all', narrowed by --policy, "
        "--scenario and --region (or those filters alone): --table FILE.csv writes them as one tidy table, a "
        "row per run with its id, scenario, policy, region and start and every metric in kg, kWh, hours and "
        "USD (for pandas or R: docs/DATABASE.md); --csv DIR writes DIR/run-ID-series.csv (the columns of "
        "simulate --series-out; --units analyst for kg, kWh and kW) and DIR/run-ID-metrics.csv for each. A "
        "file that is not a Carbon3D results database is refused and left "
        "untouched. The database is plain SQLite: see docs/DATABASE.md for its tables and views.";
    command.flags = {
        {"db", true, false, "FILE", "results database (default: " + app::defaultDatabasePath() + ")"},
        {"json", false, false, "", "machine-readable output"},
        {"into", true, false, "FILE", "merge: the database the others are merged into (created if missing)"},
        {"allow-partial", false, false, "",
         "merge: exit 0 when a merged study still lacks cells (it is named, with what runs the rest)"},
        {"baseline", true, false, "ID", "compare: the run to compare against (default: the first id)"},
        {"csv", true, false, "DIR", "export: directory for the CSV files (created if missing)"},
        {"table", true, false, "FILE.csv", "export: one tidy CSV, a row per run, in kg, kWh, hours and USD"},
        {"units", true, false, "si|analyst", "export --csv: the series in SI (default) or in kg, kWh and kW"},
        {"policy", true, false, "NAME", "list, export: only runs of this policy"},
        {"scenario", true, false, "NAME", "list, export: only runs of this scenario name"},
        {"region", true, false, "ID", "list, export: only runs whose first region is this one"},
        {"limit", true, false, "N", "list: at most N runs, newest first"},
        {"scratch", true, false, "DIR",
         "merge: build the merge in DIR (node-local) and publish it whole; the inputs are read without "
         "locks"},
    };
    command.run = runRuns;
    return command;
}

} // namespace carbon3d::cli
