// SPDX-License-Identifier: MIT
#pragma once

// The one CSV reader of Carbon3D (traces, operating-point tables, the validation data): minimal,
// allocation-free reading over a file held in memory, with the line and column of every cell for messages.

#include "domain/InputError.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d {

// Yields the lines of `text` (without "\n" or "\r\n") with their 1-based numbers.
class CsvLineReader {
public:
    explicit CsvLineReader(std::string_view text)
        : m_text(text) {}
    bool next(std::string_view& line, int& lineNumber);

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 0;
};

struct CsvCell {
    std::string_view text; // trimmed; for a quoted field the part between the quotes ("" left as is)
    int column = 0;        // 1-based character column where the field starts
};

// A field as a CSV writer puts it (RFC 4180): quoted when it holds a comma, a quote or a line break, its
// quotes doubled; as it is otherwise.
std::string csvField(const std::string& text);

// Splits one line at commas, honouring double-quoted fields (RFC 4180 without embedded newlines).
// Reuses `cells`; returns false for an unterminated quote.
bool splitCsvLine(std::string_view line, std::vector<CsvCell>& cells);

bool isBlank(std::string_view line);

// The whole cell must be a decimal number, an explicit '+' allowed (CSV writers emit one): parseDecimal
// (domain/NumberText.h) after the sign. "nan"/"inf" parse, and callers reject them.
std::optional<double> parseCsvNumber(std::string_view text);

struct CsvHeader {
    std::vector<std::string> names; // trimmed, lower-cased, with the subscript "₂" written as "2"
    int line = 1;
};
// The first non-blank line, split; empty names and line 0 for a file with no non-blank line.
CsvHeader readCsvHeader(std::string_view text);

// Calls f(cells, line) for every data row after the header; checks the field count on the way.
template <typename F>
void forEachCsvDataRow(std::string_view text, const std::string& file, std::size_t expectedFields, F&& f) {
    CsvLineReader reader(text);
    std::vector<CsvCell> cells;
    std::string_view line;
    int lineNumber = 0;
    bool header = true;
    while (reader.next(line, lineNumber)) {
        if (isBlank(line))
            continue; // blank lines (typically a trailing one) carry no data
        if (header) {
            header = false;
            continue;
        }
        if (!splitCsvLine(line, cells))
            throw InputError(file, lineNumber, 0, "unterminated quoted field: expected a closing '\"'");
        if (cells.size() != expectedFields)
            throw InputError(file, lineNumber, 0,
                             "wrong column count: expected " + std::to_string(expectedFields) +
                                 " fields as in the header, found " + std::to_string(cells.size()));
        f(cells, lineNumber);
    }
}

} // namespace carbon3d
