// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FigureExporter.h"

#include <QString>
#include <vector>

namespace carbon3d::ui {

// The sizes figures are exported at, one table: the Export dialog's "Size for" list, `plot --preset` and
// the figure-layout test (every kind at every preset, tests/ui/tst_figurelayout.cpp) read it. Paper widths
// are the common column widths of two-column journals and proceedings (about 8.5 cm and 17.5 cm); 300 dpi
// is what print asks of raster figures.
struct FigurePreset {
    const char* id;    // as --preset spells it: "slide", "paper-column", ...
    const char* label; // for the dialog: "Paper, one column (8.5 x 6 cm, 300 dpi)"
    double width, height;
    SizeUnit unit;
    int dpi;
    const char* theme; // PlotTheme name
    FigureSize size() const { return {toPixels(width, unit, dpi), toPixels(height, unit, dpi), dpi}; }
};

const std::vector<FigurePreset>& figurePresets();
const FigurePreset* findFigurePreset(const QString& id); // nullptr for an unknown id

} // namespace carbon3d::ui
