// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/RunResult.h"
#include "perf/ConfigurationLandscape.h"
#include "plots/FigureExporter.h"
#include "plots/PlottedRun.h"
#include "storage/StoredRun.h"
#include "study/StudyFigures.h"

#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCustomPlot;

// Builds a figure offscreen and writes it, without the caller touching QCustomPlot: shared by the
// studio's exports and `carbon3d-cli plot` (which keeps the strict Qt keyword rules of the CLI code).
namespace carbon3d::ui {

enum class FigureKind {
    Timeline,
    Emissions,
    Power,
    Compare,
    Cost,
    Configurations,
    StudyHeatmap,
    StudyCdf,
    StudySlack,
    StudyForecastError
};

// What a figure is drawn from: which members of FigureRequest its caller fills in.
enum class FigureSource {
    Runs,         // runs, trace, from, to, deadline: one or several runs over time
    RunSummaries, // summaries: a point per run
    Landscape,    // landscape, memoryCapacityBytes: the configuration search of a scenario's job
    StudyFigure,  // study: a stored study's table, turned into the figure's data by makeStudyData
};

struct FigureRequest;
struct PlotTheme;

// One entry per figure kind: the single place its name, help, inputs and renderer are spelled. The CLI's
// `plot --kind`, its help and messages, and renderFigure read this table; a new figure kind is one entry.
struct FigureKindInfo {
    FigureKind kind;
    const char* id;          // as --kind spells it: "timeline", "study-heatmap", ...
    const char* description; // one line for the help
    FigureSource source;
    // Builds the plot widget from the request, themed; the caller lays it out and exports it.
    std::unique_ptr<QCustomPlot> (*build)(const FigureRequest& request, const PlotTheme& theme);
    // Study figures only: the figure's data from a study's table (savings of `policy` where the figure is
    // about one policy).
    StudyFigureData (*makeStudyData)(const StudyTable& table, const std::string& policy);
};

const std::vector<FigureKindInfo>& figureKinds();
const FigureKindInfo& figureKindInfo(FigureKind kind);
std::optional<FigureKind> parseFigureKind(const QString& text); // by FigureKindInfo::id
std::vector<std::string> figureKindIdList();                    // every id, in the table's order
bool isStudyFigure(FigureKind kind);
// Compare and cost: a point per run (FigureRequest::summaries), emissions against completion or cost.
bool isTradeoffFigure(FigureKind kind);

struct FigureRequest {
    FigureKind kind = FigureKind::Timeline;
    // Timeline, emissions, power:
    std::vector<PlottedRun> runs;
    CarbonTrace trace; // empty: each run's own intensity is drawn
    UtcSeconds from = 0;
    UtcSeconds to = 0;
    UtcSeconds deadline = 0;
    // Compare, cost:
    std::vector<RunSummary> summaries;
    // Configurations:
    ConfigurationLandscape landscape;
    double memoryCapacityBytes = 0.0;
    // Study figures (core/study/StudyFigures.h):
    StudyFigureData study;
    // All:
    QString theme = QStringLiteral("screen"); // or "presentation"
    FigureSize size;
    FigureMetadata metadata;
};

// Renders and writes the figure; an empty string on success, otherwise the problem (naming the file).
// Needs a QApplication (widgets render offscreen with QT_QPA_PLATFORM=offscreen).
QString renderFigure(const FigureRequest& request, const QString& path);

} // namespace carbon3d::ui
