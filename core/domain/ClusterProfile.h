// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "domain/Precision.h"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace carbon3d {

// One point of a measured power-limit curve (e.g. a Zeus sweep): at this limit the workload ran at
// `relativeThroughput` of its uncapped speed and the GPU drew `averagePowerW` on average.
struct PowerLimitPoint {
    double powerLimitW = 0.0;
    double relativeThroughput = 1.0; // 0..1, 1 at the maximum limit
    double averagePowerW = 0.0;      // measured mean board power at that limit, W
};

// The accelerator's data sheet, dense figures only (no sparsity), per device.
struct AcceleratorSpec {
    std::string name;                      // e.g. "NVIDIA A100 80GB SXM4"
    std::map<Precision, double> peakFlops; // dense matrix-unit FLOP/s per precision; absent = unsupported
    double memoryBytes = 0.0;              // HBM capacity, bytes
    double hbmBytesPerS = 0.0;             // HBM bandwidth, bytes/s
    double tdpW = 0.0;                     // board power limit at default (max) setting, W
    double minPowerLimitW = 0.0;           // lowest settable power limit, W
    double idleW = 0.0;                    // powered with no process on it (a parked GPU), W
    // Waiting with the job's process alive (in a collective, a pipeline bubble or a launch gap), W; 0 when
    // not measured: the power model then charges its prototype's communication phase (docs/MODEL.md
    // (phase-powers)).
    double waitW = 0.0;
    // FlashAttention runs on it (NVIDIA Ampere and later, AMD CDNA 2 and later; not Volta): the default
    // attention kernel of a job on this accelerator (TrainingJob::attention).
    bool flashAttention = true;
};

// Empty when the accelerator has a matrix-unit peak for `precision`, else what is wrong, in the words the
// scenario reader and the studio's form both use: "bf16 is not supported by NVIDIA Tesla V100 SXM2 32GB (its
// profile has fp32, fp16)".
std::string unsupportedPrecision(const AcceleratorSpec& accelerator, Precision precision);

// A GPU cluster: accelerators, nodes, network, facility and embodied carbon.
struct ClusterProfile {
    std::string id;   // preset id, e.g. "dgx-a100-80gb"
    std::string name; // e.g. "NVIDIA DGX A100 80GB"
    AcceleratorSpec accelerator;
    int gpusPerNode = 8;
    double intraNodeBytesPerS = 0.0; // per GPU, one direction, bytes/s (NVLink)
    double interNodeBytesPerS = 0.0; // per GPU, one direction, bytes/s (InfiniBand/Ethernet)
    double nodeOverheadW = 0.0;      // per node: CPUs, DRAM, NICs, fans at load, W (excludes GPUs)
    double nodeIdleW = 0.0;          // per held node whose GPUs are all parked: the same parts at idle, W
    double pue = 1.1;                // facility power / IT power
    double embodiedKgPerGpu = 0.0;   // manufacturing emissions per GPU incl. its share of the node, kgCO2e
    double serviceLifeYears = 5.0;   // amortisation period for embodied emissions, years
    int gpusAvailable = 0;           // GPUs this job may use
    // On-demand list price of one GPU-hour (the cloud instance's price / its GPUs), USD; NaN: not priced.
    double gpuPriceUsdPerHour = std::numeric_limits<double>::quiet_NaN();
    PerfCalibration calibration; // fitted efficiency parameters of the performance model
    CalibrationFamily calibrationFamily = CalibrationFamily::A100; // the family `calibration` starts from
    std::vector<PowerLimitPoint> powerLimitCurve; // measured table, optional (sorted by limit)
    std::map<std::string, std::string> sources;   // field -> where its value comes from
};

} // namespace carbon3d
