// SPDX-License-Identifier: MIT
#include "plots/FigurePresets.h"

namespace carbon3d::ui {

const std::vector<FigurePreset>& figurePresets() {
    static const std::vector<FigurePreset> presets = {
        {"slide", "Slide, 16:10 (1600 x 1000 px)", 1600, 1000, SizeUnit::Pixels, 96, "presentation"},
        {"paper-column", "Paper, one column (8.5 x 6 cm, 300 dpi)", 8.5, 6.0, SizeUnit::Centimetres, 300,
         "paper"},
        {"paper-two-columns", "Paper, two columns (17.5 x 9 cm, 300 dpi)", 17.5, 9.0, SizeUnit::Centimetres,
         300, "paper"},
        {"screen", "Screen (1600 x 1000 px)", 1600, 1000, SizeUnit::Pixels, 96, "screen"},
    };
    return presets;
}

const FigurePreset* findFigurePreset(const QString& id) {
    for (const FigurePreset& preset : figurePresets()) {
        if (id == QLatin1String(preset.id))
            return &preset;
    }
    return nullptr;
}

} // namespace carbon3d::ui
