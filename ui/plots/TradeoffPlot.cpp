// SPDX-License-Identifier: MIT
#include "plots/TradeoffPlot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace carbon3d::ui {

TradeoffPlot::TradeoffPlot(QWidget* parent, Across across)
    : QCustomPlot(parent)
    , m_across(across)
    , m_theme(screenTheme()) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    xAxis->setLabel(across == Across::Cost ? tr("Cost (thousand USD: GPU-hours, energy and the carbon price)")
                                           : tr("Completion time (h from the scenario start)"));
    yAxis->setLabel(tr("Total emissions (tCO\u2082e)"));
    // The legend sits right of the axes, never over points or their labels, at the top of a column whose
    // rest an empty element fills (alone, the legend was stretched down the whole height).
    axisRect()->insetLayout()->take(legend);
    placeCompactLegend(*this, 0, 1, legend, Qt::Vertical);
    plotLayout()->setColumnStretchFactor(1, 0.001);
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
    std::map<std::pair<long long, long long>, QCPItemText*> labels; // by position (0.1 h, 0.01 t)
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
        // Runs landing on the same spot (e.g. best-static choosing static-max's configuration) share one
        // label rather than printing over each other.
        const auto key = std::make_pair(std::llround(across * 10.0), std::llround(tonnes * 100.0));
        auto [label, inserted] = labels.try_emplace(key, nullptr);
        if (inserted) {
            label->second = new QCPItemText(this);
            label->second->position->setCoords(across, tonnes);
            label->second->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->second->setPadding(QMargins(6, 0, 0, 2));
            label->second->setColor(colour.darker(130));
            label->second->setText(
                showRegion ? QStringLiteral("#%1 %2").arg(run.id).arg(QString::fromStdString(run.regionId))
                           : QStringLiteral("#%1").arg(run.id));
        } else {
            label->second->setText(QStringLiteral("#%1, ").arg(run.id) + label->second->text());
        }
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
