// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// Efficiency parameters of the analytic performance model (core/perf). They belong to a cluster profile (they
// describe how well that hardware and software stack runs), are fitted once across the measured data in
// tests/data/validation by `carbon3d-cli calibrate`, and are documented in docs/VALIDATION.md.
// Defaults are the values `carbon3d-cli calibrate` fitted (A100, Megatron-LM / Megatron-DeepSpeed,
// docs/VALIDATION.md); profiles may override any.
struct PerfCalibration {
    // Matrix-unit efficiency of one GEMM of G GFLOP: eff(G) = gemmEfficiencyMax * G / (G + halfSaturation).
    // gemmEfficiencyMax: asymptotic fraction of dense peak reached by large GEMMs.
    double gemmEfficiencyMax = 0.7060;
    // GEMM size (GFLOP per kernel) at which the efficiency is half its maximum.
    double gemmHalfSaturationGflop = 17.59;
    // Non-GEMM kernels (layer norm, GeLU, dropout, softmax, residual adds) are memory-bound: their forward
    // time is (this factor) x (Korthikanti activation bytes of the layer) / HBM bandwidth; backward costs
    // twice that.
    double memoryTrafficPerActivationByte = 1.777; // HBM bytes moved per byte of stored activation, forward
    double kernelOverheadS = 3.835e-8;    // fixed launch/synchronisation time per layer per forward pass, s
    double intraNodeCommEfficiency = 1.0; // fraction of nominal NVLink bandwidth achieved by collectives
    double interNodeCommEfficiency = 0.7998; // fraction of nominal network bandwidth achieved by collectives
    double collectiveLatencyS = 121.6e-6;    // fixed latency per collective or point-to-point call, s
    // Megatron-LM of SC21 and Megatron-DeepSpeed without gradient bucketing (vTrain) start the gradient
    // all-reduce only after the backward pass, so nothing is hidden: 0 is a fact of those stacks, not a fit.
    double dpOverlap = 0.0;        // fraction of the data-parallel gradient all-reduce hidden behind backward
    double memoryReserveGib = 3.0; // per-GPU workspace + fragmentation reserve (MODELING.md: 2-4 GiB), GiB
};

// Reflection table so that loaders and writers handle every field without knowing the struct:
// adding a field here makes it loadable from a profile's "calibration" object and validated.
struct PerfCalibrationField {
    const char* key;  // JSON key, e.g. "gemm_efficiency_max"
    const char* unit; // unit for messages and docs
    double min;       // inclusive range
    double max;
    double PerfCalibration::*member;
    const char* meaning; // one line for docs and tooltips
};

const std::vector<PerfCalibrationField>& perfCalibrationFields();

} // namespace carbon3d
