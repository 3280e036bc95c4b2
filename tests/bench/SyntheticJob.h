// SPDX-License-Identifier: MIT
#pragma once

#include "engine/SimulationInput.h"

#include <cmath>
#include <initializer_list>

namespace carbon3d {

// The synthetic job of the engine and policy benchmarks: a menu of data-parallel sizes whose throughput
// grows as gpus^scalingExponent (sublinear, as real scaling is) at a fixed power per GPU, the largest size's
// GPUs held for the whole run, PUE 1.1 and 150 kg embodied per GPU over 5 years. The caller sets the
// regions, window and total work. Cost depends on the number of slots and options, not on these values.
inline SimulationInput syntheticJob(std::initializer_list<int> gpuSizes, double scalingExponent,
                                    double activeWattsPerGpu, double idleWattsPerGpu) {
    SimulationInput input;
    for (int gpus : gpuSizes) {
        ExecutionOption option;
        option.config.dp = gpus;
        option.gpusActive = gpus;
        option.workPerSecond = 1000.0 * std::pow(gpus, scalingExponent);
        option.activePowerW = gpus * activeWattsPerGpu;
        input.menu.push_back(option);
    }
    input.gpusHeld = input.menu.back().gpusActive;
    input.idlePowerPerGpuW = idleWattsPerGpu;
    input.pue = 1.1;
    input.embodiedGPerGpuSecond = 150e3 / (5 * 365.25 * 86400);
    input.forecast.kind = "oracle";
    return input;
}

} // namespace carbon3d
