// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Time.h"
#include "study/StudyTable.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace carbon3d {

// What the study figures draw, computed from a study's table (ui/plots/StudyPlot draws it). Savings are
// fractions (1 - emissions / the baseline policy's in the same cell); infeasible cells and cells without a
// baseline are left out, and each figure says how many it left out.

// One policy's line: x ascending; low and high bound a band (the spread over seeds), or are empty.
struct StudyLine {
    std::string policy; // the policy column's value (its run label)
    std::vector<double> x, y, low, high;
    std::string variant; // what else tells lines of one policy apart (the split figure's end: "charged")
};

// Savings per start and region for one policy: rows are regions (in the study's order), a column per start
// (ascending), NaN where no cell was drawn. Each start's column spans until the next start, the last one as
// long as the gap before it, so monthly starts fill the map as hourly ones do. A cell that varies other axes
// too (slack, forecast) is the mean over them, and the figure's note says so (filter first to see one value).
struct StudyHeatmap {
    std::string policy;
    std::string scaleLabel; // "dynamic-3d: savings against static-max (%)"
    std::vector<std::string> regions;
    std::vector<UtcSeconds> starts;
    // The starts' common step, the largest that divides every gap (a day for a single start): the grid the
    // figure is drawn on.
    UtcSeconds spacing = 0;
    UtcSeconds endUtc = 0;       // where the last start's column ends
    std::vector<double> savings; // regions x starts, row-major
    // The same layout: the lowest index of a feasible cell of the policy there (of those it pools), -1 where
    // there is none: what a click opens.
    std::vector<std::int64_t> cells;

    // The column whose span holds `utc`; -1 before the first start or past the last one's span.
    int columnAt(UtcSeconds utc) const;
};

struct StudyFigureData {
    std::string xLabel;
    std::string yLabel;
    std::vector<StudyLine> lines;
    StudyHeatmap heatmap;    // the heatmap figure only
    std::size_t leftOut = 0; // cells not drawn: infeasible, or no baseline in their cell
    std::string note;        // what the figure pools over or holds fixed, for its caption
};

// The rows a figure reads, in one pass: a table in memory (TableRows), or a stored study read as it goes
// (StudyStoreReading.h), so that a figure's memory follows what it draws, not the study's size (issue 44).
class StudyRowSource {
public:
    virtual ~StudyRowSource() = default;
    virtual const StudyHeader& header() const = 0;
    virtual void forEachRow(const std::function<void(const StudyRow&)>& visit) const = 0;
};

class TableRows final : public StudyRowSource {
public:
    explicit TableRows(const StudyTable& table)
        : m_table(table) {}
    const StudyHeader& header() const override { return m_table; }
    void forEachRow(const std::function<void(const StudyRow&)>& visit) const override {
        for (const StudyRow& row : m_table.rows)
            visit(row);
    }

private:
    const StudyTable& m_table;
};

// The rows of another source that `keep` accepts: a plot's --filter, the heatmap's facets.
class KeptRows final : public StudyRowSource {
public:
    KeptRows(const StudyRowSource& rows, std::function<bool(const StudyRow&)> keep)
        : m_rows(rows)
        , m_keep(std::move(keep)) {}
    const StudyHeader& header() const override { return m_rows.header(); }
    void forEachRow(const std::function<void(const StudyRow&)>& visit) const override {
        m_rows.forEachRow([&](const StudyRow& row) {
            if (m_keep(row))
                visit(row);
        });
    }

private:
    const StudyRowSource& m_rows;
    std::function<bool(const StudyRow&)> m_keep;
};

// The table's axis columns grouped by the axis they come from: a column each, but the forecast axis's error
// and seed columns, which join its kind (a facet or a note takes the three as one value).
struct StudyAxisGroup {
    std::string name;         // the first column's: "slack", "forecast"
    std::vector<int> columns; // into StudyHeader::axisColumns
};
std::vector<StudyAxisGroup> studyAxisGroups(const StudyHeader& header);
// A row's value of a group, for people: "0.25", "operational", "noisy (forecast_error 0.1, forecast_seed 3)";
// empty parts are left out.
std::string axisGroupText(const StudyHeader& header, const StudyAxisGroup& group, const StudyRow& row);

// A group's values over the rows added, in the study's order: the first cell with each value first,
// whatever order the cells came in (a running study's table lists them as they finish).
class AxisValuesInOrder {
public:
    AxisValuesInOrder(const StudyHeader& header, StudyAxisGroup group);
    void add(const StudyRow& row);
    std::vector<std::string> values() const;
    const std::string& groupName() const { return m_group.name; }

private:
    const StudyHeader& m_header;
    StudyAxisGroup m_group;
    std::map<std::string, std::int64_t> m_firstCell;
};
// The calendar heatmap of savings: starts x regions, one policy (needs the start and region axes). Its note
// names every other axis: the value it holds ("gpus 1024") or, where it pools several, "mean over slack
// (0.25, 1)".
StudyFigureData studySavingsHeatmap(const StudyRowSource& rows, const std::string& policy);
// GAIA's view: per policy, the empirical CDF of savings over every drawn cell.
StudyFigureData studySavingsCdf(const StudyRowSource& rows);
// Mean savings against slack (needs the slack axis), a line per policy; the oracle's line is the bound.
StudyFigureData studySavingsBySlack(const StudyRowSource& rows);
// Where the savings come from (a study run with "split_savings"; docs/STUDIES.md): per policy and end of the
// attribution of parked GPUs (charged to the job, released to other work), the mean over its cells of the
// three parts of its saving (savingSplitParts(): x = 0, 1, 2), each a fraction of the baseline's emissions at
// that end. The baseline policy itself is left out (its parts are 0 by definition).
StudyFigureData studySavingSplit(const StudyRowSource& rows);
// The three parts, in the split figure's order: for people, in a legend.
const std::vector<std::string>& savingSplitParts();
// Mean savings against the forecast's error level with the band from the worst to the best seed (needs
// the forecast axis with noisy levels), a line per policy.
StudyFigureData studySavingsByForecastError(const StudyRowSource& rows);

// The same figures of a table in memory.
inline StudyFigureData studySavingsHeatmap(const StudyTable& table, const std::string& policy) {
    return studySavingsHeatmap(TableRows(table), policy);
}
inline StudyFigureData studySavingsCdf(const StudyTable& table) {
    return studySavingsCdf(TableRows(table));
}
inline StudyFigureData studySavingsBySlack(const StudyTable& table) {
    return studySavingsBySlack(TableRows(table));
}
inline StudyFigureData studySavingSplit(const StudyTable& table) {
    return studySavingSplit(TableRows(table));
}
inline StudyFigureData studySavingsByForecastError(const StudyTable& table) {
    return studySavingsByForecastError(TableRows(table));
}

} // namespace carbon3d
