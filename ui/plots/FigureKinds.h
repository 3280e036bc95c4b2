// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCustomPlot;

// The figure kinds, one table (defined in FigureRendering.cpp beside their renderers).
namespace carbon3d {
struct StudyFigureData;
class StudyRowSource;
} // namespace carbon3d

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
    StudyForecastError,
    StudySplit
};

// What a figure is drawn from: which members of FigureRequest its caller fills in.
enum class FigureSource {
    Runs,         // runs, trace, from, to, deadline: one or several runs over time
    RunSummaries, // summaries: a point per run
    Landscape,    // landscape, memoryCapacityBytes: the configuration search of a scenario's job
    StudyFigure,  // study: a stored study's rows, turned into the figure's data by makeStudyData
};

struct FigureRequest;
struct PlotTheme;

// One entry per figure kind: the single place its name, help, inputs and renderer are spelled. The CLI's
// `plot --kind`, its help and messages, renderFigure and the studio's exports (file name and title) read
// this table; a new figure kind is one entry (ui/plots/FigureRendering.cpp).
struct FigureKindInfo {
    FigureKind kind;
    const char* id;          // as --kind spells it: "timeline", "study-heatmap", ...
    const char* title;       // what the figure shows, for its file's metadata: "Emissions vs completion"
    const char* description; // one line for the help
    FigureSource source;
    // Builds the plot widget from the request, themed; the caller lays it out and exports it.
    std::unique_ptr<QCustomPlot> (*build)(const FigureRequest& request, const PlotTheme& theme);
    // Study figures only: the figure's data from a study's table (savings of `policy` where the figure is
    // about one policy).
    StudyFigureData (*makeStudyData)(const StudyRowSource& rows, const std::string& policy);
};

const std::vector<FigureKindInfo>& figureKinds();
const FigureKindInfo& figureKindInfo(FigureKind kind);
std::optional<FigureKind> parseFigureKind(const QString& text); // by FigureKindInfo::id
std::vector<std::string> figureKindIdList();                    // every id, in the table's order
bool isStudyFigure(FigureKind kind);
// Compare and cost: a point per run (FigureRequest::summaries), emissions against completion or cost.
bool isTradeoffFigure(FigureKind kind);

} // namespace carbon3d::ui
