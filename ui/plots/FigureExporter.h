// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace carbon3d::ui {

enum class FigureFormat { Png, Svg, Pdf };

// Text embedded in the exported file so a figure can be traced back to what produced it.
struct FigureMetadata {
    QString title;               // e.g. "Cumulative emissions"
    QString scenarioName;        // e.g. "GPT-3 175B, California, June 2022"
    QStringList runIds;          // results-store ids of the runs shown
    QString description() const; // "Scenario: ...; runs: 3, 4; Carbon3D 0.1.0"
};

// Explicit output geometry: figures are rendered at a document size, never at the screen's. The printed
// size is pixels / dpi inches, and fonts (in points) keep their printed size: at 300 dpi a 9 pt label is
// 9/72 in tall whatever the pixel count. At 96 dpi one pixel is one screen pixel.
struct FigureSize {
    int widthPx = 1600;
    int heightPx = 1000;
    int dpi = 96;
    double widthInches() const { return widthPx / static_cast<double>(dpi); }
    double heightInches() const { return heightPx / static_cast<double>(dpi); }
    // The size a 96-dpi screen would show the printed figure at: what the plot is laid out at before it
    // is rendered at dpi / 96 times that (at least 1 x 1).
    QSize layoutSize() const;
};

// Units a figure size may be given in.
enum class SizeUnit { Pixels, Centimetres, Inches };
// `value` in `unit` as pixels at `dpi`, rounded; and back.
int toPixels(double value, SizeUnit unit, int dpi);
double fromPixels(int pixels, SizeUnit unit, int dpi);

// Layers whose items follow the mouse (crosshairs, hover markers): never exported.
inline constexpr const char* kHoverLayer = "overlay";

// Format from the file name's extension (.png, .svg, .pdf); false when unsupported.
bool figureFormatFromPath(const QString& path, FigureFormat* format);

// Renders the plot into a file, atomically (written beside the target, then renamed).
// Returns an empty string on success, otherwise a message naming the file and the problem.
QString exportFigure(QCustomPlot& plot, const QString& path, const FigureSize& size,
                     const FigureMetadata& metadata);

} // namespace carbon3d::ui
