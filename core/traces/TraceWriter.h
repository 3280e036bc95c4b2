// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"

#include <string>

namespace carbon3d {

// Writes the canonical CSV: `timestamp,carbon_intensity_g_per_kwh[,marginal_g_per_kwh]` for an average
// trace (third column when it has a marginal companion), `timestamp,marginal_g_per_kwh` for a marginal
// one. Timestamps are ISO-8601 UTC slot starts; numbers the shortest text that reads back to the same
// double, so loading the file again gives identical values. Atomic (QSaveFile): a failed write leaves
// any existing file untouched. Throws InputError(path, 0, 0, ...) when the file cannot be written.
void writeCanonicalCsv(const CarbonTrace& trace, const std::string& path);

} // namespace carbon3d
