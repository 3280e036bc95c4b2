// SPDX-License-Identifier: MIT
#pragma once

#include <QWeakPointer>
#include <qcustomplot.h>
#include <vector>

namespace carbon3d::ui {

// A QCustomPlot whose text fits the size it is laid out at: on screen, and in every export (an export lays
// the plot out again at the figure's size, ui/plots/FigureExporter.h). At each layout, before anything is
// painted:
// - an axis title wraps onto lines no longer than its axis;
// - a legend filled row by row takes no more columns than fit its width;
// - tick labels thin out until they stand apart: the ticker's tick count follows from the labels' size in
//   their font and the axis's length, never more than the plot asked for;
// - point labels (markPointLabel) that would touch merge into one, and each takes the side of its point
//   where it overlaps no other label and stays inside its axes.
// Each fit starts again from what the plot itself set (its titles and tick counts), so a figure that
// grows gets its ticks back. Every plot of the studio and of `plot` derives from it;
// tests/ui/tst_figurelayout.cpp checks every figure kind at every export preset.
class FittedPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit FittedPlot(QWidget* parent = nullptr);

    // `label`, anchored at its position, names a point: it may be merged with its neighbours' labels and
    // moved to another side of the point.
    static void markPointLabel(QCPItemText* label);

protected:
    void updateLayout() override;

private:
    bool wrapAxisTitles();
    bool fitLegendColumns();
    bool thinTickLabels();
    void placePointLabels();

    // A ticker's tick count as the plot set it, and as the last fit left it: a count other than the
    // latter was set by the plot since, and becomes the new base.
    struct TickCount {
        QWeakPointer<QCPAxisTicker> ticker;
        int base = 0;
        int shown = 0;
    };
    TickCount& tickCountOf(const QSharedPointer<QCPAxisTicker>& ticker);
    std::vector<TickCount> m_tickCounts;
};

} // namespace carbon3d::ui
