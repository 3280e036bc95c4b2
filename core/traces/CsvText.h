// SPDX-License-Identifier: MIT
#pragma once

// Internal to carbon3d_traces: minimal, allocation-free CSV reading over a file held in memory.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d::traces_detail {

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

// Splits one line at commas, honouring double-quoted fields (RFC 4180 without embedded newlines).
// Reuses `cells`; returns false for an unterminated quote.
bool splitCsvLine(std::string_view line, std::vector<CsvCell>& cells);

bool isBlank(std::string_view line);

// The whole cell must be a decimal number (std::from_chars: "nan"/"inf" parse, and callers reject them).
std::optional<double> parseNumber(std::string_view text);

struct CsvHeader {
    std::vector<std::string> names; // trimmed, lower-cased, with the subscript "₂" written as "2"
    int line = 1;
};
// The first non-blank line, split; empty names and line 0 for a file with no non-blank line.
CsvHeader readCsvHeader(std::string_view text);

} // namespace carbon3d::traces_detail
