// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FittedPlot.h"
#include "plots/PlotTheme.h"
#include "storage/StoredRun.h"

#include <qcustomplot.h>
#include <vector>

namespace carbon3d::ui {

// Emissions against completion time or against cost: every run a labelled point, coloured by policy; the
// trade-off picture of the whole field on one chart. Unfinished runs, and on the cost chart runs saved
// before cost was recorded, are left out.
class TradeoffPlot : public FittedPlot {
    Q_OBJECT
public:
    enum class Across { Completion, Cost }; // the horizontal axis
    explicit TradeoffPlot(QWidget* parent = nullptr, Across across = Across::Completion);
    void setRuns(const std::vector<RunSummary>& runs);
    // Rings these runs' points (the selection in Compare's table).
    void setHighlighted(const std::vector<RunId>& ids);
    int highlightedCount() const { return m_highlightedPoints; }
    void setTheme(const PlotTheme& theme);
    int pointCount() const { return m_points; }

private:
    void rebuild();

    Across m_across;
    std::vector<RunSummary> m_runs;
    std::vector<RunId> m_highlighted;
    int m_highlightedPoints = 0;
    PlotTheme m_theme;
    int m_points = 0;
};

} // namespace carbon3d::ui
