// SPDX-License-Identifier: MIT
#include "plots/TimelinePlot.h"

#include "domain/RunSeries.h"
#include "engine/forecast/Forecaster.h"
#include "plots/FigureData.h"
#include "plots/FigureExporter.h"

#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <map>

namespace carbon3d::ui {

namespace {

QVector<double> toQVector(const std::vector<double>& values) {
    return {values.begin(), values.end()};
}

// Each panel's title, on a line of its own above the panel rather than rotated beside it: a panel is under
// 100 px tall at 1280 x 800 and about 30 px in a one-column paper figure, shorter than any of these titles
// turned on its side (cut as "umulative emissi", then wrapped into three lines that took a third of a
// paper figure's width).
const char* const kPanelTitles[TimelinePlot::PanelCount] = {"Carbon intensity (gCO\u2082e/kWh)",
                                                            "Active GPUs", "Facility power (MW)",
                                                            "Cumulative emissions (tCO\u2082e)"};

// Segments narrower than this fraction of the shown span get no band: they would be unreadable slivers.
constexpr double kMinBandFraction = 0.004;
// ...and text only when at least this wide.
constexpr double kMinLabelFraction = 0.06;

bool sameSegment(const IntervalRecord& a, const IntervalRecord& b) {
    return a.activity == b.activity && a.config == b.config && a.powerLimitW == b.powerLimitW &&
           a.gpusActive == b.gpusActive && a.regionIndex == b.regionIndex;
}

QString segmentLabel(const IntervalRecord& r) {
    if (r.activity != IntervalActivity::Training)
        return QString::fromLatin1(intervalActivityName(r.activity));
    QString text = QString::fromStdString(r.config.shapeLabel());
    if (r.powerLimitW > 0)
        text += QStringLiteral(" @%1W").arg(qRound(r.powerLimitW));
    return text;
}

// The trace's slots that overlap [from, to), as steps, with the last slot's closing point.
TimeSeries traceWindow(const CarbonTrace& trace, UtcSeconds from, double to) {
    TimeSeries window;
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const UtcSeconds start = trace.slotStart(i);
        if (start + trace.stepSeconds <= from || start >= static_cast<UtcSeconds>(to))
            continue;
        window.t.push_back(static_cast<double>(start));
        window.v.push_back(trace.gPerKwh[i]);
    }
    if (!window.t.empty()) { // the last slot's closing point
        window.t.push_back(window.t.back() + static_cast<double>(trace.stepSeconds));
        window.v.push_back(window.v.back());
    }
    return window;
}

// Each run in its policy's colour and dash; further runs of the same policy (compared across scenarios)
// step through the other dash styles.
std::vector<QPen> runPens(const std::vector<PlottedRun>& runs, const PlotTheme& theme) {
    std::vector<QPen> pens;
    std::map<std::string, int> seenPolicies;
    for (const PlottedRun& run : runs) {
        static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
        const QString policy = QString::fromStdString(run.result.policy);
        const int first = policyDash(policy) == Qt::DashLine ? 1 : 0;
        const int repeat = seenPolicies[run.result.policy]++;
        pens.emplace_back(policyColour(policy, theme), theme.lineWidth, kStyles[(first + repeat) % 4]);
    }
    return pens;
}

} // namespace

TimelinePlot::TimelinePlot(QWidget* parent)
    : FittedPlot(parent)
    , m_ticker(new TimeAxisTicker)
    , m_theme(screenTheme()) {
    setNoAntialiasingOnDrag(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    buildPanels();
    connect(this, &QCustomPlot::mouseMove, this, &TimelinePlot::updateCrosshair);
}

void TimelinePlot::buildPanels() {
    plotLayout()->clear();
    auto* margins = new QCPMarginGroup(this);
    for (int i = 0; i < PanelCount; ++i) {
        // A panel is its title above its axes, the title's left edge on the axes' (one margin group).
        auto* cell = new QCPLayoutGrid;
        plotLayout()->addElement(i, 0, cell); // joins the plot before it takes elements
        cell->setRowSpacing(0);
        auto* title = new QCPTextElement(this, QString::fromUtf8(kPanelTitles[i]));
        title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        title->setAutoMargins(QCP::msLeft);
        title->setMargins(QMargins(0, 0, 0, 0));
        title->setMarginGroup(QCP::msLeft, margins);
        markAsAxisTitle(title);
        cell->addElement(0, 0, title);
        auto* rect = new QCPAxisRect(this);
        // QCustomPlot's 50 px minimum keeps four panels from fitting a paper column's 6 cm: the layout
        // then squeezed the legend and titles over one another. Two tick labels need less than this.
        rect->setMinimumSize(50, 16);
        // Above and below, room for half a tick label (the top and bottom ticks' labels reach past the
        // axes) instead of QCustomPlot's 15 px.
        rect->setMinimumMargins(QMargins(15, 6, 15, 6));
        cell->addElement(1, 0, rect);
        cell->setRowStretchFactor(0, 0.001);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setProperty(kPanelTitleProperty, title->text()); // the panel's column in the figure's data
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        x->setTicker(m_ticker);
        x->setTickLabels(i == PanelCount - 1); // only the bottom panel labels time
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelinePlot::syncTimeAxes);
        m_rects[i] = rect;
        m_cells[i] = cell;
        m_titles[i] = title;

        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(rect);
        line->point1->setAxes(x, rect->axis(QCPAxis::atLeft));
        line->point2->setAxes(x, rect->axis(QCPAxis::atLeft));
        line->setPen(QPen(m_theme.reference, 1, Qt::DashLine));
        line->setLayer(QString::fromLatin1(kHoverLayer)); // follows the mouse: never exported
        line->setVisible(false);
        m_crosshair[i] = line;
    }
    // The legend is a strip of its own above the panels, outside every data area: inside the emissions
    // panel it covered the curves' ends (where runs differ most) as soon as the figure was narrow or the
    // runs many. One entry per run, in rows that wrap as the theme says.
    legend = new QCPLegend;
    placeLegendStrip(*this, legend);
    // Titles keep the panels apart; in a paper column's 6 cm every pixel of spacing is a panel's.
    plotLayout()->setRowSpacing(0);
    legend->setRowSpacing(0);
    legend->setMargins(QMargins(7, 2, 7, 2));
    legend->setLayer(QStringLiteral("legend"));
    legend->setVisible(true);
    setAutoAddPlottableToLegend(false);
    rebuild();
}

void TimelinePlot::setData(const CarbonTrace& trace, UtcSeconds from, UtcSeconds to,
                           std::vector<PlottedRun> runs, UtcSeconds deadline) {
    m_trace = trace;
    m_from = from;
    m_to = to;
    m_runs = std::move(runs);
    m_deadline = deadline;
    m_focusedRun = 0;
    updateTickerZone();
    rebuild();
}

void TimelinePlot::clearData() {
    m_trace = CarbonTrace{};
    m_runs.clear();
    m_from = m_to = m_deadline = 0;
    rebuild();
}

void TimelinePlot::setShowUtc(bool utc) {
    m_showUtc = utc;
    updateTickerZone();
    replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::updateTickerZone() {
    const QTimeZone zone(QByteArray::fromStdString(m_trace.timeZone));
    m_ticker->setTimeZone(m_showUtc || !zone.isValid() ? QTimeZone::utc() : zone);
}

void TimelinePlot::setElapsedTime(bool elapsed) {
    m_elapsed = elapsed;
    m_ticker->setElapsed(elapsed);
    replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::setTheme(const PlotTheme& theme) {
    m_theme = theme;
    rebuild();
}

void TimelinePlot::setFocusedRun(int index) {
    m_focusedRun = index;
    rebuild();
}

void TimelinePlot::setMenu(const ExecutionMenu& menu, double pue) {
    m_menu = menu;
    m_pue = pue;
}

void TimelinePlot::showOnlyPanel(Panel which) {
    for (int p = 0; p < PanelCount; ++p) {
        if (p == which)
            continue;
        plotLayout()->take(m_cells[p]);
        m_cells[p]->setVisible(false);
    }
    plotLayout()->simplify();
    m_rects[which]->axis(QCPAxis::atBottom)->setTickLabels(true);
    replot(QCustomPlot::rpQueuedReplot);
}

int TimelinePlot::graphCountOn(Panel which) const {
    int count = 0;
    for (int i = 0; i < graphCount(); ++i) {
        if (graph(i)->keyAxis()->axisRect() == m_rects[which])
            ++count;
    }
    return count;
}

void TimelinePlot::hideCrosshair() {
    for (QCPItemStraightLine* line : m_crosshair)
        line->setVisible(false);
    Q_EMIT hoverTextChanged(QString());
}

void TimelinePlot::leaveEvent(QEvent* event) {
    // The line goes, the explanation stays: the user may move to the "why" panel to read or scroll it.
    for (QCPItemStraightLine* line : m_crosshair)
        line->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
    QCustomPlot::leaveEvent(event);
}

void TimelinePlot::rebuild() {
    // New data: what the mouse last pointed at is no longer on the plot.
    hideCrosshair();
    clearDrawing();
    const auto from = static_cast<double>(m_from);
    const double to = shownEnd();
    const std::vector<QPen> pens = runPens(m_runs, m_theme);
    drawCarbonPanel(pens, to);
    drawRunPanels(pens);
    drawDeadline();
    if (to > from) {
        for (QCPAxisRect* rect : m_rects)
            rect->axis(QCPAxis::atBottom)->setRange(from, to + (to - from) * 0.02);
    }
    legend->setVisible(!m_runs.empty());
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::clearDrawing() {
    clearGraphs();
    // Remove everything but the crosshair lines.
    for (int i = itemCount() - 1; i >= 0; --i) {
        QCPAbstractItem* it = item(i);
        if (std::find(std::begin(m_crosshair), std::end(m_crosshair), it) == std::end(m_crosshair))
            removeItem(it);
    }
    legend->clearItems();
}

double TimelinePlot::shownEnd() const {
    auto to = static_cast<double>(std::max(m_to, m_deadline));
    for (const PlottedRun& run : m_runs) {
        if (!run.result.series.empty())
            to = std::max(to, static_cast<double>(run.result.series.back().end));
    }
    return to;
}

void TimelinePlot::drawCarbonPanel(const std::vector<QPen>& pens, double to) {
    if (!m_trace.empty() && m_to > m_from) {
        drawTraceAndForecast(to);
        fitValueAxis(CarbonPanel, 1.1);
    } else if (!m_runs.empty()) {
        // No common trace (runs from different regions or dates): each run's own intensity, in its colour.
        for (std::size_t i = 0; i < m_runs.size(); ++i) {
            QPen pen = pens[i];
            pen.setWidthF(m_theme.lineWidth * 0.8);
            addStepGraph(CarbonPanel, m_runs[i].name, pen,
                         stepSeries(m_runs[i].result, [](const IntervalRecord& r) { return r.ciGPerKwh; }));
        }
        fitValueAxis(CarbonPanel, 1.1);
    }
}

// Carbon intensity: the true trace over the window, and the forecast the first run decided on.
void TimelinePlot::drawTraceAndForecast(double to) {
    QCPGraph* truth = addStepGraph(
        CarbonPanel, tr("carbon intensity (%1)").arg(QString::fromLatin1(carbonSignalName(m_trace.signal))),
        QPen(m_theme.truth, m_theme.lineWidth), traceWindow(m_trace, m_from, to));
    QColor under = m_theme.truth;
    under.setAlpha(25);
    truth->setBrush(under);
    // The forecast of the first run that used one (a carbon-agnostic run or the oracle first in the list
    // would otherwise draw no forecast, or a line of zeros).
    const auto forecaster = std::find_if(m_runs.begin(), m_runs.end(), [](const PlottedRun& run) {
        return !run.result.series.empty() && usedForecast(run.result);
    });
    if (forecaster != m_runs.end()) {
        QCPGraph* forecast = addStepGraph(
            CarbonPanel,
            // Short, as a legend entry: the kind's id ("forecast (operational)"), not its description.
            tr("forecast (%1)").arg(QString::fromStdString(forecaster->result.forecastKind)),
            QPen(m_theme.forecast, m_theme.lineWidth, Qt::DashLine),
            stepSeries(forecaster->result, [](const IntervalRecord& r) { return r.forecastCiGPerKwh; }));
        forecast->addToLegend(legend); // a dashed grey line is not self-explaining
    }
}

// Active GPUs, facility power and cumulative emissions of every run, then the focused run's bands.
void TimelinePlot::drawRunPanels(const std::vector<QPen>& pens) {
    // Emissions in tonnes, or in kg when every run stays under a tonne (a small job read "0.03" and a
    // lesson's "embodied is about half" could not be checked); the panel's title names the unit.
    std::vector<TimeSeries> cumulative;
    double largest = 0.0;
    for (const PlottedRun& run : m_runs) {
        cumulative.push_back(cumulativeEmissions(run.result, true));
        for (const double grams : cumulative.back().v)
            largest = std::max(largest, grams);
    }
    const bool tonnes = m_runs.empty() || largest >= 1e6; // no runs yet: the default job's unit
    const QString title =
        tonnes ? QString::fromUtf8(kPanelTitles[EmissionsPanel]) : tr("Cumulative emissions (kgCO\u2082e)");
    m_titles[EmissionsPanel]->setText(title);
    m_rects[EmissionsPanel]->setProperty(kPanelTitleProperty, title);
    double maxGpus = 1;
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const PlottedRun& run = m_runs[i];
        const QPen& pen = pens[i];

        const TimeSeries active =
            stepSeries(run.result, [](const IntervalRecord& r) { return double(r.gpusActive); });
        addStepGraph(ConfigurationPanel, run.name, pen, active);
        for (const double v : active.v)
            maxGpus = std::max(maxGpus, v);
        addStepGraph(PowerPanel, run.name, pen,
                     stepSeries(run.result, [](const IntervalRecord& r) { return r.facilityPowerW / 1e6; }));
        addEmissionsGraph(run, pen, std::move(cumulative[i]), tonnes ? 1e6 : 1e3);
    }
    for (Panel p : {ConfigurationPanel, PowerPanel, EmissionsPanel}) {
        fitValueAxis(p, 1.15);
    }
    m_rects[ConfigurationPanel]->axis(QCPAxis::atLeft)->setRangeUpper(maxGpus * 1.3);
    if (m_focusedRun >= 0 && static_cast<std::size_t>(m_focusedRun) < m_runs.size()) {
        const PlottedRun& focused = m_runs[static_cast<std::size_t>(m_focusedRun)];
        addConfigurationBands(focused, policyColour(QString::fromStdString(focused.result.policy), m_theme));
    }
}

void TimelinePlot::addEmissionsGraph(const PlottedRun& run, const QPen& pen, TimeSeries cumulative,
                                     double gramsPerUnit) {
    QCPGraph* emissions = addGraph(m_rects[EmissionsPanel]->axis(QCPAxis::atBottom),
                                   m_rects[EmissionsPanel]->axis(QCPAxis::atLeft));
    emissions->setName(run.name);
    emissions->setPen(pen);
    for (double& v : cumulative.v)
        v /= gramsPerUnit;
    emissions->setData(toQVector(cumulative.t), toQVector(cumulative.v), true);
    // The policy's marker every so often along its line (about eight a line) and in the legend: fourteen
    // policies share seven colours, and a dash alone told pairs apart badly (issue 43).
    emissions->setScatterStyle(
        policyScatterStyle(QString::fromStdString(run.result.policy), m_theme, 5 + m_theme.lineWidth * 2));
    emissions->setScatterSkip(std::max(0, static_cast<int>(cumulative.t.size()) / 8 - 1));
    emissions->addToLegend(legend);
}

// The deadline, on every panel.
void TimelinePlot::drawDeadline() {
    if (m_deadline <= 0)
        return;
    for (QCPAxisRect* rect : m_rects) {
        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(rect);
        line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        line->point1->setCoords(static_cast<double>(m_deadline), 0);
        line->point2->setCoords(static_cast<double>(m_deadline), 1);
        line->setPen(QPen(m_theme.limit, std::max(1.5, m_theme.lineWidth * 0.8), Qt::DashDotLine));
    }
    // Labelled at the foot of the emissions panel: cumulative curves are high by the deadline, so that
    // corner is empty (at the top of the carbon panel the label sat on the trace).
    auto* label = new QCPItemText(this);
    label->setClipAxisRect(m_rects[EmissionsPanel]);
    label->position->setAxes(m_rects[EmissionsPanel]->axis(QCPAxis::atBottom),
                             m_rects[EmissionsPanel]->axis(QCPAxis::atLeft));
    label->position->setAxisRect(m_rects[EmissionsPanel]); // the ratio is of this panel, not the first
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(static_cast<double>(m_deadline), 0.97);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->setText(tr("deadline "));
    label->setColor(m_theme.limit);
}

void TimelinePlot::fitValueAxis(Panel panel, double headroom) {
    // From zero to the largest value drawn, plus headroom. (QCPAxis::rescale keeps the previous span
    // around a constant series, so a flat power line once got an axis to 3.5 MW for 0.9 MW.)
    QCPAxis* y = m_rects[panel]->axis(QCPAxis::atLeft);
    double top = 0.0;
    for (QCPGraph* graph : y->graphs()) {
        bool found = false;
        const QCPRange range = graph->getValueRange(found);
        if (found)
            top = std::max(top, range.upper);
    }
    y->setRange(0.0, top > 0.0 ? top * headroom : 1.0);
}

QCPGraph* TimelinePlot::addStepGraph(Panel panel, const QString& name, const QPen& pen,
                                     const TimeSeries& series) {
    QCPGraph* graph =
        addGraph(m_rects[panel]->axis(QCPAxis::atBottom), m_rects[panel]->axis(QCPAxis::atLeft));
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(pen);
    graph->setData(toQVector(series.t), toQVector(series.v), true);
    return graph;
}

void TimelinePlot::addConfigurationBands(const PlottedRun& run, const QColor& colour) {
    const auto& series = run.result.series;
    if (series.empty())
        return;
    const auto span = static_cast<double>(series.back().end - series.front().start);
    QCPAxis* x = m_rects[ConfigurationPanel]->axis(QCPAxis::atBottom);
    QCPAxis* y = m_rects[ConfigurationPanel]->axis(QCPAxis::atLeft);
    const double top = y->range().upper;
    std::size_t begin = 0;
    bool shade = false;
    while (begin < series.size()) {
        std::size_t end = begin + 1;
        while (end < series.size() && sameSegment(series[begin], series[end]) &&
               series[end].start == series[end - 1].end)
            ++end;
        const auto start = static_cast<double>(series[begin].start);
        const auto stop = static_cast<double>(series[end - 1].end);
        if ((stop - start) >= kMinBandFraction * span) {
            auto* band = new QCPItemRect(this);
            band->setClipAxisRect(m_rects[ConfigurationPanel]);
            band->topLeft->setAxes(x, y);
            band->bottomRight->setAxes(x, y);
            band->topLeft->setCoords(start, top);
            band->bottomRight->setCoords(stop, 0);
            band->setPen(Qt::NoPen);
            QColor fill = series[begin].activity == IntervalActivity::Training ? colour : m_theme.inactive;
            fill.setAlpha(shade ? 18 : 38); // alternate so adjacent segments stay distinguishable
            band->setBrush(fill);
            band->setLayer(QStringLiteral("background"));
            if ((stop - start) >= kMinLabelFraction * span) {
                auto* text = new QCPItemText(this);
                text->setClipAxisRect(m_rects[ConfigurationPanel]);
                text->position->setAxes(x, y);
                text->position->setCoords((start + stop) / 2, top * 0.97);
                text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
                text->setText(segmentLabel(series[begin]));
                text->setColor(m_theme.foreground);
            }
            shade = !shade;
        }
        begin = end;
    }
}

void TimelinePlot::syncTimeAxes(const QCPRange& range) {
    if (m_syncing)
        return;
    m_syncing = true;
    for (QCPAxisRect* rect : m_rects)
        rect->axis(QCPAxis::atBottom)->setRange(range);
    m_syncing = false;
}

QString TimelinePlot::timeLabel(double t) const {
    if (m_elapsed) {
        const auto minutes = static_cast<qint64>(std::floor(t / 60.0));
        return tr("day %1, %2:%3 after the start")
            .arg(minutes / (qint64{24} * 60))
            .arg(minutes / 60 % 24, 2, 10, QLatin1Char('0'))
            .arg(minutes % 60, 2, 10, QLatin1Char('0'));
    }
    const QDateTime when = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(t), QTimeZone::utc());
    const QTimeZone zone(QByteArray::fromStdString(m_trace.timeZone));
    if (m_showUtc || !zone.isValid())
        return when.toString(QStringLiteral("yyyy-MM-dd hh:mm 'UTC'"));
    return when.toTimeZone(zone).toString(QStringLiteral("yyyy-MM-dd hh:mm t"));
}

namespace {

// Facility power in the unit that keeps it readable: a paused job's 5 kW must not read "0.00 MW".
QString powerText(double watts) {
    if (watts >= 1e6)
        return QStringLiteral("%1 MW").arg(watts / 1e6, 0, 'f', 2);
    if (watts >= 1e3)
        return QStringLiteral("%1 kW").arg(watts / 1e3, 0, 'f', watts >= 1e5 ? 0 : 1);
    return QStringLiteral("%1 W").arg(watts, 0, 'f', 0);
}

} // namespace

QString TimelinePlot::describeMoment(double t) const {
    QStringList lines;
    lines << timeLabel(t);
    if (!m_trace.empty() && t >= static_cast<double>(m_trace.startUtc) &&
        t < static_cast<double>(m_trace.endUtc())) {
        const auto slot =
            static_cast<std::size_t>((static_cast<UtcSeconds>(t) - m_trace.startUtc) / m_trace.stepSeconds);
        lines << tr("Carbon intensity: %1 gCO\u2082e/kWh").arg(m_trace.gPerKwh[slot], 0, 'f', 0);
    }
    double ci = -1.0;
    if (!m_trace.empty() && t >= static_cast<double>(m_trace.startUtc) &&
        t < static_cast<double>(m_trace.endUtc()))
        ci = m_trace.gPerKwh[static_cast<std::size_t>((static_cast<UtcSeconds>(t) - m_trace.startUtc) /
                                                      m_trace.stepSeconds)];
    for (const PlottedRun& run : m_runs) {
        const IntervalRecord* r = intervalAt(run.result, t);
        if (r == nullptr) {
            lines << tr("%1: done or not started").arg(run.name);
            continue;
        }
        // No forecast value for a policy that used none at this decision: a 0 would read as a forecast.
        const QString forecast = std::isnan(r->forecastCiGPerKwh)
                                     ? QString()
                                     : tr("; forecast %1 g/kWh").arg(r->forecastCiGPerKwh, 0, 'f', 0);
        QString text = tr("%1: %2, %3 GPUs, %4%5; %6 kgCO\u2082e/h")
                           .arg(run.name, segmentLabel(*r))
                           .arg(r->gpusActive)
                           .arg(powerText(r->facilityPowerW), forecast)
                           .arg(r->facilityPowerW * r->ciGPerKwh / 1e6, 0, 'f', 1); // W x g/kWh / 1e6 = kg/h
        lines << text;
        // Why, in the policy's own terms, from the decision in force at t (runs read back from the
        // database have no notes).
        const DecisionNote* note = decisionAt(run.result, static_cast<UtcSeconds>(std::floor(t)));
        if (note != nullptr && !note->reason.empty())
            lines << tr("    why: %1").arg(QString::fromStdString(note->reason));
    }
    // What the alternatives on the menu would have cost and delivered at this moment's intensity.
    if (ci >= 0.0 && !m_menu.empty()) {
        const ExecutionOption* fastest = &m_menu.front();
        const ExecutionOption* leanest = &m_menu.front();
        for (const ExecutionOption& option : m_menu) {
            if (option.workPerSecond > fastest->workPerSecond)
                fastest = &option;
            if (option.activePowerW / option.workPerSecond < leanest->activePowerW / leanest->workPerSecond)
                leanest = &option;
        }
        const auto describe = [this, ci](const char* role, const ExecutionOption& option) {
            const double kgPerHour = option.activePowerW * m_pue * ci / 1e6; // W x g/kWh / 1e6 = kg/h
            const double gramsPerMillionTokens = kgPerHour * 1e3 / (option.workPerSecond * 3600.0) * 1e6;
            return tr("%1 %2: %3 k tokens/s, %4 kgCO\u2082e/h (%5 g per million tokens)")
                .arg(QString::fromLatin1(role),
                     QString::fromStdString(option.label.empty() ? option.config.label() : option.label))
                .arg(option.workPerSecond / 1e3, 0, 'f', 1)
                .arg(kgPerHour, 0, 'f', 1)
                .arg(gramsPerMillionTokens, 0, 'f', 1);
        };
        lines << tr("Alternatives at this intensity:") << describe("fastest", *fastest)
              << describe("least energy per token", *leanest)
              << tr("pause: no progress; the held GPUs idle, with their nodes");
    }
    if (!m_runs.empty())
        // Configuration labels are compact; spelled out once here (issue 15, item 7: "sp dopt" was jargon).
        lines << tr("(d, t, p: data-, tensor-, pipeline-parallel degrees; b: micro-batch; v: virtual stages "
                    "per GPU; sp: sequence parallelism; dopt: distributed optimizer; @W: power limit)");
    return lines.join(QLatin1Char('\n'));
}

void TimelinePlot::updateCrosshair(QMouseEvent* event) {
    QCPAxis* x = m_rects[0]->axis(QCPAxis::atBottom);
    const double t = x->pixelToCoord(event->position().x());
    for (QCPItemStraightLine* line : m_crosshair) {
        line->point1->setCoords(t, 0);
        line->point2->setCoords(t, 1);
        line->setVisible(true);
    }
    // The whole explanation goes to the Results page's "why" panel; a tooltip of it would cover the plot.
    Q_EMIT hoverTextChanged(describeMoment(t));
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace carbon3d::ui
