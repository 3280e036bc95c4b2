// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace carbon3d {

// The one error type for bad input anywhere in Carbon3D: it always says which file, where in it
// (line, and column for JSON), and what was expected. Loaders throw it; the CLI prints what(),
// the GUI shows it inline next to the field that caused it.
class InputError : public std::runtime_error {
public:
    // line and column are 1-based; 0 means "not applicable" (e.g. a file that cannot be opened).
    InputError(std::string file, int line, int column, const std::string& problem);

    const std::string& file() const { return m_file; }
    int line() const { return m_line; }
    int column() const { return m_column; }
    const std::string& problem() const { return m_problem; }

private:
    std::string m_file;
    int m_line;
    int m_column;
    std::string m_problem;
};

// "file:line:column: problem", omitting the parts that are 0.
std::string formatInputError(const std::string& file, int line, int column, const std::string& problem);

} // namespace carbon3d
