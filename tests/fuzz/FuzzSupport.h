// SPDX-License-Identifier: MIT
#pragma once

// Shared by the fuzz targets: the input as text, and a per-process scratch file for loaders that read
// paths (the trace loader and the results store take a file, as they do in the program).
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <unistd.h>

namespace carbon3d::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Writes the input to a file named after the process and `suffix` (the loaders detect formats by content,
// some by extension) and returns its path. The file is rewritten for every input.
inline std::string scratchFile(const std::uint8_t* data, std::size_t size, const std::string& suffix) {
    const std::string path = "/tmp/carbon3d-fuzz-" + std::to_string(::getpid()) + suffix;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

} // namespace carbon3d::fuzz
