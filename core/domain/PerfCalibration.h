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
    // Matrix-unit efficiency of one GEMM of G GFLOP: with x = (G / halfSaturation)^exponent,
    // eff(G) = gemmEfficiencyMax * x / (1 + x) (a Hill curve). exponent = 1 is the plain hyperbola; > 1 is a
    // sharper knee: a GEMM that fills every SM with a few waves of tiles runs near the maximum, and the
    // efficiency falls quickly only once the tiles no longer fill the SMs (wave quantisation).
    // gemmEfficiencyMax: asymptotic fraction of dense peak reached by large GEMMs.
    double gemmEfficiencyMax = 0.7117;
    // GEMM size (GFLOP per kernel) at which the efficiency is half its maximum.
    double gemmHalfSaturationGflop = 12.35;
    double gemmSaturationExponent = 1.389; // Hill exponent of the curve above, dimensionless
    // Non-GEMM kernels (layer norm, GeLU, dropout, softmax, residual adds) are memory-bound: their forward
    // time is (this factor) x (Korthikanti activation bytes of the layer) / HBM bandwidth; backward costs
    // twice that.
    double memoryTrafficPerActivationByte = 2.415; // HBM bytes moved per byte of stored activation, forward
    double kernelOverheadS = 1.157e-9; // fixed launch/synchronisation time per layer per forward pass, s
    double intraNodeCommEfficiency = 0.7095; // fraction of nominal NVLink bandwidth achieved by collectives
    double interNodeCommEfficiency = 0.8328; // fraction of nominal network bandwidth achieved by collectives
    double collectiveLatencyS = 12.16e-6;    // fixed latency per collective or point-to-point call, s
    // Megatron-LM of SC21 and Megatron-DeepSpeed without gradient bucketing (vTrain) start the gradient
    // all-reduce only after the backward pass, so nothing is hidden: 0 is a fact of those stacks, not a fit.
    double dpOverlap = 0.0; // fraction of the data-parallel gradient all-reduce hidden behind backward
    // Bytes per parameter the data-parallel all-reduce moves. Megatron-LM with fp16 (SC21) and
    // Megatron-DeepSpeed's fp16 optimizer (vTrain) all-reduce the gradients in the 16-bit training type (2);
    // Megatron-LM with bf16 accumulates and all-reduces fp32 main gradients (4). docs/MODEL.md 4.3: 2.
    // Not fitted: the calibration loss cannot tell 2 from 4 (docs/VALIDATION.md).
    double dpGradientBytes = 2.0;  // bytes per parameter in the gradient all-reduce
    double memoryReserveGib = 3.0; // per-GPU workspace + fragmentation reserve (2-4 GiB: docs/MODEL.md 3)
    // FP8 training (Transformer Engine) quantizes every linear layer's input (and, backward, its output
    // gradient) before the GEMM: memory-bound HBM traffic of this many bytes per element of the linear
    // layers' inputs and outputs, forward (backward costs twice that, as its GEMMs do). Fitted on the FP8
    // calibration rows of tests/data/validation/hopper (`carbon3d-cli calibrate`); 0 outside FP8.
    double fp8CastBytesPerElement = 5.365;
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
