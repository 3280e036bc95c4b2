// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// Efficiency parameters of the analytic performance model. They belong to a cluster profile (they
// describe how well that hardware and software stack runs), are fitted once across the measured
// data in tests/data/validation by a rerunnable command, and are documented in docs/VALIDATION.md.
// Defaults are the fitted values for A100 (Megatron/DeepSpeed); profiles may override any of them.
struct PerfCalibration {
    double gemmEfficiencyMax = 0.75;        // asymptotic fraction of dense peak reached by large GEMMs
    double gemmHalfSaturationGflop = 2.0;   // GEMM size (GFLOP per kernel) at which efficiency is half its max
    double intraNodeCommEfficiency = 0.7;   // fraction of nominal NVLink bandwidth achieved by collectives
    double interNodeCommEfficiency = 0.7;   // fraction of nominal network bandwidth achieved by collectives
    double collectiveLatencyS = 20e-6;      // fixed latency per collective call, seconds
    double dpOverlap = 0.5;                 // fraction of the data-parallel all-reduce hidden behind backward
};

// Reflection table so that loaders and writers handle every field without knowing the struct:
// adding a field here makes it loadable from a profile's "calibration" object and validated.
struct PerfCalibrationField {
    const char* key;      // JSON key, e.g. "gemm_efficiency_max"
    const char* unit;     // unit for messages and docs
    double min;           // inclusive range
    double max;
    double PerfCalibration::*member;
    const char* meaning;  // one line for docs and tooltips
};

const std::vector<PerfCalibrationField>& perfCalibrationFields();

} // namespace carbon3d
