// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d {

// Writes `text` to `path` atomically (QSaveFile: a reader sees the old file or the whole new one, never half
// of it). Otherwise an InputError naming the file: "PROBLEM: the system's reason". A path that is a
// results database open in this process (OpenDatabaseMark), or one of its companions, is refused the same
// way before anything is written.
void writeFileAtomically(const std::string& path, const std::string& text, const std::string& problem);

} // namespace carbon3d
