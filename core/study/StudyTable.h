// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredStudy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
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

// What every view of a study's rows shares: its axis columns and the policy savings are measured against.
struct StudyHeader {
    std::vector<std::string> axisColumns;
    std::string baselinePolicy;
    int column(const std::string& name) const; // index into axisColumns, -1 when absent
};

struct StudyTable : StudyHeader {
    std::vector<StudyRow> rows; // in cell order
};

// The baseline policy's emissions per cell, keyed by every other axis's value (what "the same cell" means for
// savings). Values are coded per column, so that a key is four bytes an axis whatever the values' text: an
// export streams a million-cell study holding only these (issue 44 item 4).
class BaselineTotals {
public:
    BaselineTotals(const std::vector<std::string>& axisColumns, std::string baselinePolicy);
    void add(const StudyRow& row); // kept when it is a feasible row of the baseline policy
    // 1 - emissions / the baseline's emissions in the row's cell; NaN when the row is infeasible or its
    // cell's baseline is missing, infeasible or emits nothing.
    double savingsOf(const StudyRow& row) const;
    const std::string& baselinePolicy() const { return m_baselinePolicy; }

private:
    int m_policyColumn = -1;
    std::string m_baselinePolicy;
    std::vector<std::unordered_map<std::string, std::uint32_t>> m_codes; // per column
    std::unordered_map<std::string, double> m_totals;
};

// A stored cell as a row of the table (its savings still to be set).
StudyRow studyRowOf(const StoredStudy& study, StoredCell&& cell);

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
// The CSV's header and one row's line (each ending in a line break).
std::string studyCsvHeader(const std::vector<std::string>& axisColumns);
std::string studyCsvLine(const StudyRow& row);

} // namespace carbon3d
