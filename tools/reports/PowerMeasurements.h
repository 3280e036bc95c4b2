// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

// Published measurements of GPU and node power against the model (docs/VALIDATION.md, "Power against
// measurements"; issue 39, item 6). Each names its source, what was measured, the job and hardware preset,
// and whether a preset figure was set from it or it is held out as a check.
namespace carbon3d::reports {

enum class MeasuredPower {
    GpuBoardTraining, // one GPU's mean board power while training
    NodeWallTraining, // one node at the wall while training
    GpuBoardIdle,     // one GPU's board power with no process on it (what a parked GPU draws)
    GpuBoardWaiting,  // one GPU's board power with the job's process alive and nothing running
};

// An idle or waiting board: read against the preset's figure itself (`idle_w`, `wait_w`), not predicted
// from a job.
bool isBoardReading(MeasuredPower kind);

struct PowerMeasurement {
    std::string what;    // "Llama 2 13B on one 8-GPU H100 node, peak"
    std::string source;  // citation
    std::string cluster; // preset id whose power model is checked
    std::string model;   // preset id of the model trained; empty for an idle reading
    int gpus = 0;
    int globalBatch = 0; // sequences; the runs published none, so a stated assumption
    MeasuredPower kind = MeasuredPower::GpuBoardTraining;
    double measuredW = 0.0;
    // Empty: held out (nothing was set from it). Otherwise the preset figure set from it, in words.
    std::string calibrates;
};

struct PowerCheck {
    PowerMeasurement measurement;
    // The fastest configuration the model finds, e.g. "d8 t1 p1"; empty for an idle or waiting reading.
    std::string configuration;
    double gpuW =
        0.0; // the model's average board power per active GPU, or the preset's idle or waiting power
    // The same at half and at twice the assumed global batch: how much the unpublished batch matters.
    double gpuWHalfBatch = 0.0, gpuWDoubleBatch = 0.0;
    double nodeOverheadW = 0.0; // the preset's power outside the GPUs of one node at load
    double modelW = 0.0;        // in the measurement's scope
    double ratio() const { return modelW / measurement.measuredW; }
};

// The measurements, with their sources in PowerMeasurements.cpp.
const std::vector<PowerMeasurement>& powerMeasurements();

// The H100 node's power outside its GPUs at load, as the measured peak of Latif et al. less eight GPUs at
// their power limit (the GPUs ran near full utilisation at that peak): what dgx-h100's node_overhead_w
// holds (tst_powermeasurements checks the preset against it).
double measuredH100NodeOverheadW();

// Every figure a preset holds from a measurement here, by preset id and key ("accelerator.idle_w"), with the
// measured value: tst_powermeasurements checks the presets against it.
struct PresetFigure {
    std::string cluster;
    std::string key;
    double value = 0.0;
};
std::vector<PresetFigure> measuredPresetFigures();

// Each measurement predicted from its job alone: the fastest configuration on the measured GPUs.
std::vector<PowerCheck> checkPowerMeasurements();

// The section of docs/VALIDATION.md: the table and what it says.
std::string powerMeasurementsMarkdown(const std::vector<PowerCheck>& checks);

} // namespace carbon3d::reports
