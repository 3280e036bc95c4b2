// SPDX-License-Identifier: MIT
#include "plots/TradeoffPlot.h"

#include <map>

namespace carbon3d::ui {

TradeoffPlot::TradeoffPlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_theme(screenTheme()) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    xAxis->setLabel(tr("Completion time (h from the scenario start)"));
    yAxis->setLabel(tr("Total emissions (tCO\u2082e)"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    rebuild();
}

void TradeoffPlot::setRuns(const std::vector<RunSummary>& runs) {
    m_runs = runs;
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
    std::map<std::string, QCPGraph*> byPolicy;
    for (const RunSummary& run : m_runs) {
        if (!run.metrics.finished)
            continue;
        QCPGraph*& graph = byPolicy[run.policy];
        const QColor colour = policyColour(QString::fromStdString(run.policy), m_theme);
        if (graph == nullptr) {
            graph = addGraph();
            graph->setName(QString::fromStdString(run.policy));
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setPen(QPen(colour, m_theme.lineWidth));
            graph->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 6 + m_theme.lineWidth * 2));
        }
        const double hours = run.metrics.completionSeconds / 3600.0;
        const double tonnes = run.metrics.totalG / 1e6;
        graph->addData(hours, tonnes);
        auto* label = new QCPItemText(this);
        label->position->setCoords(hours, tonnes);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(6, 0, 0, 2));
        label->setText(QStringLiteral("#%1 %2").arg(run.id).arg(QString::fromStdString(run.regionId)));
        label->setColor(colour.darker(130));
        ++m_points;
    }
    rescaleAxes();
    // Room for labels and a zero baseline: emissions and time start at 0, so show the origin's scale.
    xAxis->setRange(xAxis->range().lower * 0.9, xAxis->range().upper * 1.15 + 1e-9);
    yAxis->setRange(0, yAxis->range().upper * 1.15 + 1e-9);
    legend->setVisible(!byPolicy.empty());
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace carbon3d::ui
