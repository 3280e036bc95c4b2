// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d {

// What a measured power figure covers, so that nothing is added twice (docs/MODEL.md, power):
// Gpu: the GPU boards (Zeus, nvidia-smi); the cluster adds its node overhead, and PUE applies.
// Node: whole servers at the wall (CarbonScaler's scale profiles); PUE applies, no node overhead is added.
// Facility: the facility's draw, cooling included; nothing is added.
enum class PowerScope { Gpu, Node, Facility };
const char* powerScopeName(PowerScope scope); // "gpu", "node", "facility"
std::optional<PowerScope> parsePowerScope(std::string_view text);

// A measured operating point, e.g. one row of a Zeus power-limit sweep, a CarbonScaler scale
// profile or a Megatron profiler run. Absent knobs mean "not varied in this measurement".
struct OperatingPoint {
    std::optional<int> dp;
    std::optional<int> tp;
    std::optional<int> pp;
    std::optional<int> microBatch;
    std::optional<double> powerLimitW;
    double throughput = 0.0; // work units per second (tokens/s for language models)
    double powerW = 0.0;     // measured power while doing this work, W; powerScope says what it covers
    int line = 0;            // line in the source file, for messages
    PowerScope powerScope = PowerScope::Gpu;
};

struct OperatingPointTable {
    std::string sourceFile;
    std::vector<OperatingPoint> points;
};

} // namespace carbon3d
