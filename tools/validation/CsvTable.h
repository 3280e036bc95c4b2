// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// A measured-data CSV of tests/data/validation: a header line, then rows of as many comma-separated fields,
// read by the one CSV reader (domain/CsvText.h: cells trimmed, double-quoted fields allowed). Errors name the
// file, the line and the column.
struct Csv {
    std::string file;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<int> lines; // the file's line number of each row

    int column(const std::string& name) const;         // InputError when there is none
    int optionalColumn(const std::string& name) const; // -1 when there is none
    double number(size_t row, int col) const;          // a finite number >= 0, else InputError
    int integer(size_t row, int col) const;            // a whole number in [1, 1e9], else InputError
    const std::string& text(size_t row, int col) const { return rows[row][static_cast<size_t>(col)]; }
};

// Reads `path`; empty lines are skipped. InputError when the file cannot be opened, has no header or a row
// has the wrong number of fields.
Csv readCsv(const std::string& path);

} // namespace carbon3d
