// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/ExecutionOption.h"
#include "domain/RunResult.h"
#include "domain/RunSeries.h"
#include "plots/FittedPlot.h"
#include "plots/PlotTheme.h"
#include "plots/PlottedRun.h"
#include "plots/TimeAxisTicker.h"

#include <QString>
#include <functional>
#include <qcustomplot.h>
#include <vector>

namespace carbon3d::ui {

// Four stacked panels sharing one time axis: carbon intensity (with the forecast), the configuration
// timeline (active GPUs as steps, with (d, t, p) bands for the focused run), facility power and cumulative
// emissions. Every run is overlaid in its policy's colour, the deadline is marked, zoom and pan act on all
// panels together, and a crosshair reports the moment under the mouse through hoverTextChanged().
class TimelinePlot : public FittedPlot {
    Q_OBJECT
public:
    enum Panel { CarbonPanel = 0, ConfigurationPanel, PowerPanel, EmissionsPanel, PanelCount };

    explicit TimelinePlot(QWidget* parent = nullptr);

    // Replaces everything shown. The trace is drawn over [from, to); runs are copied.
    void setData(const CarbonTrace& trace, UtcSeconds from, UtcSeconds to, std::vector<PlottedRun> runs,
                 UtcSeconds deadline);
    void clearData();
    // Local time of the trace's region (default) or UTC.
    void setShowUtc(bool utc);
    // Elapsed mode: times are seconds since each run's start (the caller shifts the runs), labelled as
    // days and hours, so runs that started on different dates line up.
    void setElapsedTime(bool elapsed);
    bool elapsedTime() const { return m_elapsed; }
    void setTheme(const PlotTheme& theme);
    // Which run gets the (d, t, p) bands on the configuration panel.
    void setFocusedRun(int index);
    // The menu the runs chose from, so the crosshair can say what the alternatives would have cost.
    void setMenu(const ExecutionMenu& menu, double pue);
    // Keeps only one panel (figures of a single quantity): the others leave the layout for good.
    void showOnlyPanel(Panel which);

    QCPAxisRect* panel(Panel which) const { return m_rects[which]; }
    // Graphs on a panel (for tests and exporters).
    int graphCountOn(Panel which) const;
    const std::vector<PlottedRun>& runs() const { return m_runs; }
    const CarbonTrace& trace() const { return m_trace; } // the trace drawn on the carbon panel
    // Text explaining the moment t (local or UTC per setting): CI, forecast, each run's choice.
    QString describeMoment(double t) const;

Q_SIGNALS:
    void hoverTextChanged(const QString& text);

protected:
    void leaveEvent(QEvent* event) override;

private:
    void buildPanels();
    void rebuild();
    void hideCrosshair(); // and tells the hover text it is empty
    // Removes every graph, legend entry and item but the crosshair lines.
    void clearDrawing();
    // Where the time axis ends: the window, the deadline or the last run's end, whichever is latest.
    double shownEnd() const;
    // The common trace and its forecast, or without one each run's own intensity.
    void drawCarbonPanel(const std::vector<QPen>& pens, double to);
    // The trace over the window, shaded beneath, and the first forecast a run decided on.
    void drawTraceAndForecast(double to);
    // Each run's active GPUs, power and emissions; then the focused run's (d, t, p) bands.
    void drawRunPanels(const std::vector<QPen>& pens);
    // One run's cumulative emissions (g) in the panel's unit (gramsPerUnit: 1e6 for t, 1e3 for kg), with its
    // legend entry.
    void addEmissionsGraph(const PlottedRun& run, const QPen& pen, TimeSeries cumulative,
                           double gramsPerUnit);
    // A dashed line on every panel, labelled on the emissions panel (nothing without a deadline).
    void drawDeadline();
    void addConfigurationBands(const PlottedRun& run, const QColor& colour);
    // A piecewise-constant series drawn as steps on a panel.
    QCPGraph* addStepGraph(Panel panel, const QString& name, const QPen& pen, const TimeSeries& series);
    void syncTimeAxes(const QCPRange& range);
    void fitValueAxis(Panel panel, double headroom);
    void updateCrosshair(QMouseEvent* event);
    QString timeLabel(double t) const;
    void updateTickerZone();

    QCPAxisRect* m_rects[PanelCount] = {};
    QCPLayoutGrid* m_cells[PanelCount] = {}; // a panel's title above its axes
    QCPTextElement* m_titles[PanelCount] = {};
    QCPItemStraightLine* m_crosshair[PanelCount] = {};
    QSharedPointer<TimeAxisTicker> m_ticker; // dates, or days and hours since the start
    bool m_elapsed = false;
    PlotTheme m_theme;
    CarbonTrace m_trace;
    UtcSeconds m_from = 0;
    UtcSeconds m_to = 0;
    UtcSeconds m_deadline = 0;
    std::vector<PlottedRun> m_runs;
    ExecutionMenu m_menu;
    double m_pue = 1.0;
    int m_focusedRun = 0;
    bool m_showUtc = false;
    bool m_syncing = false;
};

} // namespace carbon3d::ui
