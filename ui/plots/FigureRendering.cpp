// SPDX-License-Identifier: MIT
#include "plots/FigureRendering.h"

#include "plots/ConfigurationsPlot.h"
#include "plots/StudyPlot.h"
#include "plots/TimelinePlot.h"
#include "plots/TradeoffPlot.h"

#include <memory>

namespace carbon3d::ui {

std::optional<FigureKind> parseFigureKind(const QString& text) {
    if (text == QLatin1String("timeline"))
        return FigureKind::Timeline;
    if (text == QLatin1String("emissions"))
        return FigureKind::Emissions;
    if (text == QLatin1String("power"))
        return FigureKind::Power;
    if (text == QLatin1String("compare"))
        return FigureKind::Compare;
    if (text == QLatin1String("cost"))
        return FigureKind::Cost;
    if (text == QLatin1String("configurations"))
        return FigureKind::Configurations;
    if (text == QLatin1String("study-heatmap"))
        return FigureKind::StudyHeatmap;
    if (text == QLatin1String("study-cdf"))
        return FigureKind::StudyCdf;
    if (text == QLatin1String("study-slack"))
        return FigureKind::StudySlack;
    if (text == QLatin1String("study-forecast-error"))
        return FigureKind::StudyForecastError;
    return std::nullopt;
}

bool isStudyFigure(FigureKind kind) {
    return kind == FigureKind::StudyHeatmap || kind == FigureKind::StudyCdf ||
           kind == FigureKind::StudySlack || kind == FigureKind::StudyForecastError;
}

bool isTradeoffFigure(FigureKind kind) {
    return kind == FigureKind::Compare || kind == FigureKind::Cost;
}

QString renderFigure(const FigureRequest& request, const QString& path) {
    const PlotTheme theme = themeByName(request.theme);
    std::unique_ptr<QCustomPlot> plot;
    switch (request.kind) {
    case FigureKind::Timeline:
    case FigureKind::Emissions:
    case FigureKind::Power: {
        auto timeline = std::make_unique<TimelinePlot>();
        timeline->setTheme(theme);
        timeline->setData(request.trace, request.from, request.to, request.runs, request.deadline);
        if (request.kind == FigureKind::Emissions)
            timeline->showOnlyPanel(TimelinePlot::EmissionsPanel);
        else if (request.kind == FigureKind::Power)
            timeline->showOnlyPanel(TimelinePlot::PowerPanel);
        plot = std::move(timeline);
        break;
    }
    case FigureKind::Compare:
    case FigureKind::Cost: {
        auto tradeoff = std::make_unique<TradeoffPlot>(nullptr, request.kind == FigureKind::Cost
                                                                    ? TradeoffPlot::Across::Cost
                                                                    : TradeoffPlot::Across::Completion);
        tradeoff->setTheme(theme);
        tradeoff->setRuns(request.summaries);
        plot = std::move(tradeoff);
        break;
    }
    case FigureKind::Configurations: {
        auto configurations = std::make_unique<ConfigurationsPlot>();
        configurations->setTheme(theme);
        configurations->setLandscape(request.landscape);
        plot = std::move(configurations);
        break;
    }
    case FigureKind::StudyHeatmap:
    case FigureKind::StudyCdf:
    case FigureKind::StudySlack:
    case FigureKind::StudyForecastError: {
        auto study = std::make_unique<StudyPlot>();
        study->setTheme(theme);
        const StudyPlot::Kind kind = request.kind == FigureKind::StudyHeatmap ? StudyPlot::Kind::Heatmap
                                     : request.kind == FigureKind::StudyCdf   ? StudyPlot::Kind::Cdf
                                     : request.kind == FigureKind::StudySlack
                                         ? StudyPlot::Kind::Slack
                                         : StudyPlot::Kind::ForecastError;
        study->setFigure(kind, request.study);
        plot = std::move(study);
        break;
    }
    }
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
    return exportFigure(*plot, path, request.size, request.metadata);
}

} // namespace carbon3d::ui
