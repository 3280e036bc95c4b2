// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/RunResult.h"
#include "perf/ConfigurationLandscape.h"
#include "plots/FigureExporter.h"
#include "plots/FigureKinds.h"
#include "plots/PlottedRun.h"
#include "storage/StoredRun.h"
#include "study/StudyFigures.h"

#include <QString>
#include <memory>
#include <vector>

// Builds a figure offscreen and writes it, without the caller touching QCustomPlot: shared by the
// studio's exports and `carbon3d-cli plot` (which keeps the strict Qt keyword rules of the CLI code).
namespace carbon3d::ui {

struct FigureRequest {
    FigureKind kind = FigureKind::Timeline;
    // Timeline, emissions, power:
    std::vector<PlottedRun> runs;
    CarbonTrace trace; // empty: each run's own intensity is drawn
    UtcSeconds from = 0;
    UtcSeconds to = 0;
    UtcSeconds deadline = 0;
    // Compare, cost:
    std::vector<RunSummary> summaries;
    // Configurations:
    ConfigurationLandscape landscape;
    double memoryCapacityBytes = 0.0;
    // Study figures (core/study/StudyFigures.h):
    StudyFigureData study;
    // All:
    QString theme = QStringLiteral("screen"); // or "presentation"
    FigureSize size;
    FigureMetadata metadata;
};

// The figure laid out at the request's size and theme, ready to paint (what renderFigure writes).
std::unique_ptr<QCustomPlot> buildFigure(const FigureRequest& request);

// Renders and writes the figure, and its data as CSV (ui/plots/FigureData.h) when `dataPath` is given; an
// empty string on success, otherwise the problem (naming the file). Needs a QApplication (widgets render
// offscreen with QT_QPA_PLATFORM=offscreen).
QString renderFigure(const FigureRequest& request, const QString& path, const QString& dataPath = {});

} // namespace carbon3d::ui
