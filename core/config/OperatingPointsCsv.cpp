// SPDX-License-Identifier: MIT
#include "config/OperatingPointsCsv.h"

#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace carbon3d {

namespace {

constexpr double kMostWatts = 1e9; // per operating point, whatever its power_scope

enum class Column { Dp, Tp, Pp, MicroBatch, PowerLimitW, Throughput, PowerW, PowerScope };

struct ColumnName {
    const char* name;
    Column column;
};

constexpr std::array kColumns{
    ColumnName{"dp", Column::Dp},
    ColumnName{"tp", Column::Tp},
    ColumnName{"pp", Column::Pp},
    ColumnName{"micro_batch", Column::MicroBatch},
    ColumnName{"power_limit_w", Column::PowerLimitW},
    ColumnName{"throughput", Column::Throughput},
    ColumnName{"power_w", Column::PowerW},
    ColumnName{"power_scope", Column::PowerScope}, // text: gpu (default), node or facility
};

std::string expectedColumns() {
    return joinedText(kColumns, ", ", &ColumnName::name);
}

// A cell as a number: the CSV reader's (an explicit '+' allowed), finite.
std::optional<double> finiteNumber(std::string_view text) {
    const std::optional<double> value = parseCsvNumber(text);
    if (!value || !std::isfinite(*value))
        return std::nullopt;
    return value;
}

const char* columnName(Column column) {
    for (const ColumnName& c : kColumns) {
        if (c.column == column)
            return c.name;
    }
    return "";
}

using PointKey = std::tuple<std::optional<int>, std::optional<int>, std::optional<int>, std::optional<int>,
                            std::optional<double>>;

// The header line: known column names, each once, with throughput and power_w among them.
std::vector<Column> readHeader(const std::vector<CsvCell>& cells, const std::string& file, int lineNumber) {
    std::vector<Column> header;
    for (const CsvCell& cell : cells) {
        std::optional<Column> column;
        for (const ColumnName& c : kColumns) {
            if (cell.text == c.name)
                column = c.column;
        }
        // A first line with no comma is not this file's kind (a /etc/passwd, a JSON file): say so rather
        // than quoting it back as a column name.
        if (!column && cells.size() == 1)
            throw InputError(file, lineNumber, 1,
                             "expected a CSV header of comma-separated column names (" + expectedColumns() +
                                 "); the first line has no comma: is this an operating-points file?");
        if (!column)
            throw InputError(file, lineNumber, cell.column,
                             "unknown column " + quotedExcerpt(cell.text) +
                                 "; expected some of: " + expectedColumns());
        if (std::find(header.begin(), header.end(), *column) != header.end())
            throw InputError(file, lineNumber, cell.column,
                             "column " + quotedExcerpt(cell.text) + " appears twice");
        header.push_back(*column);
    }
    for (const ColumnName& requiredColumn : {kColumns[5], kColumns[6]}) {
        if (std::find(header.begin(), header.end(), requiredColumn.column) == header.end())
            throw InputError(file, lineNumber, 1,
                             "missing required column '" + std::string(requiredColumn.name) +
                                 "' (the header needs throughput and power_w)");
    }
    return header;
}

// One cell of a row into its member of `point`.
void readCell(OperatingPoint& point, Column column, const CsvCell& cell, const std::string& file,
              int lineNumber) {
    const std::string name = columnName(column);
    if (column == Column::PowerScope) {
        const std::optional<PowerScope> scope = parsePowerScope(cell.text);
        if (!scope)
            throw InputError(file, lineNumber, cell.column,
                             "power_scope must be gpu, node or facility (what power_w covers), found " +
                                 quotedExcerpt(cell.text));
        point.powerScope = *scope;
        return;
    }
    const std::optional<double> value = finiteNumber(cell.text);
    if (!value)
        throw InputError(file, lineNumber, cell.column,
                         name + " must be a number, found " + quotedExcerpt(cell.text));
    switch (column) {
    case Column::Dp:
    case Column::Tp:
    case Column::Pp:
    case Column::MicroBatch: {
        if (*value != std::floor(*value) || *value < 1.0 || *value > 1e7)
            throw InputError(file, lineNumber, cell.column,
                             name + " must be a positive integer, found " + quotedExcerpt(cell.text));
        const int integer = static_cast<int>(*value);
        if (column == Column::Dp)
            point.dp = integer;
        else if (column == Column::Tp)
            point.tp = integer;
        else if (column == Column::Pp)
            point.pp = integer;
        else
            point.microBatch = integer;
        return;
    }
    case Column::PowerScope: // handled above
        return;
    case Column::PowerLimitW:
    case Column::Throughput:
    case Column::PowerW:
        if (*value <= 0.0)
            throw InputError(file, lineNumber, cell.column,
                             name + " must be greater than 0, found " + quotedExcerpt(cell.text));
        // A gigawatt is more than any data centre draws: a power above it is a typo or a unit slip (1e308 W
        // once passed validate and failed in the oracle as "no schedule covers the work", issue 40).
        if (column != Column::Throughput && *value > kMostWatts)
            throw InputError(file, lineNumber, cell.column,
                             name + " must be at most 1e9 W (a gigawatt), found " + quotedExcerpt(cell.text));
        if (column == Column::PowerLimitW)
            point.powerLimitW = *value;
        else if (column == Column::Throughput)
            point.throughput = *value;
        else
            point.powerW = *value;
        return;
    }
}

} // namespace

OperatingPointTable parseOperatingPoints(std::string_view text, const std::string& file) {
    text = withoutByteOrderMark(text);

    OperatingPointTable table;
    table.sourceFile = file;
    std::vector<Column> header;
    std::map<PointKey, int> seen; // knobs -> line of first occurrence
    CsvLineReader reader(text);
    std::string_view line;
    int lineNumber = 0;
    std::vector<CsvCell> cells;
    while (reader.next(line, lineNumber)) {
        if (isBlank(line))
            continue; // blank lines (e.g. a trailing one) carry nothing
        if (!splitCsvLine(line, cells))
            throw InputError(file, lineNumber, 1, "a quoted field is not closed on its line");
        if (header.empty()) {
            header = readHeader(cells, file, lineNumber);
            continue;
        }
        if (cells.size() != header.size())
            throw InputError(file, lineNumber, 1,
                             "expected " + std::to_string(header.size()) +
                                 " fields as in the header, found " + std::to_string(cells.size()));
        OperatingPoint point;
        point.line = lineNumber;
        for (size_t i = 0; i < cells.size(); ++i)
            readCell(point, header[i], cells[i], file, lineNumber);
        const PointKey key{point.dp, point.tp, point.pp, point.microBatch, point.powerLimitW};
        const auto [it, inserted] = seen.emplace(key, lineNumber);
        if (!inserted)
            throw InputError(
                file, lineNumber, 1,
                "duplicate operating point: same dp, tp, pp, micro_batch and power_limit_w as line " +
                    std::to_string(it->second));
        table.points.push_back(point);
    }
    if (header.empty())
        throw InputError(file, 1, 1, "empty file; expected a header such as dp,tp,pp,throughput,power_w");
    if (table.points.empty())
        throw InputError(file, lineNumber, 1, "no operating points: the file has a header but no rows");
    return table;
}

OperatingPointTable loadOperatingPoints(const std::string& path) {
    return parseOperatingPoints(readTextFile(path), path);
}

std::string toCsv(const OperatingPointTable& table) {
    bool hasDp = false;
    bool hasTp = false;
    bool hasPp = false;
    bool hasMb = false;
    bool hasPl = false;
    for (const OperatingPoint& p : table.points) {
        hasDp = hasDp || p.dp.has_value();
        hasTp = hasTp || p.tp.has_value();
        hasPp = hasPp || p.pp.has_value();
        hasMb = hasMb || p.microBatch.has_value();
        hasPl = hasPl || p.powerLimitW.has_value();
    }
    std::string out;
    const auto column = [&out](bool present, const char* name) {
        if (present)
            out += std::string(name) + ",";
    };
    column(hasDp, "dp");
    column(hasTp, "tp");
    column(hasPp, "pp");
    column(hasMb, "micro_batch");
    column(hasPl, "power_limit_w");
    out += "throughput,power_w\n";
    for (const OperatingPoint& p : table.points) {
        // A point without a knob the others have cannot be written faithfully; the table came
        // from one CSV, where every row has every column, so this does not arise from loading.
        const auto integer = [&out](bool present, const std::optional<int>& v) {
            if (present)
                out += (v ? std::to_string(*v) : std::string()) + ",";
        };
        integer(hasDp, p.dp);
        integer(hasTp, p.tp);
        integer(hasPp, p.pp);
        integer(hasMb, p.microBatch);
        if (hasPl)
            out += (p.powerLimitW ? formatNumber(*p.powerLimitW) : std::string()) + ",";
        out += formatNumber(p.throughput) + "," + formatNumber(p.powerW) + "\n";
    }
    return out;
}

} // namespace carbon3d
