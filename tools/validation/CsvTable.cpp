// SPDX-License-Identifier: MIT
#include "validation/CsvTable.h"

#include "domain/InputError.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace carbon3d {

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
    double result = 0.0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(result) || result < 0.0)
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

namespace {

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
        fields.push_back(field);
    if (!line.empty() && line.back() == ',')
        fields.emplace_back();
    return fields;
}

} // namespace

Csv readCsv(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0, 0, "cannot open the file");
    Csv csv;
    csv.file = path;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        std::vector<std::string> fields = split(line);
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
