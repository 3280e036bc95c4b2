// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"

#include <cstdint>
#include <string>

namespace carbon3d {

// Whole-file reads for the loaders. They go through QFile so that embedded presets
// (":/presets/clusters/dgx-h100.json") and ordinary paths are read the same way.
// Throws InputError(path, 0, 0, ...) when the file cannot be opened or is larger than maxBytes.
std::string readTextFile(const std::string& path, std::int64_t maxBytes = 16LL * 1024 * 1024);
JsonValue readJsonFile(const std::string& path);

// `path` as seen from the file `baseFile` refers to it: absolute paths and resource paths (":/...")
// are returned unchanged, relative ones are joined to baseFile's directory (lexically normalised,
// so "scenarios/../traces/x.csv" becomes "traces/x.csv").
std::string resolveRelativeTo(const std::string& baseFile, const std::string& path);

// `path` written relative to `directory` when both can be made absolute on the same root;
// otherwise `path` unchanged. Used by writers so a saved scenario refers to its traces relatively.
std::string relativePathFrom(const std::string& directory, const std::string& path);

// Directory part of a file path ("" for a bare file name).
std::string directoryOf(const std::string& file);

} // namespace carbon3d
