// SPDX-License-Identifier: MIT
#include "plots/StudyPlot.h"

#include "engine/PolicyRegistry.h"
#include "plots/FigureData.h"
#include "plots/TimeAxisTicker.h"

#include <algorithm>
#include <cmath>

namespace carbon3d::ui {

namespace {

// Enough columns for every hour of two years: a finer grid only costs memory and paint time.
constexpr double kMostHeatmapColumns = 20000.0;

QString policyName(const std::string& label) {
    return QString::fromStdString(label).section(QLatin1Char(' '), 0,
                                                 0); // "multi-region (...)" -> its policy
}

} // namespace

StudyPlot::StudyPlot(QWidget* parent)
    : FittedPlot(parent)
    , m_theme(screenTheme()) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setAutoAddPlottableToLegend(false); // lines join their legend by hand; the heatmap has none
}

void StudyPlot::setFigure(Kind kind, const StudyFigureData& data) {
    m_kind = kind;
    m_data = data;
    rebuild();
}

void StudyPlot::setTheme(const PlotTheme& theme) {
    m_theme = theme;
    rebuild();
}

void StudyPlot::rebuild() {
    // A fresh layout per figure: the heatmap's right column is its colour scale, the lines' their legend.
    clearPlottables();
    clearItems();
    plotLayout()->clear();
    legend = nullptr; // it lived in the cleared layout
    m_rect = new QCPAxisRect(this);
    plotLayout()->addElement(0, 0, m_rect);
    m_x = m_rect->axis(QCPAxis::atBottom);
    m_y = m_rect->axis(QCPAxis::atLeft);
    m_x->setLabel(QString::fromStdString(m_data.xLabel));
    m_y->setLabel(QString::fromStdString(m_data.yLabel));
    if (m_data.lines.empty() && m_data.heatmap.regions.empty()) {
        // Nothing to draw yet: the figure's note says what will be here, centred in the empty axes.
        auto* note = new QCPItemText(this);
        note->setClipAxisRect(m_rect);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setAxisRect(m_rect);
        note->position->setCoords(0.5, 0.5);
        note->setText(QString::fromStdString(m_data.note));
        m_x->setTickLabels(false);
        m_y->setTickLabels(false);
    } else if (m_kind == Kind::Heatmap) {
        buildHeatmap();
    } else if (m_kind == Kind::Split) {
        buildSplitBars();
    } else {
        buildLines();
    }
    applyTheme(*this, m_theme);
    replot(QCustomPlot::rpQueuedReplot);
}

// The map is drawn on a grid as fine as the starts' common step (coarser when that would pass
// kMostHeatmapColumns), each grid column coloured by the start whose span holds it: a start fills its span
// until the next, so monthly starts fill the map as hourly ones do.
void StudyPlot::buildHeatmap() {
    const StudyHeatmap& map = m_data.heatmap;
    auto* colours = new QCPColorMap(m_x, m_y);
    const int rows = static_cast<int>(map.regions.size());
    const auto first = static_cast<double>(map.starts.front());
    const auto span = static_cast<double>(map.endUtc - map.starts.front());
    const double step = std::max(static_cast<double>(map.spacing), span / kMostHeatmapColumns);
    const int columns = std::max(1, static_cast<int>(std::lround(span / step)));
    // Each grid cell is drawn as 2 x 2 equal sub-cells: QCustomPlot spreads a map's cells over the range of
    // their centres, which is empty (and nothing is drawn) for a single region or a single column.
    colours->data()->setSize(2 * columns, 2 * std::max(1, rows));
    colours->setName(QString::fromStdString(map.policy));
    colours->data()->setRange(QCPRange(first + step / 4, first + (columns - 0.25) * step),
                              QCPRange(-0.25, rows - 0.75));
    double extreme = 0.0;
    for (int c = 0; c < columns; ++c) {
        const int start = map.columnAt(static_cast<UtcSeconds>(first + (c + 0.5) * step));
        for (int r = 0; r < rows; ++r) {
            const double value = start < 0 ? std::nan("")
                                           : map.savings[static_cast<std::size_t>(r) * map.starts.size() +
                                                         static_cast<std::size_t>(start)] *
                                                 100.0;
            for (int sub = 0; sub < 4; ++sub)
                colours->data()->setCell(2 * c + sub % 2, 2 * r + sub / 2, value);
            if (std::isfinite(value))
                extreme = std::max(extreme, std::abs(value));
        }
    }
    colours->setGradient(savingsGradient());
    colours->setInterpolate(false);
    colours->setDataRange(QCPRange(-std::max(extreme, 0.1), std::max(extreme, 0.1))); // 0 at the centre
    auto* scale = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, scale);
    scale->setType(QCPAxis::atRight);
    scale->setGradient(savingsGradient());
    scale->setDataRange(colours->dataRange());
    scale->axis()->setLabel(QString::fromStdString(map.scaleLabel));
    colours->setColorScale(scale);
    // No saving is white: the background is grey, so that a cell that saved nothing shows, and a start with
    // no cell (NaN, transparent) reads as missing.
    m_rect->setBackground(m_theme.missing);
    auto* margins = new QCPMarginGroup(this);
    m_rect->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);

    QSharedPointer<QCPAxisTickerText> regions(new QCPAxisTickerText);
    for (int r = 0; r < rows; ++r)
        regions->addTick(r, QString::fromStdString(map.regions[static_cast<std::size_t>(r)]));
    m_y->setTicker(regions);
    m_y->setSubTicks(false);
    m_y->setRange(-0.5, rows - 0.5);
    QSharedPointer<TimeAxisTicker> dates(new TimeAxisTicker);
    m_x->setTicker(dates);
    m_x->setRange(first, static_cast<double>(map.endUtc));
    // What each cell holds fixed or pools, under the axis: a cell is one run only when nothing is pooled.
    if (!m_data.note.empty())
        m_x->setLabel(QStringLiteral("%1 \u2014 %2").arg(m_x->label(), QString::fromStdString(m_data.note)));
}

// The legend outside the data, a strip above it: in a column to the right it took half a paper column's
// width from the data.
void StudyPlot::addLegendStrip() {
    legend = new QCPLegend;
    placeLegendStrip(*this, legend);
    legend->setLayer(QStringLiteral("legend"));
}

// Zero savings is the reference every line and bar is read against: a dotted line at 0 on the savings axis.
void StudyPlot::addZeroLine(bool savingsOnX) {
    auto* zero = new QCPItemStraightLine(this);
    zero->setClipAxisRect(m_rect);
    zero->point1->setAxes(m_x, m_y);
    zero->point2->setAxes(m_x, m_y);
    zero->point1->setCoords(0, 0);
    zero->point2->setCoords(savingsOnX ? 0 : 1, savingsOnX ? 1 : 0);
    zero->setPen(QPen(m_theme.foreground, 1, Qt::DotLine));
}

void StudyPlot::buildLines() {
    addLegendStrip();
    for (const StudyLine& line : m_data.lines) {
        const QString name = QString::fromStdString(line.policy);
        const QColor colour = policyColour(policyName(line.policy), m_theme);
        QVector<double> x;
        QVector<double> y;
        for (std::size_t i = 0; i < line.x.size(); ++i) {
            x << line.x[i] * 100.0; // savings, slack and error levels are all fractions, drawn in percent
            y << line.y[i] * 100.0;
        }
        if (!line.low.empty()) { // the band first, under its line
            QCPGraph* low = addGraph(m_x, m_y);
            QCPGraph* high = addGraph(m_x, m_y);
            QVector<double> lows;
            QVector<double> highs;
            for (std::size_t i = 0; i < line.low.size(); ++i) {
                lows << line.low[i] * 100.0;
                highs << line.high[i] * 100.0;
            }
            low->setData(x, lows, true);
            high->setData(x, highs, true);
            QColor fill = colour;
            fill.setAlpha(50);
            low->setPen(Qt::NoPen);
            high->setPen(Qt::NoPen);
            high->setBrush(fill);
            high->setChannelFillGraph(low);
        }
        QCPGraph* graph = addGraph(m_x, m_y);
        graph->addToLegend(legend);
        const PolicyInfo* info = findPolicy(policyName(line.policy).toStdString());
        graph->setName(m_kind == Kind::Slack && info != nullptr && info->traits.perfectKnowledge
                           ? tr("%1 (the bound)").arg(name)
                           : name);
        graph->setData(x, y, true);
        QPen pen(colour, m_theme.lineWidth, policyDash(policyName(line.policy)));
        graph->setPen(pen);
        if (m_kind == Kind::Cdf) {
            graph->setLineStyle(QCPGraph::lsStepLeft);
        } else {
            graph->setScatterStyle(
                policyScatterStyle(policyName(line.policy), m_theme, 6 + m_theme.lineWidth * 2));
        }
    }
    legend->setVisible(!m_data.lines.empty());
    m_x->rescale();
    m_y->rescale();
    const QCPRange x = m_x->range();
    const QCPRange y = m_y->range();
    const double padX = std::max(x.size() * 0.05, 0.5);
    m_x->setRange(x.lower - padX, x.upper + padX);
    if (m_kind == Kind::Cdf)
        m_y->setRange(0, 100);
    else
        m_y->setRange(std::min(0.0, y.lower) - std::max(y.size() * 0.08, 0.5),
                      std::max(0.0, y.upper) + std::max(y.size() * 0.08, 0.5));
    addZeroLine(m_kind == Kind::Cdf); // the CDF has savings on x: a vertical line at 0
}

// Three bars per group (a policy at one end of the attribution), one per part of the saving, coloured by
// part: grouped rather than stacked, since a part can be negative (reshaping that emits more).
void StudyPlot::buildSplitBars() {
    addLegendStrip();
    const std::vector<std::string>& parts = savingSplitParts();
    const double width = 0.8 / static_cast<double>(parts.size());
    QSharedPointer<QCPAxisTickerText> groups(new QCPAxisTickerText);
    for (std::size_t g = 0; g < m_data.lines.size(); ++g) {
        const StudyLine& line = m_data.lines[g];
        groups->addTick(static_cast<double>(g), QString::fromStdString(line.policy + "\n" + line.variant));
    }
    for (std::size_t part = 0; part < parts.size(); ++part) {
        auto* bars = new QCPBars(m_x, m_y);
        bars->setName(QString::fromStdString(parts[part]));
        bars->addToLegend(legend);
        bars->setWidth(width);
        const QColor colour = m_theme.palette.value(static_cast<int>(part) %
                                                    std::max(1, static_cast<int>(m_theme.palette.size())));
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130)));
        QVector<double> x;
        QVector<double> y;
        for (std::size_t g = 0; g < m_data.lines.size(); ++g) {
            x << static_cast<double>(g) + (static_cast<double>(part) - 1.0) * width;
            y << m_data.lines[g].y[part] * 100.0;
        }
        bars->setData(x, y, true);
    }
    m_x->setTicker(groups);
    m_x->setSubTicks(false);
    // Beyond four groups the two-line labels of neighbours meet: slanted, they do not.
    m_x->setTickLabelRotation(m_data.lines.size() > 4 ? -30.0 : 0.0);
    m_x->setTickLength(0, 0);
    m_x->setRange(-0.6, static_cast<double>(m_data.lines.size()) - 0.4);
    m_y->rescale();
    const QCPRange y = m_y->range();
    const double pad = std::max(y.size() * 0.08, 0.5);
    m_y->setRange(std::min(0.0, y.lower) - pad, std::max(0.0, y.upper) + pad);
    addZeroLine(false);
}

} // namespace carbon3d::ui
