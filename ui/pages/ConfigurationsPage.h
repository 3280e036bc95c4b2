// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"
#include "perf/ConfigurationLandscape.h"
#include "plots/FigureKinds.h"
#include "plots/PlotTheme.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;

namespace carbon3d::ui {

class BreakdownPlot;
class ConfigurationsPlot;

// The performance model's view of the current job and cluster: every feasible (d, t, p) as a scatter with
// the Pareto frontier and the dynamic-3d menu, and the memory and step-time breakdown of a clicked point.
// The search runs off the GUI thread (requested by signal, answered with showLandscape()).
class ConfigurationsPage : public QWidget {
    Q_OBJECT
public:
    explicit ConfigurationsPage(QWidget* parent = nullptr);
    void showLandscape(const ConfigurationLandscape& landscape, const QString& title,
                       double memoryCapacityBytes);
    void setTheme(const PlotTheme& theme);
    ConfigurationsPlot* scatter() const { return m_scatter; }
    void selectShape(int index);
    // The latest search, drawn or waiting for the page to be shown.
    const ConfigurationLandscape& landscape() const { return m_landscape; }

Q_SIGNALS:
    void exportRequested(QCustomPlot* plot, FigureKind kind);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void render();

    ConfigurationLandscape m_landscape;
    QString m_title;
    bool m_dirty = false; // a search arrived while the page was hidden: draw it when shown
    ConfigurationsPlot* m_scatter = nullptr;
    BreakdownPlot* m_breakdown = nullptr;
    QComboBox* m_yAxis = nullptr;
    QLabel* m_summary = nullptr;
    double m_memoryCapacityBytes = 0.0;
};

} // namespace carbon3d::ui
