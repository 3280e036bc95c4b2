// SPDX-License-Identifier: MIT
#include "domain/InputError.h"

#include "domain/PrintableText.h"

namespace carbon3d {

namespace {

// A message quotes what it found, and what it found can be anything: a NUL would cut the message short
// where it is shown as a C string, invalid UTF-8 would make it unprintable as JSON, and a loader that
// quotes a whole 10 MB line would flood the terminal. Callers quote with quotedExcerpt(); this is the last
// guard.
constexpr std::size_t kMaxProblemBytes = 2000;

std::string bounded(const std::string& problem) {
    return problem.size() > kMaxProblemBytes ? excerpt(problem, kMaxProblemBytes) : printable(problem);
}

} // namespace

std::string formatInputError(const std::string& file, int line, int column, const std::string& problem) {
    std::string text = file.empty() ? std::string("<input>") : printable(file);
    if (line > 0) {
        text += ':' + std::to_string(line);
        if (column > 0)
            text += ':' + std::to_string(column);
    }
    text += ": " + problem;
    return text;
}

InputError::InputError(std::string file, int line, int column, const std::string& problem)
    : std::runtime_error(formatInputError(file, line, column, bounded(problem)))
    , m_file(std::move(file))
    , m_line(line)
    , m_column(column)
    , m_problem(bounded(problem)) {}

} // namespace carbon3d
