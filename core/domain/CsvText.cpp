// SPDX-License-Identifier: MIT
#include "domain/CsvText.h"

#include "domain/NumberText.h"

namespace carbon3d {

bool CsvLineReader::next(std::string_view& line, int& lineNumber) {
    if (m_pos >= m_text.size())
        return false;
    std::size_t end = m_text.find('\n', m_pos);
    if (end == std::string_view::npos)
        end = m_text.size();
    line = m_text.substr(m_pos, end - m_pos);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    m_pos = end + 1;
    lineNumber = ++m_line;
    return true;
}

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

} // namespace

bool splitCsvLine(std::string_view line, std::vector<CsvCell>& cells) {
    cells.clear();
    std::size_t pos = 0;
    while (true) {
        std::size_t start = pos;
        while (start < line.size() && isSpace(line[start]))
            ++start;
        CsvCell cell;
        cell.column = static_cast<int>(start) + 1;
        std::size_t end = 0;
        if (start < line.size() && line[start] == '"') {
            std::size_t close = start + 1;
            while (true) {
                close = line.find('"', close);
                if (close == std::string_view::npos)
                    return false;
                if (close + 1 < line.size() && line[close + 1] == '"') {
                    close += 2; // an escaped quote inside the field
                    continue;
                }
                break;
            }
            cell.text = line.substr(start + 1, close - start - 1);
            end = line.find(',', close + 1);
        } else {
            end = line.find(',', start);
            cell.text = trim(line.substr(start, (end == std::string_view::npos ? line.size() : end) - start));
        }
        cells.push_back(cell);
        if (end == std::string_view::npos)
            return true;
        pos = end + 1;
    }
}

bool isBlank(std::string_view line) {
    return trim(line).empty();
}

std::optional<double> parseCsvNumber(std::string_view text) {
    if (!text.empty() &&
        text.front() == '+') // from_chars rejects an explicit plus sign; CSV writers emit one
        text.remove_prefix(1);
    return parseDecimal(text);
}

CsvHeader readCsvHeader(std::string_view text) {
    CsvHeader header;
    CsvLineReader reader(text);
    std::string_view line;
    int lineNumber = 0;
    while (reader.next(line, lineNumber)) {
        if (isBlank(line))
            continue;
        std::vector<CsvCell> cells;
        splitCsvLine(line, cells);
        for (const CsvCell& cell : cells) {
            std::string name;
            name.reserve(cell.text.size());
            for (std::size_t i = 0; i < cell.text.size(); ++i) {
                // U+2082 SUBSCRIPT TWO is E2 82 82 in UTF-8.
                if (cell.text.compare(i, 3, "\xE2\x82\x82") == 0) {
                    name += '2';
                    i += 2;
                    continue;
                }
                const char c = cell.text[i];
                name += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
            }
            header.names.push_back(std::move(name));
        }
        header.line = lineNumber;
        return header;
    }
    header.line = 0;
    return header;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

} // namespace carbon3d
