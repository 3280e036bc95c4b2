// SPDX-License-Identifier: MIT
#pragma once

#include "cli/Command.h"

#include <optional>
#include <string>

namespace carbon3d::cli {

// Where a generated report goes: written atomically to `path` (a half-written docs file would be worse
// than the old one), or printed when no path is given. InputError naming the file when it cannot be written.
void writeReport(const std::string& text, const std::optional<std::string>& path, CommandIo& io);

} // namespace carbon3d::cli
