// SPDX-License-Identifier: MIT
#include "cli/PlotCommand.h"

#include "config/ScenarioHash.h"
#include "config/ScenarioJson.h"
#include "domain/FileIdentity.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "perf/ConfigurationLandscape.h"
#include "plots/FigurePresets.h"
#include "plots/FigureRendering.h"
#include "plots/PlotTheme.h"
#include "runner/ScenarioRunner.h"
#include "storage/ResultsStore.h"
#include "study/StudyFigures.h"
#include "study/StudyStoreReading.h"
#include "support/DataDirectory.h"
#include "traces/TraceLoader.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <filesystem>
#include <ostream>

namespace carbon3d::cli {

namespace {

// "7" or "3,4,5": run ids; anything else is a scenario file.
std::optional<std::vector<RunId>> parseRunIds(const std::string& text) {
    std::vector<RunId> ids;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::optional<std::int64_t> id =
            parseInteger(std::string_view(text).substr(start, comma - start));
        if (!id || *id <= 0)
            return std::nullopt;
        ids.push_back(*id);
        start = comma + 1;
    }
    return ids;
}

// The stored trace when its file is still there and unchanged; otherwise none (each run's own CI is drawn).
CarbonTrace reloadTrace(const std::vector<StoredTrace>& traces) {
    if (traces.empty() || traces.front().sourceFile.empty() ||
        !QFileInfo::exists(QString::fromStdString(traces.front().sourceFile)))
        return {};
    try {
        CarbonTrace trace = loadCarbonTrace(traces.front().sourceFile);
        if (trace.provenance.contentSha256 == traces.front().contentSha256)
            return trace;
    } catch (const InputError&) {
    }
    return {};
}

void fillFromStore(ui::FigureRequest& request, const std::string& dbPath, const std::vector<RunId>& ids) {
    const ResultsStore store(dbPath, {ResultsStore::OpenMode::MustExist, ResultsStore::OpenCheck::HeaderOnly,
                                      ResultsStore::Access::ReadOnlyWhenUnwritable});
    if (ui::isTradeoffFigure(request.kind)) {
        for (const RunSummary& run : store.listRuns()) {
            if (ids.empty() || std::find(ids.begin(), ids.end(), run.id) != ids.end())
                request.summaries.push_back(run);
        }
        return;
    }
    for (const RunId id : ids) {
        StoredRun run = store.loadRun(id);
        if (request.runs.empty()) {
            request.trace = reloadTrace(run.traces);
            request.from = run.summary.startUtc;
            request.metadata.scenarioName = QString::fromStdString(run.scenario.name);
        }
        request.to = std::max(request.to, run.summary.deadlineUtc);
        request.deadline = std::max(request.deadline, run.summary.deadlineUtc);
        request.metadata.runIds << QString::number(id);
        request.runs.push_back(
            {QStringLiteral("#%1 %2").arg(id).arg(QString::fromStdString(run.result.policy)),
             std::move(run.result)});
    }
}

void fillFromScenario(ui::FigureRequest& request, const std::string& scenarioPath, const std::string& dbPath,
                      std::ostream& out) {
    const Scenario scenario = loadScenario(scenarioPath);
    request.metadata.scenarioName = QString::fromStdString(scenario.name);
    if (ui::figureKindInfo(request.kind).source == ui::FigureSource::Landscape) {
        request.landscape =
            configurationLandscape(scenario.job, scenario.cluster, scenario.gpus, scenario.modelling);
        request.memoryCapacityBytes = scenario.cluster.accelerator.memoryBytes;
        return;
    }
    const PreparedScenario prepared = prepareScenario(scenario);
    std::vector<RunResult> runs = runAllPolicies(prepared, scenario.policies);
    std::unique_ptr<ResultsStore> store;
    if (!dbPath.empty())
        store = std::make_unique<ResultsStore>(dbPath);
    for (RunResult& run : runs) {
        if (store) {
            SaveOptions options;
            options.name = runName(scenario.name, run); // named as simulate --db and the studio name it
            const RunId id = store->saveRun({scenario.name, canonicalJson(scenario), scenarioHash(scenario)},
                                            run, storedTracesOf(scenario), options);
            request.metadata.runIds << QString::number(id);
            out << "saved run " << id << " (" << run.policy << ") to " << dbPath << '\n';
        }
        if (ui::isTradeoffFigure(request.kind)) {
            RunSummary summary;
            summary.id = request.metadata.runIds.isEmpty() ? 0 : request.metadata.runIds.back().toLongLong();
            summary.policy = run.policy;
            summary.regionId = scenario.regions.front().regionId;
            summary.metrics = run.metrics;
            request.summaries.push_back(summary);
        }
        request.runs.push_back({QString::fromStdString(run.policy), std::move(run)});
    }
    request.trace = scenario.regions.front().trace;
    request.from = scenario.startUtc;
    request.deadline = prepared.input.deadlineUtc;
    request.to = request.deadline + (request.deadline - request.from) / 20;
}

// A study figure: the study's rows streamed from the database (savings against --baseline), narrowed by each
// --filter KEY=VALUE, into the figure's data (core/study/StudyFigures.h): memory follows what is drawn.
void fillFromStudy(ui::FigureRequest& request, const CliArguments& args, const std::string& dbPath,
                   const std::string& idText) {
    const std::optional<std::int64_t> parsedId = parseInteger(idText);
    if (!parsedId || *parsedId <= 0)
        throw UsageError("study figures take a study id (see 'study list'), found '" + idText + "'");
    const StudyId id = *parsedId;
    const ResultsStore store(dbPath, {ResultsStore::OpenMode::MustExist, ResultsStore::OpenCheck::HeaderOnly,
                                      ResultsStore::Access::ReadOnlyWhenUnwritable});
    const StoredStudy study = store.loadStudy(id);
    const std::string baseline = args.value("baseline").value_or(defaultBaselinePolicy().name);
    // Each filter as (column, value), checked before the cells are read.
    std::vector<std::pair<std::size_t, std::string>> filters;
    for (const std::string& filter : args.values("filter")) {
        const std::size_t equals = filter.find('=');
        if (equals == std::string::npos)
            throw UsageError("--filter expects KEY=VALUE (an axis column and one of its values), found '" +
                             filter + "'");
        const std::string key = filter.substr(0, equals);
        const auto column = std::find(study.columns.begin(), study.columns.end(), key);
        if (column == study.columns.end())
            throw InputError("study", 0, 0, "no axis '" + key + "' to filter on");
        filters.emplace_back(static_cast<std::size_t>(column - study.columns.begin()),
                             filter.substr(equals + 1));
    }
    const StoredStudyRows stored(store, study, baseline);
    const KeptRows rows(stored, [&filters](const StudyRow& row) {
        return std::all_of(filters.begin(), filters.end(),
                           [&row](const auto& filter) { return row.values[filter.first] == filter.second; });
    });
    request.study = ui::figureKindInfo(request.kind)
                        .makeStudyData(rows, args.value("policy").value_or(focusedPolicy().name));
    request.metadata.scenarioName = QString::fromStdString(study.name);
}

std::vector<std::string> kindIdsDrawnFrom(ui::FigureSource source) {
    std::vector<std::string> ids;
    for (const ui::FigureKindInfo& info : ui::figureKinds()) {
        if (info.source == source)
            ids.emplace_back(info.id);
    }
    return ids;
}

// One line a kind: its id, then what it draws.
std::string kindTable() {
    std::string table;
    for (const ui::FigureKindInfo& info : ui::figureKinds()) {
        std::string id = std::string("  ") + info.id;
        id.append(id.size() < 24 ? 24 - id.size() : 1, ' ');
        table += id + info.description + '\n';
    }
    table.pop_back();
    return table;
}

std::string plotDetails() {
    return "RUN_ID plots stored runs from the results database (--db, default: the user's data directory);\n"
           "several ids separated by commas are overlaid, and 'all' takes every stored run (" +
           spokenList(kindIdsDrawnFrom(ui::FigureSource::RunSummaries), "and") +
           ").\nSCENARIO runs the scenario's policies first (and saves them when --db is given); " +
           spokenList(kindIdsDrawnFrom(ui::FigureSource::Landscape), "and") +
           " needs a SCENARIO\n(the job and cluster to search). STUDY_ID with a study-* kind draws a stored "
           "study "
           "(docs/STUDIES.md).\nHeadless: no display is needed.\n\nKinds:\n" +
           kindTable();
}

// "slide, paper-column, ... or screen", for a message.
std::string presetIds() {
    std::vector<std::string> ids;
    for (const ui::FigurePreset& preset : ui::figurePresets())
        ids.emplace_back(preset.id);
    return spokenList(ids, "or");
}

// Each preset with its size, for the help.
std::string presetList() {
    std::vector<std::string> presets;
    for (const ui::FigurePreset& preset : ui::figurePresets())
        presets.push_back(std::string(preset.id) + " (" + preset.label + ")");
    return joinedText(presets, ", ");
}

std::vector<FlagSpec> plotFlags() {
    return {
        {"kind", true, false, "KIND", joinedText(ui::figureKindIdList(), " | ")},
        {"policy", true, false, "POLICY",
         "study-heatmap: whose savings (default: " + focusedPolicy().name + ")"},
        {"baseline", true, false, "POLICY",
         "study figures: savings against this policy (default static-max)"},
        {"filter", true, true, "KEY=VALUE",
         "study figures: keep the cells with this axis value (repeatable)"},
        {"out", true, false, "FILE", "output file; the extension picks PNG, SVG or PDF"},
        {"data", true, false, "FILE.csv",
         "also write the plotted numbers as one tidy CSV table (units in the header, the figure's metadata "
         "as # lines)"},
        {"db", true, false, "FILE", "results database"},
        {"preset", true, false, "NAME",
         presetList() + ": the size, dpi and theme of the Export dialog's presets; --theme, --width, "
                        "--height and --dpi change one of them (default: screen)"},
        {"theme", true, false, "NAME",
         "screen, presentation (large fonts, thick lines) or paper (7 pt text, thin lines)"},
        {"width", true, false, "PX", "figure width in pixels"},
        {"height", true, false, "PX", "figure height in pixels"},
        {"dpi", true, false, "N",
         "dots per inch: the printed size is pixels / N inches, and text keeps its size in points"},
    };
}

// The figure's kind, theme, size and title from the flags (--kind and --out required, --out's extension
// checked); what it draws is filled in by fillFigureData.
ui::FigureRequest figureRequestFromFlags(const CliArguments& args) {
    const auto kindText = args.value("kind");
    const auto out = args.value("out");
    if (!kindText || !out)
        throw UsageError("--kind and --out are required");
    const auto kind = ui::parseFigureKind(QString::fromStdString(*kindText));
    if (!kind)
        throw UsageError("--kind must be " + spokenList(ui::figureKindIdList(), "or") + ", got '" +
                         *kindText + "'");
    ui::FigureFormat format = ui::FigureFormat::Png;
    if (!ui::figureFormatFromPath(QString::fromStdString(*out), &format))
        throw UsageError("--out must end in .png, .svg or .pdf, got '" + *out + "'");
    const std::string presetId = args.value("preset").value_or("screen");
    const ui::FigurePreset* preset = ui::findFigurePreset(QString::fromStdString(presetId));
    if (preset == nullptr)
        throw UsageError("--preset must be " + presetIds() + ", got '" + presetId + "'");
    const std::string theme = args.value("theme").value_or(preset->theme);
    if (!ui::themeNames().contains(QString::fromStdString(theme)))
        throw UsageError("--theme must be screen, presentation or paper, got '" + theme + "'");

    ui::FigureRequest request;
    request.kind = *kind;
    request.theme = QString::fromStdString(theme);
    const ui::FigureSize presetSize = preset->size();
    request.size.widthPx = args.intValue("width", 200, 8000).value_or(presetSize.widthPx);
    request.size.heightPx = args.intValue("height", 200, 8000).value_or(presetSize.heightPx);
    request.size.dpi = args.intValue("dpi", 36, 1200).value_or(presetSize.dpi);
    request.metadata.title = QString::fromUtf8(ui::figureKindInfo(*kind).title);
    return request;
}

// What the positional names: a study id (study-* kinds), run ids or 'all' (stored runs), else a scenario
// file.
void fillFigureData(ui::FigureRequest& request, const CliArguments& args, std::ostream& out) {
    const std::string kindText = *args.value("kind");
    const std::string target = args.positionals().front();
    const std::string dbPath = args.value("db").value_or(std::string());
    const auto ids =
        target == "all" ? std::optional<std::vector<RunId>>(std::vector<RunId>{}) : parseRunIds(target);
    if (ui::isStudyFigure(request.kind)) {
        fillFromStudy(request, args, dbPath.empty() ? app::defaultDatabasePath() : dbPath, target);
    } else if (ids) {
        if (ui::figureKindInfo(request.kind).source == ui::FigureSource::Landscape)
            throw UsageError("--kind " + kindText + " needs a SCENARIO file, not run ids");
        if (ids->empty() && !ui::isTradeoffFigure(request.kind))
            throw UsageError("'all' works with --kind " +
                             spokenList(kindIdsDrawnFrom(ui::FigureSource::RunSummaries), "or") + " only");
        fillFromStore(request, dbPath.empty() ? app::defaultDatabasePath() : dbPath, *ids);
    } else {
        fillFromScenario(request, target, dbPath, out);
    }
}

int runPlot(const CliArguments& args, CommandIo& io) {
    if (args.positionals().size() != 1)
        throw UsageError("expected one RUN_ID list or SCENARIO");
    ui::FigureRequest request = figureRequestFromFlags(args);
    const std::string out = *args.value("out");
    // The figure never replaces what it is drawn from: the database, or a scenario file given as input.
    const std::vector<std::string> inputs{args.value("db").value_or(app::defaultDatabasePath()),
                                          args.positionals().front()};
    refuseOutputOverInputs(out, inputs);
    const std::string data = args.value("data").value_or(std::string());
    if (!data.empty()) {
        // However the two are spelled (./f.png, dir/../f.png): the figure may not exist yet to compare by
        // inode. Made absolute first: weakly_canonical leaves a relative path to a missing file relative.
        const auto resolved = [](const std::string& path) {
            std::error_code ignored;
            return std::filesystem::weakly_canonical(std::filesystem::absolute(path, ignored), ignored);
        };
        if (resolved(data) == resolved(out))
            throw UsageError("--data must name another file than --out");
        refuseOutputOverInputs(data, inputs);
    }
    fillFigureData(request, args, io.out);
    const QString problem =
        ui::renderFigure(request, QString::fromStdString(out), QString::fromStdString(data));
    if (!problem.isEmpty()) {
        io.err << problem.toStdString() << '\n';
        return 1;
    }
    io.out << "wrote " << out << '\n';
    if (!data.empty())
        io.out << "wrote " << data << " (the plotted numbers)\n";
    return 0;
}

} // namespace

Command makePlotCommand() {
    Command command;
    command.name = "plot";
    command.summary = "render a figure of stored runs, a scenario or a study to PNG, SVG or PDF";
    command.usage = "plot RUN_ID[,RUN_ID...]|SCENARIO|STUDY_ID --kind KIND --out FILE.png|svg|pdf "
                    "[--data FILE.csv] [--db FILE] [--preset NAME] [--theme screen|presentation|paper] "
                    "[--width PX] [--height PX] [--dpi N]";
    command.details = plotDetails();
    command.flags = plotFlags();
    command.run = runPlot;
    return command;
}

} // namespace carbon3d::cli
