// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QFont>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QVector>

class QCustomPlot;
class QCPColorGradient;
class QCPScatterStyle;
class QCPLayoutGrid;
class QCPLegend;
class QCPTextElement;

namespace carbon3d::ui {

// Every visual choice of the plots in one place (docs/ARCHITECTURE.md, "UI conventions").
struct PlotTheme {
    QString name;
    int basePointSize = 9;  // axis tick labels; titles and axis labels are derived from it
    double lineWidth = 1.6; // series pens, px
    QColor background = Qt::white;
    QColor foreground = Qt::black;
    QColor grid = QColor(220, 220, 220);
    QVector<QColor> palette; // colour-blind-safe series colours (Okabe and Ito, 2008)
    // Roles beside the series, so that no plot spells a colour of its own:
    QColor reference = QColor(90, 90, 90);    // the hover line that follows the mouse
    QColor truth = QColor(60, 60, 60);        // the carbon intensity that happened, beside its forecast
    QColor accent = QColor(0xD5, 0x5E, 0x00); // dynamic-3d's menu (Okabe-Ito vermillion)
    // The forecast beside the truth: a grey no policy draws in (in vermillion it read as dynamic-3d's).
    QColor forecast = QColor(0x80, 0x80, 0x80);
    QColor limit = QColor(0xB0, 0x00, 0x20);    // a bound not to cross: the deadline, the GPU's memory
    QColor inactive = QColor(150, 150, 150);    // GPUs held but not training; a configuration off the menu
    QColor missing = QColor(0xBD, 0xBD, 0xBD);  // a heatmap cell with no run behind it
    QColor quantity = QColor(0x00, 0x72, 0xB2); // one quantity's bars (Okabe-Ito blue)
    QSize legendIcon = QSize(32, 18);
    bool titled = true; // exported figures carry the scenario as a title (paper: the caption does)
};

PlotTheme screenTheme();
// Large fonts and thick lines for slides; the same colour-blind-safe palette.
PlotTheme presentationTheme();
// Small fonts and thin lines for a figure printed at its size in a paper (one or two columns).
PlotTheme paperTheme();
// The themes by name, in menu order: "screen", "presentation", "paper".
QStringList themeNames();
PlotTheme themeByName(const QString& name); // unknown names: screen

// Diverging and colour-blind-safe (ColorBrewer RdBu) for savings: red where a policy emits more than the
// baseline, near-white at no change, blue where it saves; NaN (no cell) transparent.
QCPColorGradient savingsGradient();
// Perceptually uniform and colour-blind-safe (viridis stops) for an ordinal quantity such as d.
QCPColorGradient ordinalGradient();

// Applies fonts, colours and pen widths to every axis rect, legend and graph of the plot.
void applyTheme(QCustomPlot& plot, const PlotTheme& theme);

// `title`, a text element of the plot's layout, names a panel as an axis title would: applyTheme styles it
// as one.
void markAsAxisTitle(QCPTextElement* title);

// Places `legend` outside the data, a strip of its own in a new first row of the plot's layout: the legend
// at the left at its own size, filled row by row (FittedPlot wraps it to the columns that fit), an empty
// element taking the rest of the row. Alone in its cell, a legend is stretched over it, or caps the width
// of the panels that share its column at its own.
void placeLegendStrip(QCustomPlot& plot, QCPLegend* legend);

// How a policy is drawn on every plot and page: its colour, dash and marker come from the policy catalogue
// (engine/PolicyRegistry.h), so two policies never look alike. Names the catalogue does not know get a
// stable colour from the theme's palette, solid, with a circle.
QColor policyColour(const QString& policy, const PlotTheme& theme);
Qt::PenStyle policyDash(const QString& policy);
QCPScatterStyle policyScatterStyle(const QString& policy, const PlotTheme& theme, double size);

} // namespace carbon3d::ui
