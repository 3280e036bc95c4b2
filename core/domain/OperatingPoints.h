// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// A measured operating point, e.g. one row of a Zeus power-limit sweep, a CarbonScaler scale
// profile or a Megatron profiler run. Absent knobs mean "not varied in this measurement".
struct OperatingPoint {
    std::optional<int> dp;
    std::optional<int> tp;
    std::optional<int> pp;
    std::optional<int> microBatch;
    std::optional<double> powerLimitW;
    double throughput = 0.0; // work units per second (tokens/s for language models)
    double powerW = 0.0;     // measured power of the GPUs doing this work, W
    int line = 0;            // line in the source file, for messages
};

struct OperatingPointTable {
    std::string sourceFile;
    std::vector<OperatingPoint> points;
};

} // namespace carbon3d
