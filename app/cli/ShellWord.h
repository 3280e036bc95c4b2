// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d::cli {

// A single-quoted shell word, for a path or value written into a script or a command to copy: it may hold
// spaces and quotes, and nothing in it is expanded.
inline std::string shellWord(const std::string& text) {
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

} // namespace carbon3d::cli
