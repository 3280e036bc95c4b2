// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "domain/Scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace carbon3d {

// A study as the studio's Study page describes it: starts every N hours over a range, regions, slacks,
// policies, who pays for parked GPUs and forecast error levels with seeds, over a base scenario. The study
// file (studyPlanJson) is what loadStudy reads, and plannedCellCount counts that file's cells by the
// reader's own rules without reading traces or expanding a cell (the page shows it after every edit).
struct StudyPlan {
    std::string name;
    UtcSeconds from = 0;
    UtcSeconds to = 0;
    double everyHours = 24.0;
    std::vector<std::string> regions; // bundled ids or trace files
    std::vector<double> slacks;       // fractions of the static-max runtime
    std::vector<std::string> policies;
    bool parkedIdle = true;     // "idle": a dedicated reservation (backfill 0)
    bool parkedReleased = true; // "released": a shared cluster (backfill 1)
    std::string noisyForecast;  // a forecast kind that takes an error level (forecastCatalog)
    std::vector<double> errors; // fractions; none: the base scenario's forecast only
    int seeds = 1;              // per error level
    bool splitSavings = false;  // the study file's "split_savings" (StudyDefinition::splitSavings)
};

// The study file: the base scenario inline (trace paths written relative to `directory`) and one axis per
// part of the plan.
JsonValue studyPlanJson(const StudyPlan& plan, const Scenario& base, const std::string& directory);

// How many cells the plan's study file has: the product of its axes' value counts (0 when an axis is empty).
std::uint64_t plannedCellCount(const StudyPlan& plan);

// How many starts a start range has, as the study reader expands it: from, then every `everyHours` up to
// and including `to`; 0 when `to` is before `from`.
double startRangeCount(UtcSeconds from, UtcSeconds to, double everyHours);

} // namespace carbon3d
