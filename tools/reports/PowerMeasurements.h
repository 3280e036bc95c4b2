// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

// Published measurements of power during LLM training against the model (docs/VALIDATION.md, "Power against
// measurements"; issue 39, item 6). Each names its source, what was measured (one GPU's board power or one
// node at the wall), the job and the hardware preset, and whether a preset figure was set from it
// (calibration) or it is held out as a check.
namespace carbon3d::reports {

enum class PowerScope { GpuBoard, NodeWall };

struct PowerMeasurement {
    std::string what;    // "Llama 2 13B on one 8-GPU H100 node, peak"
    std::string source;  // citation
    std::string cluster; // preset id whose power model is checked
    std::string model;   // preset id of the model trained
    int gpus = 0;
    int globalBatch = 0; // sequences; the runs published none, so the model's own preset batch is used
    PowerScope scope = PowerScope::GpuBoard;
    double measuredW = 0.0;
    // Empty: held out (nothing was set from it). Otherwise the preset figure set from it, in words.
    std::string calibrates;
};

struct PowerCheck {
    PowerMeasurement measurement;
    std::string configuration; // the fastest configuration the model finds, e.g. "d8 t1 p1"
    double gpuW = 0.0;         // the model's average board power per active GPU
    // The same at half and at twice the assumed global batch: how much the unpublished batch matters.
    double gpuWHalfBatch = 0.0, gpuWDoubleBatch = 0.0;
    double nodeOverheadW = 0.0; // the preset's power outside the GPUs of one node at load
    double modelW = 0.0;        // in the measurement's scope: gpuW, or GPUs per node x gpuW + nodeOverheadW
    double ratio() const { return modelW / measurement.measuredW; }
};

// The measurements, with their sources in PowerMeasurements.cpp.
const std::vector<PowerMeasurement>& powerMeasurements();

// The H100 node's power outside its GPUs at load, as the measured peak of Latif et al. less eight GPUs at
// their power limit (the GPUs ran near full utilisation at that peak): what dgx-h100's node_overhead_w
// holds (tst_powermeasurements checks the preset against it).
double measuredH100NodeOverheadW();

// Each measurement predicted from its job alone: the fastest configuration on the measured GPUs.
std::vector<PowerCheck> checkPowerMeasurements();

// The section of docs/VALIDATION.md: the table and what it says.
std::string powerMeasurementsMarkdown(const std::vector<PowerCheck>& checks);

} // namespace carbon3d::reports
