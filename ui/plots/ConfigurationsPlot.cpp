// SPDX-License-Identifier: MIT
#include "plots/ConfigurationsPlot.h"

#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <map>

namespace carbon3d::ui {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Data-parallel degree is ordinal (1, 2, 4, ... 64): a perceptually uniform sequential ramp (viridis
// colour stops) reads better than a cycling categorical palette, and is colour-blind safe.
QColor dpColour(int dp, int maxDp) {
    QCPColorGradient ramp = ordinalGradient(); // color() is not const: it builds its lookup table
    const double position =
        maxDp > 1 ? std::log2(static_cast<double>(dp)) / std::log2(static_cast<double>(maxDp)) : 0.0;
    return QColor::fromRgb(ramp.color(position, QCPRange(0.0, 1.0)));
}

} // namespace

ConfigurationsPlot::ConfigurationsPlot(QWidget* parent)
    : FittedPlot(parent)
    , m_theme(screenTheme()) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    legend->setVisible(true);
    // A strip above the axes: inside them, at the empty top left, its fifteen entries covered half the data
    // of a paper-column figure.
    axisRect()->insetLayout()->take(legend);
    placeLegendStrip(*this, legend);
    // The data-parallel degree is read off a colour scale beside the axes, not twelve legend entries.
    m_dpScale = new QCPColorScale(this);
    plotLayout()->addElement(1, 1, m_dpScale);
    m_dpScale->setType(QCPAxis::atRight);
    m_dpScale->setGradient(ordinalGradient());
    m_dpScale->setDataScaleType(QCPAxis::stLogarithmic); // as dpColour places d on the ramp
    QSharedPointer<QCPAxisTickerLog> powersOfTwo(new QCPAxisTickerLog);
    powersOfTwo->setLogBase(2);
    m_dpScale->axis()->setTicker(powersOfTwo);
    m_dpScale->axis()->setNumberFormat(QStringLiteral("f"));
    m_dpScale->axis()->setNumberPrecision(0);
    m_dpScale->axis()->setLabel(tr("Data-parallel degree d"));
    m_dpScale->setBarWidth(10);
    auto* margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_dpScale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    connect(this, &QCustomPlot::mousePress, this, &ConfigurationsPlot::handleClick);
    connect(this, &QCustomPlot::mouseMove, this, &ConfigurationsPlot::handleHover);
    rebuild();
}

void ConfigurationsPlot::setSelected(int shapeIndex) {
    m_selected = shapeIndex;
    rebuild();
}

QString ConfigurationsPlot::describeShape(int shapeIndex) const {
    if (shapeIndex < 0 || static_cast<std::size_t>(shapeIndex) >= m_landscape.shapes.size())
        return {};
    const RankedConfig& shape = m_landscape.shapes[static_cast<std::size_t>(shapeIndex)];
    const PerfEstimate& e = shape.estimate;
    return tr("%1: %2 GPUs, %3 kW facility, %4 k tokens/s, %5 J per token, MFU %6 %")
        .arg(QString::fromStdString(shape.config.label()))
        .arg(e.gpus)
        .arg(e.power.facilityPowerW / 1e3, 0, 'f', 1)
        .arg(e.tokensPerS / 1e3, 0, 'f', 1)
        .arg(e.energyPerTokenJ, 0, 'f', 2)
        .arg(e.mfu * 100, 0, 'f', 1);
}

void ConfigurationsPlot::setLandscape(const ConfigurationLandscape& landscape) {
    m_landscape = landscape;
    rebuild();
}

void ConfigurationsPlot::setYAxis(YAxis y) {
    m_y = y;
    rebuild();
}

void ConfigurationsPlot::setTheme(const PlotTheme& theme) {
    m_theme = theme;
    rebuild();
}

// Issue 39: the configuration that spends the least energy per token, starred in the legend's words: what a
// job would run if only energy per token mattered, and how far the full size is from it.
void ConfigurationsPlot::markMostEfficient() {
    const auto least = std::min_element(m_landscape.shapes.begin(), m_landscape.shapes.end(),
                                        [](const RankedConfig& a, const RankedConfig& b) {
                                            return a.estimate.energyPerTokenJ < b.estimate.energyPerTokenJ;
                                        });
    if (least == m_landscape.shapes.end())
        return;
    QCPGraph* star = addGraph();
    star->setName(tr("least J/token (%1)").arg(QString::fromStdString(least->config.shapeLabel())));
    star->setLineStyle(QCPGraph::lsNone);
    star->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(m_theme.foreground, 2), Qt::NoBrush,
                                          14 + m_theme.lineWidth * 2));
    star->addData(least->estimate.power.facilityPowerW / 1e3, yValue(least->estimate));
}

double ConfigurationsPlot::yValue(const PerfEstimate& e) const {
    return m_y == YAxis::Throughput ? e.tokensPerS / 1e3 : e.energyPerTokenJ;
}

// One graph per data-parallel degree, coloured along the ramp the colour scale shows (not in the legend).
void ConfigurationsPlot::addShapeGraphs() {
    std::map<int, QCPGraph*> byDp;
    int maxDp = 1;
    for (const RankedConfig& shape : m_landscape.shapes)
        maxDp = std::max(maxDp, shape.config.dp);
    m_dpScale->setVisible(!m_landscape.shapes.empty());
    m_dpScale->setDataRange(QCPRange(1, std::max(2, maxDp)));
    for (const RankedConfig& shape : m_landscape.shapes)
        byDp[shape.config.dp] = nullptr; // graphs in increasing d: the figure's data lists them in order
    for (auto& [dp, graph] : byDp) {
        const QColor colour = dpColour(dp, maxDp);
        graph = addGraph();
        graph->setName(tr("d = %1").arg(dp));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 5 + m_theme.lineWidth));
        graph->setPen(QPen(colour));
        graph->removeFromLegend();
    }
    for (const RankedConfig& shape : m_landscape.shapes)
        byDp[shape.config.dp]->addData(shape.estimate.power.facilityPowerW / 1e3, yValue(shape.estimate));
}

void ConfigurationsPlot::rebuild() {
    clearGraphs();
    clearItems();
    xAxis->setLabel(tr("Facility power (kW)"));
    yAxis->setLabel(m_y == YAxis::Throughput ? tr("Throughput (thousand tokens/s)")
                                             : tr("Facility energy per token (J)"));
    legend->setVisible(!m_landscape.shapes.empty()); // an empty legend box would read as a stray mark
    addShapeGraphs();
    if (!m_landscape.frontier.empty()) {
        QCPGraph* frontier = addGraph();
        frontier->setName(tr("Pareto frontier"));
        frontier->setPen(QPen(m_theme.foreground, m_theme.lineWidth, Qt::DashLine));
        for (const RankedConfig& c : m_landscape.frontier)
            frontier->addData(c.estimate.power.facilityPowerW / 1e3, yValue(c.estimate));
    }
    if (!m_landscape.menu.empty()) {
        QCPGraph* menu = addGraph();
        menu->setName(tr("dynamic-3d menu"));
        menu->setLineStyle(QCPGraph::lsNone);
        menu->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(m_theme.accent, 2), Qt::NoBrush,
                                              12 + m_theme.lineWidth * 2));
        // The menu is in facility terms too: active IT power x PUE over the same throughput.
        for (const ExecutionOption& option : m_landscape.menu) {
            const RankedConfig* match = nullptr;
            for (const RankedConfig& shape : m_landscape.shapes) {
                if (shape.config.dp == option.config.dp && shape.config.tp == option.config.tp &&
                    shape.config.pp == option.config.pp)
                    match = &shape;
            }
            if (match != nullptr)
                menu->addData(match->estimate.power.facilityPowerW / 1e3, yValue(match->estimate));
        }
    }
    markMostEfficient();
    if (m_selected >= 0 && static_cast<std::size_t>(m_selected) < m_landscape.shapes.size()) {
        const PerfEstimate& e = m_landscape.shapes[static_cast<std::size_t>(m_selected)].estimate;
        QCPGraph* selected = addGraph();
        selected->setName(tr("shown in the breakdown"));
        selected->setLineStyle(QCPGraph::lsNone);
        selected->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle,
                                                  QPen(m_theme.foreground, 1.5 + m_theme.lineWidth * 0.5),
                                                  Qt::NoBrush, 16 + m_theme.lineWidth * 2));
        selected->addData(e.power.facilityPowerW / 1e3, yValue(e));
    }
    rescaleAxes();
    xAxis->setRange(0, xAxis->range().upper * 1.05 + 1e-9);
    yAxis->setRange(0, yAxis->range().upper * 1.1 + 1e-9);
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

int ConfigurationsPlot::shapeAt(const QPointF& position) const {
    int best = -1;
    double bestDistance = 12.0;
    for (std::size_t i = 0; i < m_landscape.shapes.size(); ++i) {
        const PerfEstimate& e = m_landscape.shapes[i].estimate;
        const double px = xAxis->coordToPixel(e.power.facilityPowerW / 1e3);
        const double py = yAxis->coordToPixel(yValue(e));
        const double distance = std::hypot(px - position.x(), py - position.y());
        if (distance < bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

void ConfigurationsPlot::handleClick(QMouseEvent* event) {
    const int shape = shapeAt(event->position());
    if (shape >= 0)
        Q_EMIT configurationClicked(shape);
}

void ConfigurationsPlot::handleHover(QMouseEvent* event) {
    const int shape = shapeAt(event->position());
    if (shape >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), describeShape(shape), this);
    else
        QToolTip::hideText();
}

BreakdownPlot::BreakdownPlot(QWidget* parent)
    : FittedPlot(parent)
    , m_theme(screenTheme()) {
    plotLayout()->clear();
}

void BreakdownPlot::setTheme(const PlotTheme& theme) {
    m_theme = theme;
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

void BreakdownPlot::clearPanels() {
    clearPlottables();
    clearItems();
    plotLayout()->clear();
}

void BreakdownPlot::showNone() {
    clearPanels();
    replot();
}

void BreakdownPlot::showConfiguration(const RankedConfig& config, double memoryCapacityBytes,
                                      const GoodputShares& goodput) {
    clearPanels();
    const PerfEstimate& e = config.estimate;
    const std::vector<Part> memory = memoryParts(e);
    const std::vector<Part> time = stepTimeParts(e, goodput);
    auto* title = new QCPTextElement(this, tr("%1\n%2 GPUs, %3 k tokens/s steady, MFU %4 %, goodput %8 %\n"
                                              "%5 kW facility (%6 W per GPU), %7 J per token")
                                               .arg(QString::fromStdString(config.config.label()))
                                               .arg(e.gpus)
                                               .arg(e.tokensPerS / 1e3, 0, 'f', 1)
                                               .arg(e.mfu * 100, 0, 'f', 1)
                                               .arg(e.power.facilityPowerW / 1e3, 0, 'f', 1)
                                               .arg(e.power.gpuAverageW, 0, 'f', 0)
                                               .arg(e.energyPerTokenJ, 0, 'f', 2)
                                               .arg(goodput.productive() * 100, 0, 'f', 1));
    plotLayout()->addElement(0, 0, title);
    // Horizontal bars, one panel above the other: the part names read level on the left however narrow
    // the column (rotated labels under vertical bars overlapped each other).
    auto* panels = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, panels);
    auto* margins = new QCPMarginGroup(this); // both panels' bars start at the same x
    addPanel(panels, margins, 0, memory, tr("Memory per GPU (GiB); dashed: capacity"),
             memoryCapacityBytes / kGiB);
    addPanel(panels, margins, 1, time, tr("Step time (s)"), 0.0);
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

std::vector<BreakdownPlot::Part> BreakdownPlot::memoryParts(const PerfEstimate& e) {
    return {{tr("weights"), e.memory.weightsBytes / kGiB},
            {tr("gradients"), e.memory.gradientsBytes / kGiB},
            {tr("optimizer"), e.memory.optimizerBytes / kGiB},
            {tr("activations"), e.memory.activationsBytes / kGiB},
            {tr("reserve"), e.memory.reserveBytes / kGiB}};
}

std::vector<BreakdownPlot::Part> BreakdownPlot::stepTimeParts(const PerfEstimate& e,
                                                              const GoodputShares& goodput) {
    std::vector<Part> parts;
    for (const TimeBreakdownField& field : timeBreakdownFields())
        parts.push_back({tr(field.label), e.time.*field.member});
    // What a long run adds to each step on average (Goodput.h): redone work, restarts, evaluation.
    parts.push_back({tr("redone work"), e.stepTimeS * goodput.lostWork});
    parts.push_back({tr("restarts"), e.stepTimeS * goodput.restart});
    parts.push_back({tr("evaluation"), e.stepTimeS * goodput.evaluation});
    return parts;
}

void BreakdownPlot::addPanel(QCPLayoutGrid* panels, QCPMarginGroup* margins, int row,
                             const std::vector<Part>& parts, const QString& unit, double limit) {
    auto* rect = new QCPAxisRect(this);
    panels->addElement(row, 0, rect);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    rect->setMinimumMargins(QMargins(10, 10, 20, 10));
    QCPAxis* partAxis = rect->axis(QCPAxis::atLeft);
    QCPAxis* amount = rect->axis(QCPAxis::atBottom);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keys;
    QVector<double> values;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        ticker->addTick(static_cast<double>(i + 1), parts[i].name);
        keys << static_cast<double>(i + 1);
        values << parts[i].value;
    }
    partAxis->setTicker(ticker);
    partAxis->setRangeReversed(true); // the first part on top
    partAxis->setRange(0.3, static_cast<double>(parts.size()) + 0.7);
    amount->setLabel(unit);
    auto* bars = new QCPBars(partAxis, amount);
    bars->setData(keys, values, true);
    QColor fill = m_theme.quantity;
    fill.setAlpha(170);
    bars->setBrush(fill);
    bars->setPen(QPen(m_theme.quantity));
    double top = 0;
    for (const double v : values)
        top = std::max(top, v);
    amount->setRange(0, std::max(top, limit) * 1.15 + 1e-9);
    if (limit > 0) { // the GPU's memory, for scale
        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(rect);
        line->point1->setAxes(amount, partAxis);
        line->point2->setAxes(amount, partAxis);
        line->point1->setCoords(limit, 0);
        line->point2->setCoords(limit, 1);
        line->setPen(QPen(m_theme.limit, 1.5, Qt::DashLine));
    }
}

} // namespace carbon3d::ui
