// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// The spread of sustained speed across nominally identical GPUs, from a fleet measured one GPU at a time
// (tests/data/validation/gpu_variability: ResNet-50 training on each of 219 A100s of TACC Lonestar6). The
// model's `gpu_speed_spread` is `spread` below (docs/MODEL.md#stragglers).
struct GpuSpeedSpread {
    int gpus = 0;                  // GPUs measured
    int nodesLeftOut = 0;          // whole nodes left out as faulty
    int gpusLeftOut = 0;           // their GPUs
    double meanS = 0.0;            // the kept GPUs' mean iteration time, s
    double spread = 0.0;           // sample standard deviation / mean of the kept GPUs' iteration times
    double slowest = 0.0;          // the slowest kept GPU's time over the median
    double fastest = 0.0;          // the fastest kept GPU's time over the median
    std::vector<double> keptTimes; // the kept GPUs' iteration times, s, ascending
};

// A node every one of whose GPUs runs this many times slower than the fleet's median is faulty (a node
// problem: cooling, a clock stuck low), not a draw from the spread; it is left out and counted.
inline constexpr double kFaultyNodeSlowdown = 1.5;

// Reads gpu_variability/lonestar6_a100_resnet50.csv under dataDir. InputError names the file, line and
// column of a bad row.
GpuSpeedSpread measureGpuSpeedSpread(const std::string& dataDir);

} // namespace carbon3d
