// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FigureExporter.h"

#include <QString>

class QCustomPlot;

namespace carbon3d::ui {

// The numbers a figure draws, as one tidy CSV table for reviewers and co-authors (issue 45, item 3;
// docs/DATA.md "Data beside a figure"). Read from the plot itself, so every figure kind has it without a
// table of its own:
// - one row per plotted point (a line's or a scatter's point, a bar) or heatmap cell; columns `series`,
//   the x axis's title (times as ISO 8601 UTC, categories by their tick labels), for a heatmap its y axis's
//   title, then one column per quantity plotted, titled by its axis with the unit it shows;
// - first, comment lines (`# `) with the figure's title, scenario, run ids and the program's version, as the
//   figure file's metadata says them (pandas: read_csv(path, comment="#")).
// Everything drawn is written; what follows the mouse (the hover layer) and hidden plottables are not. An
// unnamed plottable is "series N", N its place in the plot.
QString figureDataCsv(QCustomPlot& plot, const FigureMetadata& metadata);

// Writes figureDataCsv to `path` atomically. Empty on success, otherwise the problem, naming the file.
QString exportFigureData(QCustomPlot& plot, const QString& path, const FigureMetadata& metadata);

// The figure (exportFigure), then, when `dataPath` is not empty and the figure was written, its data: what
// every export with its numbers does. Empty on success, otherwise the first problem.
QString exportFigureAndData(QCustomPlot& plot, const QString& path, const FigureSize& size,
                            const FigureMetadata& metadata, const QString& dataPath);

// Where a figure's data goes when written beside it: FILE.png -> FILE.csv.
QString dataPathBeside(const QString& figurePath);

// An axis rect whose title is drawn above it rather than on its value axis (the timeline's panels) carries
// the title in this dynamic property: the value axis's column in the data.
inline constexpr const char* kPanelTitleProperty = "carbon3dPanelTitle";

} // namespace carbon3d::ui
