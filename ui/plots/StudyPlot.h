// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FittedPlot.h"
#include "plots/PlotTheme.h"
#include "study/StudyFigures.h"

#include <qcustomplot.h>

namespace carbon3d::ui {

// The study figures (docs/STUDIES.md "Figures"): the calendar heatmap of savings (starts x regions, a
// diverging scale centred at 0, what each cell holds fixed or pools under it), the CDF of savings per policy,
// savings against slack with the oracle as the bound, savings against forecast error with the band over
// seeds, and where the savings come from (grouped bars per policy and attribution end). Savings are drawn in
// percent.
class StudyPlot : public FittedPlot {
    Q_OBJECT
public:
    enum class Kind { Heatmap, Cdf, Slack, ForecastError, Split };

    explicit StudyPlot(QWidget* parent = nullptr);
    void setFigure(Kind kind, const StudyFigureData& data);
    void setTheme(const PlotTheme& theme);
    const StudyFigureData& data() const { return m_data; }

private:
    void rebuild();
    void buildHeatmap();
    void buildLines();
    void buildSplitBars();
    void addLegendStrip();
    void addZeroLine(bool savingsOnX);

    Kind m_kind = Kind::Cdf;
    StudyFigureData m_data;
    PlotTheme m_theme;
    QCPAxisRect* m_rect = nullptr;
    QCPAxis* m_x = nullptr;
    QCPAxis* m_y = nullptr;
};

} // namespace carbon3d::ui
