// SPDX-License-Identifier: MIT
#include "config/OperatingPointsCsv.h"

#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "domain/InputError.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace carbon3d {

namespace {

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

struct Field {
    std::string_view text;
    int column = 1; // 1-based character column where the field starts (after trimming)
};

std::vector<Field> splitFields(std::string_view line) {
    std::vector<Field> fields;
    size_t start = 0;
    while (true) {
        const size_t comma = line.find(',', start);
        const size_t end = comma == std::string_view::npos ? line.size() : comma;
        size_t first = start;
        size_t last = end;
        while (first < last && (line[first] == ' ' || line[first] == '\t'))
            ++first;
        while (last > first && (line[last - 1] == ' ' || line[last - 1] == '\t'))
            --last;
        fields.push_back(Field{line.substr(first, last - first), static_cast<int>(first) + 1});
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return fields;
}

std::optional<double> parseDouble(std::string_view text) {
    double value = 0.0;
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() ||
        !std::isfinite(value))
        return std::nullopt;
    return value;
}

using PointKey = std::tuple<std::optional<int>, std::optional<int>, std::optional<int>, std::optional<int>,
                            std::optional<double>>;

} // namespace

OperatingPointTable parseOperatingPoints(std::string_view text, const std::string& file) {
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);

    OperatingPointTable table;
    table.sourceFile = file;
    std::vector<Column> header;
    std::map<PointKey, int> seen; // knobs -> line of first occurrence
    int lineNumber = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue; // blank lines (e.g. a trailing one) carry nothing
        const std::vector<Field> fields = splitFields(line);

        if (header.empty()) {
            for (const Field& field : fields) {
                std::optional<Column> column;
                for (const ColumnName& c : kColumns) {
                    if (field.text == c.name)
                        column = c.column;
                }
                // A first line with no comma is not this file's kind (a /etc/passwd, a JSON file): say so
                // rather than quoting it back as a column name.
                if (!column && fields.size() == 1)
                    throw InputError(file, lineNumber, 1,
                                     "expected a CSV header of comma-separated column names (" +
                                         expectedColumns() +
                                         "); the first line has no comma: is this an "
                                         "operating-points file?");
                if (!column) {
                    throw InputError(file, lineNumber, field.column,
                                     "unknown column " + quotedExcerpt(field.text) +
                                         "; expected some of: " + expectedColumns());
                }
                for (const Column existing : header) {
                    if (existing == *column)
                        throw InputError(file, lineNumber, field.column,
                                         "column " + quotedExcerpt(field.text) + " appears twice");
                }
                header.push_back(*column);
            }
            for (const ColumnName& requiredColumn : {kColumns[5], kColumns[6]}) {
                if (std::find(header.begin(), header.end(), requiredColumn.column) == header.end()) {
                    throw InputError(file, lineNumber, 1,
                                     "missing required column '" + std::string(requiredColumn.name) +
                                         "' (the header needs throughput and power_w)");
                }
            }
            continue;
        }

        if (fields.size() != header.size()) {
            throw InputError(file, lineNumber, 1,
                             "expected " + std::to_string(header.size()) +
                                 " fields as in the header, found " + std::to_string(fields.size()));
        }
        OperatingPoint point;
        point.line = lineNumber;
        for (size_t i = 0; i < fields.size(); ++i) {
            const Field& field = fields[i];
            const char* name = "";
            for (const ColumnName& c : kColumns) {
                if (c.column == header[i])
                    name = c.name;
            }
            if (header[i] == Column::PowerScope) {
                const std::optional<PowerScope> scope = parsePowerScope(field.text);
                if (!scope)
                    throw InputError(
                        file, lineNumber, field.column,
                        "power_scope must be gpu, node or facility (what power_w covers), found " +
                            quotedExcerpt(field.text));
                point.powerScope = *scope;
                continue;
            }
            const std::optional<double> value = parseDouble(field.text);
            if (!value) {
                throw InputError(file, lineNumber, field.column,
                                 std::string(name) + " must be a number, found " + quotedExcerpt(field.text));
            }
            switch (header[i]) {
            case Column::Dp:
            case Column::Tp:
            case Column::Pp:
            case Column::MicroBatch: {
                if (*value != std::floor(*value) || *value < 1.0 || *value > 1e7) {
                    throw InputError(file, lineNumber, field.column,
                                     std::string(name) + " must be a positive integer, found " +
                                         quotedExcerpt(field.text));
                }
                const int integer = static_cast<int>(*value);
                if (header[i] == Column::Dp)
                    point.dp = integer;
                else if (header[i] == Column::Tp)
                    point.tp = integer;
                else if (header[i] == Column::Pp)
                    point.pp = integer;
                else
                    point.microBatch = integer;
                break;
            }
            case Column::PowerScope: // handled above
                break;
            case Column::PowerLimitW:
            case Column::Throughput:
            case Column::PowerW:
                if (*value <= 0.0) {
                    throw InputError(file, lineNumber, field.column,
                                     std::string(name) + " must be greater than 0, found " +
                                         quotedExcerpt(field.text));
                }
                if (header[i] == Column::PowerLimitW)
                    point.powerLimitW = *value;
                else if (header[i] == Column::Throughput)
                    point.throughput = *value;
                else
                    point.powerW = *value;
                break;
            }
        }
        const PointKey key{point.dp, point.tp, point.pp, point.microBatch, point.powerLimitW};
        const auto [it, inserted] = seen.emplace(key, lineNumber);
        if (!inserted) {
            throw InputError(
                file, lineNumber, 1,
                "duplicate operating point: same dp, tp, pp, micro_batch and power_limit_w as line " +
                    std::to_string(it->second));
        }
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
