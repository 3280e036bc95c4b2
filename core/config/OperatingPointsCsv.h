// SPDX-License-Identifier: MIT
#pragma once

#include "domain/OperatingPoints.h"

#include <string>
#include <string_view>

namespace carbon3d {

// Measured operating points as CSV, one row per measured configuration:
//   dp,tp,pp,micro_batch,power_limit_w,throughput,power_w
//   8,4,2,1,400,51234.5,24100
// The header decides which knobs are present: any of dp, tp, pp, micro_batch, power_limit_w may be
// absent (not varied in the measurement). throughput (work units/s, tokens/s for language models)
// and power_w (W drawn by the GPUs doing the work) are required and > 0. Knobs are positive
// integers (power_limit_w a positive number). Unknown or repeated columns, two rows with the same
// knobs, and a file without rows are errors. Errors carry the line and the character column of
// the offending field.
OperatingPointTable loadOperatingPoints(const std::string& path);
OperatingPointTable parseOperatingPoints(std::string_view text, const std::string& file);

// The CSV text of a table (the knob columns that any point sets, then throughput and power_w).
std::string toCsv(const OperatingPointTable& table);

} // namespace carbon3d
