// SPDX-License-Identifier: MIT
#include "plots/TradeoffPlot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace carbon3d::ui {

TradeoffPlot::TradeoffPlot(QWidget* parent, Across across)
    : FittedPlot(parent)
    , m_across(across)
    , m_theme(screenTheme()) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    xAxis->setLabel(across == Across::Cost ? tr("Cost (thousand USD: GPU-hours, energy and the carbon price)")
                                           : tr("Completion time (h from the scenario start)"));
    yAxis->setLabel(tr("Total emissions (tCO\u2082e)"));
    // The legend is a strip above the axes, never over points or their labels (in a column to their right
    // it took half a paper column's width from the data).
    axisRect()->insetLayout()->take(legend);
    placeLegendStrip(*this, legend);
    legend->setVisible(true);
    rebuild();
}

void TradeoffPlot::setRuns(const std::vector<RunSummary>& runs) {
    m_runs = runs;
    rebuild();
}

void TradeoffPlot::setHighlighted(const std::vector<RunId>& ids) {
    m_highlighted = ids;
    rebuild();
}

void TradeoffPlot::setTheme(const PlotTheme& theme) {
    m_theme = theme;
    rebuild();
}

void TradeoffPlot::rebuild() {
    clearGraphs();
    clearItems();
    m_points = 0;
    m_highlightedPoints = 0;
    std::map<std::string, QCPGraph*> byPolicy;
    std::vector<std::pair<double, double>> selected; // ringed after every policy, last in the legend
    // Name the region in labels only when the runs span several regions: otherwise it is noise.
    std::set<std::string> regions;
    for (const RunSummary& run : m_runs)
        regions.insert(run.regionId);
    const bool showRegion = regions.size() > 1;
    for (const RunSummary& run : m_runs) {
        // A run saved before cost was recorded has none (NaN): it has no place on the cost chart.
        const double across =
            m_across == Across::Cost ? run.metrics.costUsd / 1000.0 : run.metrics.completionSeconds / 3600.0;
        if (!run.metrics.finished || !std::isfinite(across))
            continue;
        QCPGraph*& graph = byPolicy[run.policy];
        const QColor colour = policyColour(QString::fromStdString(run.policy), m_theme);
        if (graph == nullptr) {
            graph = addGraph();
            graph->setName(QString::fromStdString(run.policy));
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setPen(QPen(colour, m_theme.lineWidth));
            graph->setScatterStyle(policyScatterStyle(graph->name(), m_theme, 7 + m_theme.lineWidth * 2));
        }
        const double tonnes = run.metrics.totalG / 1e6;
        graph->addData(across, tonnes);
        if (std::find(m_highlighted.begin(), m_highlighted.end(), run.id) != m_highlighted.end())
            selected.emplace_back(across, tonnes);
        // Runs close together share one label (FittedPlot merges them) rather than printing over each other.
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(axisRect());
        label->position->setCoords(across, tonnes);
        label->setColor(colour.darker(130));
        label->setText(showRegion
                           ? QStringLiteral("#%1 %2").arg(run.id).arg(QString::fromStdString(run.regionId))
                           : QStringLiteral("#%1").arg(run.id));
        markPointLabel(label);
        ++m_points;
    }
    if (!selected.empty()) {
        QCPGraph* highlight = addGraph();
        highlight->setName(tr("selected"));
        highlight->setLineStyle(QCPGraph::lsNone);
        highlight->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                                   QPen(m_theme.foreground, m_theme.lineWidth + 1.0),
                                                   Qt::NoBrush, 16 + m_theme.lineWidth * 3));
        for (const auto& [across, tonnes] : selected)
            highlight->addData(across, tonnes);
        m_highlightedPoints = static_cast<int>(selected.size());
    }
    rescaleAxes();
    // Room for labels and a zero baseline: emissions, time and cost start at 0, so show the origin's scale.
    xAxis->setRange(xAxis->range().lower * 0.9, xAxis->range().upper * 1.15 + 1e-9);
    yAxis->setRange(0, yAxis->range().upper * 1.15 + 1e-9);
    legend->setVisible(!byPolicy.empty());
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace carbon3d::ui
