// SPDX-License-Identifier: MIT
#include "plots/PlotTheme.h"

#include "engine/PolicyRegistry.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <qcustomplot.h>

namespace carbon3d::ui {

namespace {

constexpr const char* kAxisTitleProperty = "carbon3dAxisTitle";

// Okabe-Ito palette, ordered so that the first colours separate best on white (yellow last).
QVector<QColor> okabeIto() {
    return {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
            QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9),
            QColor(0x00, 0x00, 0x00), QColor(0xF0, 0xE4, 0x42)};
}

void styleAxis(QCPAxis* axis, const PlotTheme& theme) {
    QFont tickFont = axis->tickLabelFont();
    tickFont.setPointSize(theme.basePointSize);
    QFont labelFont = axis->labelFont();
    labelFont.setPointSize(theme.basePointSize + 1);
    axis->setTickLabelFont(tickFont);
    axis->setLabelFont(labelFont);
    axis->setTickLabelColor(theme.foreground);
    axis->setLabelColor(theme.foreground);
    const QPen axisPen(theme.foreground, theme.lineWidth > 2.0 ? 1.5 : 1.0);
    axis->setBasePen(axisPen);
    axis->setTickPen(axisPen);
    axis->setSubTickPen(axisPen);
    axis->grid()->setPen(QPen(theme.grid, 1, Qt::DotLine));
    // Axes above the grid. An axis rect added after the plot was built puts its axes on the layer current
    // then, below the grid, and the dotted grid line at 0 was drawn over the axis line: a stray dashed
    // line along every panel's zero.
    axis->setLayer(QStringLiteral("axes"));
    axis->grid()->setLayer(QStringLiteral("grid"));
}

} // namespace

namespace {

// A gradient through `stops`, evenly spaced from 0 to 1.
QCPColorGradient evenGradient(std::initializer_list<QColor> stops) {
    QCPColorGradient gradient;
    gradient.clearColorStops();
    const double last = static_cast<double>(stops.size() - 1);
    double index = 0.0;
    for (const QColor& colour : stops)
        gradient.setColorStopAt(index++ / last, colour);
    return gradient;
}

} // namespace

QCPColorGradient savingsGradient() {
    QCPColorGradient gradient =
        evenGradient({QColor(0xB2, 0x18, 0x2B), QColor(0xEF, 0x8A, 0x62), QColor(0xF7, 0xF7, 0xF7),
                      QColor(0x67, 0xA9, 0xCF), QColor(0x21, 0x66, 0xAC)});
    gradient.setNanHandling(QCPColorGradient::nhTransparent); // no cell there: the background shows
    return gradient;
}

QCPColorGradient ordinalGradient() {
    return evenGradient({QColor(0x44, 0x01, 0x54), QColor(0x3B, 0x52, 0x8B), QColor(0x21, 0x91, 0x8C),
                         QColor(0x5E, 0xC9, 0x62), QColor(0xFD, 0xE7, 0x25)});
}

PlotTheme screenTheme() {
    PlotTheme theme;
    theme.name = QStringLiteral("screen");
    theme.palette = okabeIto();
    return theme;
}

PlotTheme presentationTheme() {
    PlotTheme theme = screenTheme();
    theme.name = QStringLiteral("presentation");
    theme.basePointSize = 15;
    theme.lineWidth = 3.5;
    theme.grid = QColor(200, 200, 200);
    return theme;
}

PlotTheme paperTheme() {
    PlotTheme theme = screenTheme();
    theme.name = QStringLiteral("paper");
    theme.basePointSize = 7; // 7-8 pt is what journals ask of figure text at print size
    theme.lineWidth = 1.2;
    theme.legendIcon = QSize(18, 10); // the markers (7 + 2 x line width px) whole
    theme.titled = false;
    return theme;
}

QStringList themeNames() {
    return {QStringLiteral("screen"), QStringLiteral("presentation"), QStringLiteral("paper")};
}

PlotTheme themeByName(const QString& name) {
    if (name == QLatin1String("presentation"))
        return presentationTheme();
    if (name == QLatin1String("paper"))
        return paperTheme();
    return screenTheme();
}

void applyTheme(QCustomPlot& plot, const PlotTheme& theme) {
    plot.setBackground(theme.background);
    // Every axis, a colour scale's too (its axis rect is not among the plot's axisRects()).
    const QList<QCPAxis*> axes = plot.findChildren<QCPAxis*>();
    for (QCPAxis* axis : axes)
        styleAxis(axis, theme);
    if (plot.legend != nullptr) {
        QFont legendFont = plot.legend->font();
        legendFont.setPointSize(theme.basePointSize);
        plot.legend->setFont(legendFont);
        plot.legend->setTextColor(theme.foreground);
        plot.legend->setBrush(QColor(255, 255, 255, 220));
        // Tall enough for the largest marker in the legend: a ring cut at the icon's edges read as "( )".
        QSize icon = theme.legendIcon;
        for (int i = 0; i < plot.plottableCount(); ++i) {
            if (const auto* graph = qobject_cast<const QCPGraph*>(plot.plottable(i));
                graph != nullptr && plot.legend->hasItemWithPlottable(graph))
                icon.setHeight(
                    std::max(icon.height(), static_cast<int>(std::ceil(graph->scatterStyle().size())) + 2));
        }
        plot.legend->setIconSize(icon);
    }
    for (int i = 0; i < plot.plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot.plottable(i);
        QPen pen = plottable->pen();
        if (pen.style() != Qt::NoPen)
            pen.setWidthF(theme.lineWidth * (pen.style() == Qt::SolidLine ? 1.0 : 0.7));
        plottable->setPen(pen);
    }
    // Titles set above a panel instead of on its axis (markAsAxisTitle) look like axis titles.
    const QList<QCPTextElement*> titles = plot.findChildren<QCPTextElement*>();
    for (QCPTextElement* title : titles) {
        if (!title->property(kAxisTitleProperty).toBool())
            continue;
        QFont font = title->font();
        font.setPointSize(theme.basePointSize + 1);
        title->setFont(font);
        title->setTextColor(theme.foreground);
    }
    // Text items (titles, band labels) scale with the theme too.
    for (int i = 0; i < plot.itemCount(); ++i) {
        if (auto* text = qobject_cast<QCPItemText*>(plot.item(i))) {
            QFont font = text->font();
            font.setPointSize(theme.basePointSize);
            text->setFont(font);
        }
    }
}

void markAsAxisTitle(QCPTextElement* title) {
    title->setProperty(kAxisTitleProperty, true);
}

void placeLegendStrip(QCustomPlot& plot, QCPLegend* legend) {
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->setRowStretchFactor(0, 0.001);
    // The cell joins the plot before it takes the legend: a cell without a plot would hand the legend
    // none, and QCustomPlot warns ("initializeParentPlot ... called with parentPlot zero").
    auto* cell = new QCPLayoutGrid;
    plot.plotLayout()->addElement(0, 0, cell);
    cell->addElement(0, 0, legend);
    cell->addElement(0, 1, new QCPLayoutElement(&plot)); // takes the rest of the row
    cell->setColumnStretchFactor(0, 0.001);
}

QColor policyColour(const QString& policy, const PlotTheme& theme) {
    if (const PolicyInfo* info = findPolicy(policy.toStdString()))
        return QColor::fromRgb(info->look.colourRgb);
    const QVector<QColor>& palette = theme.palette;
    return palette[static_cast<int>(qHash(policy) % static_cast<size_t>(palette.size()))];
}

Qt::PenStyle policyDash(const QString& policy) {
    const PolicyInfo* info = findPolicy(policy.toStdString());
    return info && info->look.dash == LineDash::Dashed ? Qt::DashLine : Qt::SolidLine;
}

QCPScatterStyle policyScatterStyle(const QString& policy, const PlotTheme& theme, double size) {
    QCPScatterStyle::ScatterShape shape = QCPScatterStyle::ssCircle;
    if (const PolicyInfo* info = findPolicy(policy.toStdString())) {
        switch (info->look.marker) {
        case PlotMarker::Circle:
            shape = QCPScatterStyle::ssCircle;
            break;
        case PlotMarker::Disc:
            shape = QCPScatterStyle::ssDisc;
            break;
        case PlotMarker::Square:
            shape = QCPScatterStyle::ssSquare;
            break;
        case PlotMarker::Diamond:
            shape = QCPScatterStyle::ssDiamond;
            break;
        case PlotMarker::Star:
            shape = QCPScatterStyle::ssStar;
            break;
        case PlotMarker::Triangle:
            shape = QCPScatterStyle::ssTriangle;
            break;
        case PlotMarker::TriangleInverted:
            shape = QCPScatterStyle::ssTriangleInverted;
            break;
        case PlotMarker::Cross:
            shape = QCPScatterStyle::ssCross;
            break;
        case PlotMarker::Plus:
            shape = QCPScatterStyle::ssPlus;
            break;
        case PlotMarker::CrossSquare:
            shape = QCPScatterStyle::ssCrossSquare;
            break;
        case PlotMarker::PlusSquare:
            shape = QCPScatterStyle::ssPlusSquare;
            break;
        case PlotMarker::CrossCircle:
            shape = QCPScatterStyle::ssCrossCircle;
            break;
        case PlotMarker::PlusCircle:
            shape = QCPScatterStyle::ssPlusCircle;
            break;
        case PlotMarker::Peace:
            shape = QCPScatterStyle::ssPeace;
            break;
        }
    }
    const QColor colour = policyColour(policy, theme);
    const bool filled = shape == QCPScatterStyle::ssDisc;
    return {shape, QPen(colour, std::max(1.5, theme.lineWidth * 0.8)),
            filled ? QBrush(colour) : QBrush(Qt::NoBrush), size};
}

} // namespace carbon3d::ui
