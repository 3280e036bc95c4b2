// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredStudy.h"

#include <string>
#include <vector>

namespace carbon3d {

// A study's saved cells as one table, a row per cell (the policy is an axis like the others): the axis
// columns, then the metrics below. What `study export --csv` writes and the study figures draw.
struct StudyRow {
    std::int64_t index = 0;
    std::vector<std::string> values; // per axis column
    bool feasible = false;
    std::string reason;
    RunMetrics metrics;
    // 1 - emissions / the baseline policy's emissions in the same cell (every other axis equal); NaN
    // when that cell is missing or infeasible.
    double savingsVsBaseline = 0.0;
};

struct StudyTable {
    std::vector<std::string> axisColumns;
    std::vector<StudyRow> rows; // in cell order
    std::string baselinePolicy;
    int column(const std::string& name) const; // index into axisColumns, -1 when absent
};

// `baselinePolicy` is a value of the policy column (a policy's run label, e.g. "static-max").
StudyTable studyTable(const StoredStudy& study, const std::vector<StoredCell>& cells,
                      const std::string& baselinePolicy);
// The same from rows already read (their savings are recomputed): the studio's table of a running study.
StudyTable studyTable(std::vector<std::string> axisColumns, std::vector<StudyRow> rows,
                      const std::string& baselinePolicy);

// The metric columns after the axis columns, in order, and one row's texts in them.
const std::vector<std::string>& studyMetricColumns();
std::vector<std::string> studyMetricTexts(const StudyRow& row);

// The table as CSV (a header of the axis and metric columns, a line per cell), written atomically: a
// reader never sees half a file. InputError naming the file when it cannot be written.
void writeStudyCsv(const StudyTable& table, const std::string& path);

} // namespace carbon3d
