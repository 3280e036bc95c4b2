// SPDX-License-Identifier: MIT
#include "plots/FigureRendering.h"

#include "plots/ConfigurationsPlot.h"
#include "plots/FigureData.h"
#include "plots/StudyPlot.h"
#include "plots/TimelinePlot.h"
#include "plots/TradeoffPlot.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace carbon3d::ui {

namespace {

// The renderers: each builds one widget from the request's inputs of its FigureSource.

std::unique_ptr<TimelinePlot> timeline(const FigureRequest& request, const PlotTheme& theme) {
    auto plot = std::make_unique<TimelinePlot>();
    plot->setTheme(theme);
    plot->setData(request.trace, request.from, request.to, request.runs, request.deadline);
    return plot;
}

std::unique_ptr<QCustomPlot> allPanels(const FigureRequest& request, const PlotTheme& theme) {
    return timeline(request, theme);
}

template <TimelinePlot::Panel panel>
std::unique_ptr<QCustomPlot> onePanel(const FigureRequest& request, const PlotTheme& theme) {
    auto plot = timeline(request, theme);
    plot->showOnlyPanel(panel);
    return plot;
}

template <TradeoffPlot::Across across>
std::unique_ptr<QCustomPlot> tradeoff(const FigureRequest& request, const PlotTheme& theme) {
    auto plot = std::make_unique<TradeoffPlot>(nullptr, across);
    plot->setTheme(theme);
    plot->setRuns(request.summaries);
    return plot;
}

std::unique_ptr<QCustomPlot> configurations(const FigureRequest& request, const PlotTheme& theme) {
    auto plot = std::make_unique<ConfigurationsPlot>();
    plot->setTheme(theme);
    plot->setLandscape(request.landscape);
    return plot;
}

template <StudyPlot::Kind kind>
std::unique_ptr<QCustomPlot> study(const FigureRequest& request, const PlotTheme& theme) {
    auto plot = std::make_unique<StudyPlot>();
    plot->setTheme(theme);
    plot->setFigure(kind, request.study);
    return plot;
}

StudyFigureData heatmapData(const StudyRowSource& rows, const std::string& policy) {
    return studySavingsHeatmap(rows, policy);
}
StudyFigureData cdfData(const StudyRowSource& rows, const std::string& /*policy*/) {
    return studySavingsCdf(rows);
}
StudyFigureData slackData(const StudyRowSource& rows, const std::string& /*policy*/) {
    return studySavingsBySlack(rows);
}
StudyFigureData forecastErrorData(const StudyRowSource& rows, const std::string& /*policy*/) {
    return studySavingsByForecastError(rows);
}
StudyFigureData splitData(const StudyRowSource& rows, const std::string& /*policy*/) {
    return studySavingSplit(rows);
}

} // namespace

const std::vector<FigureKindInfo>& figureKinds() {
    static const std::vector<FigureKindInfo> kinds{
        {FigureKind::Timeline, "timeline", "Timeline",
         "carbon intensity, active GPUs, power and cumulative emissions of runs on one time axis",
         FigureSource::Runs, allPanels, nullptr},
        {FigureKind::Emissions, "emissions", "Cumulative emissions", "cumulative emissions of runs over time",
         FigureSource::Runs, onePanel<TimelinePlot::EmissionsPanel>, nullptr},
        {FigureKind::Power, "power", "Facility power", "facility power of runs over time", FigureSource::Runs,
         onePanel<TimelinePlot::PowerPanel>, nullptr},
        {FigureKind::Compare, "compare", "Emissions vs completion",
         "emissions against completion time, a point per run", FigureSource::RunSummaries,
         tradeoff<TradeoffPlot::Across::Completion>, nullptr},
        {FigureKind::Cost, "cost", "Emissions vs cost", "emissions against cost (USD), a point per run",
         FigureSource::RunSummaries, tradeoff<TradeoffPlot::Across::Cost>, nullptr},
        {FigureKind::Configurations, "configurations", "Configurations",
         "every feasible configuration of a scenario's job, power against throughput, with the menu",
         FigureSource::Landscape, configurations, nullptr},
        {FigureKind::StudyHeatmap, "study-heatmap", "Savings by start and region",
         "a stored study: one policy's savings by start and region", FigureSource::StudyFigure,
         study<StudyPlot::Kind::Heatmap>, heatmapData},
        {FigureKind::StudyCdf, "study-cdf", "Savings CDF", "a stored study: the CDF of savings per policy",
         FigureSource::StudyFigure, study<StudyPlot::Kind::Cdf>, cdfData},
        {FigureKind::StudySlack, "study-slack", "Savings vs slack",
         "a stored study: savings against slack, the oracle as bound", FigureSource::StudyFigure,
         study<StudyPlot::Kind::Slack>, slackData},
        {FigureKind::StudyForecastError, "study-forecast-error", "Savings vs forecast error",
         "a stored study: savings against forecast error, with the band over seeds",
         FigureSource::StudyFigure, study<StudyPlot::Kind::ForecastError>, forecastErrorData},
        {FigureKind::StudySplit, "study-split", "Where savings come from",
         "a stored study run with split_savings: each policy's mean saving from a more efficient "
         "configuration, from timing and beyond both, with parked GPUs charged and released",
         FigureSource::StudyFigure, study<StudyPlot::Kind::Split>, splitData},
    };
    return kinds;
}

const FigureKindInfo& figureKindInfo(FigureKind kind) {
    for (const FigureKindInfo& info : figureKinds()) {
        if (info.kind == kind)
            return info;
    }
    throw std::logic_error("figure kind missing from figureKinds()");
}

std::optional<FigureKind> parseFigureKind(const QString& text) {
    for (const FigureKindInfo& info : figureKinds()) {
        if (text == QLatin1String(info.id))
            return info.kind;
    }
    return std::nullopt;
}

std::vector<std::string> figureKindIdList() {
    std::vector<std::string> ids;
    ids.reserve(figureKinds().size());
    for (const FigureKindInfo& info : figureKinds())
        ids.emplace_back(info.id);
    return ids;
}

bool isStudyFigure(FigureKind kind) {
    return figureKindInfo(kind).source == FigureSource::StudyFigure;
}

bool isTradeoffFigure(FigureKind kind) {
    return figureKindInfo(kind).source == FigureSource::RunSummaries;
}

std::unique_ptr<QCustomPlot> buildFigure(const FigureRequest& request) {
    const PlotTheme theme = themeByName(request.theme);
    std::unique_ptr<QCustomPlot> plot = figureKindInfo(request.kind).build(request, theme);
    // A figure for a slide names what it shows: the scenario as a title row above the plot.
    if (theme.titled && !request.metadata.scenarioName.isEmpty()) {
        plot->plotLayout()->insertRow(0);
        auto* title = new QCPTextElement(plot.get(), request.metadata.scenarioName);
        QFont font = title->font();
        font.setPointSize(theme.basePointSize + 3);
        font.setBold(true);
        title->setFont(font);
        plot->plotLayout()->addElement(0, 0, title);
    }
    // Laid out at the size the exporter paints at, so what is written is this layout.
    plot->resize(request.size.layoutSize());
    plot->replot(QCustomPlot::rpImmediateRefresh);
    return plot;
}

QString renderFigure(const FigureRequest& request, const QString& path, const QString& dataPath) {
    const std::unique_ptr<QCustomPlot> plot = buildFigure(request);
    return exportFigureAndData(*plot, path, request.size, request.metadata, dataPath);
}

} // namespace carbon3d::ui
