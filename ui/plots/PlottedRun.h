// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"

#include <QString>

namespace carbon3d::ui {

// A run as the plots show it: a name for the legend and its result. Kept apart from the plot classes so
// that code built without QCustomPlot (the CLI's plot command) can name runs too.
struct PlottedRun {
    QString name; // policy name, or "#id policy" when comparing stored runs
    RunResult result;
};

} // namespace carbon3d::ui
