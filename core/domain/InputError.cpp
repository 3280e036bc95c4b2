// SPDX-License-Identifier: MIT
#include "domain/InputError.h"

namespace carbon3d {

std::string formatInputError(const std::string& file, int line, int column, const std::string& problem) {
    std::string text = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        text += ':' + std::to_string(line);
        if (column > 0)
            text += ':' + std::to_string(column);
    }
    text += ": " + problem;
    return text;
}

InputError::InputError(std::string file, int line, int column, std::string problem)
    : std::runtime_error(formatInputError(file, line, column, problem))
    , m_file(std::move(file))
    , m_line(line)
    , m_column(column)
    , m_problem(std::move(problem)) {}

} // namespace carbon3d
