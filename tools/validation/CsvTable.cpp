// SPDX-License-Identifier: MIT
#include "validation/CsvTable.h"

#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/NumberText.h"

#include <cmath>
#include <optional>

namespace carbon3d {

namespace {

// The measured-data files are a few hundred rows; this bounds what a wrong path can make us read.
constexpr std::int64_t kMaxValidationCsvBytes = std::int64_t{16} * 1024 * 1024;

} // namespace

int Csv::optionalColumn(const std::string& name) const {
    for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == name)
            return static_cast<int>(i);
    }
    return -1;
}

int Csv::column(const std::string& name) const {
    const int found = optionalColumn(name);
    if (found < 0)
        throw InputError(file, 1, 0, "expected a column named '" + name + "'");
    return found;
}

double Csv::number(size_t row, int col) const {
    const std::string& value = text(row, col);
    const std::optional<double> parsed = parseDecimal(value);
    const double result = parsed.value_or(-1.0);
    if (!parsed || !std::isfinite(result) || result < 0.0)
        throw InputError(file, lines[row], col + 1,
                         "expected a non-negative number in column '" + header[static_cast<size_t>(col)] +
                             "', found '" + value + "'");
    return result;
}

int Csv::integer(size_t row, int col) const {
    const double value = number(row, col);
    if (value != std::floor(value) || value < 1.0 || value > 1e9)
        throw InputError(file, lines[row], col + 1,
                         "expected a positive integer in column '" + header[static_cast<size_t>(col)] + "'");
    return static_cast<int>(value);
}

Csv readCsv(const std::string& path) {
    const std::string text = readInputFile(path, kMaxValidationCsvBytes, "a measured-data CSV file");
    Csv csv;
    csv.file = path;
    CsvLineReader reader(text);
    std::string_view line;
    int number = 0;
    std::vector<CsvCell> cells;
    while (reader.next(line, number)) {
        if (line.empty())
            continue;
        if (!splitCsvLine(line, cells))
            throw InputError(path, number, 0, "a quoted field is not closed on its line");
        std::vector<std::string> fields;
        fields.reserve(cells.size());
        for (const CsvCell& cell : cells)
            fields.emplace_back(cell.text);
        if (csv.header.empty()) {
            csv.header = std::move(fields);
            continue;
        }
        if (fields.size() != csv.header.size())
            throw InputError(path, number, 0,
                             "expected " + std::to_string(csv.header.size()) + " fields, found " +
                                 std::to_string(fields.size()));
        csv.rows.push_back(std::move(fields));
        csv.lines.push_back(number);
    }
    if (csv.header.empty())
        throw InputError(path, 1, 0, "expected a header line, found an empty file");
    return csv;
}

} // namespace carbon3d
