// SPDX-License-Identifier: MIT
#pragma once

#include "perf/ConfigurationLandscape.h"
#include "perf/Goodput.h"
#include "plots/FittedPlot.h"
#include "plots/PlotTheme.h"

#include <qcustomplot.h>

namespace carbon3d::ui {

// The performance model's search as a scatter: throughput (or energy per token) against facility power,
// one point per (d, t, p) coloured by data-parallel degree, the Pareto frontier drawn as a line and the
// menu dynamic-3d chooses from ringed. Clicking a point selects it (configurationClicked).
class ConfigurationsPlot : public FittedPlot {
    Q_OBJECT
public:
    enum class YAxis { Throughput, EnergyPerToken };

    explicit ConfigurationsPlot(QWidget* parent = nullptr);
    void setLandscape(const ConfigurationLandscape& landscape);
    void setYAxis(YAxis y);
    void setTheme(const PlotTheme& theme);
    const ConfigurationLandscape& landscape() const { return m_landscape; }
    // Marks the shape whose breakdown is shown (-1: none).
    void setSelected(int shapeIndex);
    int selected() const { return m_selected; }
    // One line about a shape: its label, GPUs, power, throughput and energy per token (the hover text).
    QString describeShape(int shapeIndex) const;

Q_SIGNALS:
    void configurationClicked(int shapeIndex);

private:
    void rebuild();
    void addShapeGraphs();
    void markMostEfficient();
    void handleClick(QMouseEvent* event);
    void handleHover(QMouseEvent* event);
    int shapeAt(const QPointF& position) const; // the nearest point within 12 px, or -1
    double yValue(const PerfEstimate& e) const;

    ConfigurationLandscape m_landscape;
    int m_selected = -1;
    YAxis m_y = YAxis::Throughput;
    PlotTheme m_theme;
    QCPColorScale* m_dpScale = nullptr; // the data-parallel degree's colours
};

// Memory (GiB per GPU, stacked by part) and step time (s, stacked by part) of one configuration.
class BreakdownPlot : public FittedPlot {
    Q_OBJECT
public:
    explicit BreakdownPlot(QWidget* parent = nullptr);
    // The step's memory and time; the time also shows what the long run adds per step (`goodput`).
    void showConfiguration(const RankedConfig& config, double memoryCapacityBytes,
                           const GoodputShares& goodput);
    void showNone(); // empty, for a job with no feasible configuration (the page says why)
    void setTheme(const PlotTheme& theme);

private:
    // One bar: a part's name and its amount in the panel's unit.
    struct Part {
        QString name;
        double value;
    };
    void clearPanels(); // the title, both panels and their bars, before either of the above draws
    // Weights, gradients, optimizer, activations and reserve, in GiB per GPU.
    static std::vector<Part> memoryParts(const PerfEstimate& e);
    // The step's time by part, then what the long run adds to each step, in seconds.
    static std::vector<Part> stepTimeParts(const PerfEstimate& e, const GoodputShares& goodput);
    // A panel of horizontal bars in `row`, with a dashed line at `limit` when positive.
    void addPanel(QCPLayoutGrid* panels, QCPMarginGroup* margins, int row, const std::vector<Part>& parts,
                  const QString& unit, double limit);
    PlotTheme m_theme;
};

} // namespace carbon3d::ui
