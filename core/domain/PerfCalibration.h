// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d {

// Efficiency parameters of the analytic performance model (core/perf). They belong to a cluster profile (they
// describe how well that hardware and software stack runs), are fitted once across the measured data in
// tests/data/validation by `carbon3d-validate calibrate`, and are documented in docs/VALIDATION.md.
// Defaults are the values `carbon3d-validate calibrate` fitted (A100, Megatron-LM / Megatron-DeepSpeed,
// docs/VALIDATION.md); profiles may override any.
struct PerfCalibration {
    // Matrix-unit efficiency of one GEMM of G GFLOP: with x = (G / halfSaturation)^exponent,
    // eff(G) = gemmEfficiencyMax * x / (1 + x) (a Hill curve). exponent = 1 is the plain hyperbola; > 1 is a
    // sharper knee: a GEMM that fills every SM with a few waves of tiles runs near the maximum, and the
    // efficiency falls quickly only once the tiles no longer fill the SMs (wave quantisation).
    // gemmEfficiencyMax: asymptotic fraction of dense peak reached by large GEMMs.
    double gemmEfficiencyMax = 0.7815;
    // GEMM size (GFLOP per kernel) at which the efficiency is half its maximum.
    double gemmHalfSaturationGflop = 12.72;
    double gemmSaturationExponent = 1.392; // Hill exponent of the curve above, dimensionless
    // Non-GEMM kernels (layer norm, GeLU, dropout, softmax, residual adds) are memory-bound: their forward
    // time is (this factor) x (Korthikanti activation bytes of the layer) / HBM bandwidth; backward costs
    // twice that.
    double memoryTrafficPerActivationByte = 2.585; // HBM bytes moved per byte of stored activation, forward
    double kernelOverheadS = 6.9e-10; // fixed launch/synchronisation time per layer per forward pass, s
    double intraNodeCommEfficiency = 0.7743; // fraction of nominal NVLink bandwidth achieved by collectives
    double interNodeCommEfficiency = 0.8648; // fraction of nominal network bandwidth achieved by collectives
    double collectiveLatencyS = 14.54e-6;    // fixed latency per collective or point-to-point call, s
    // A collective over ranks on n > 1 nodes waits longer: networkLatencyS + networkLatencyPerDoublingS x
    // log2(n) beyond the per-call latency (NCCL runs latency-bound messages on a tree whose depth grows as
    // log2 of the nodes). Not fitted on throughput: measured by nccl-tests on ABCI 2.0's A100 nodes at 1 to
    // 16 nodes (tests/data/validation/collectives; `carbon3d-validate report-validation` refits them).
    double networkLatencyS = 5.765e-6;
    double networkLatencyPerDoublingS = 9.653e-6;
    // Whether the stack overlaps the data-parallel reduction (a fact of the software stack, not fitted).
    // 0: Megatron-LM of SC21 and Megatron-DeepSpeed without gradient bucketing (vTrain) start the gradient
    // all-reduce only after the backward pass. 1: Megatron-Core (overlap_grad_reduce, overlap_param_gather)
    // reduces each gradient bucket as the last micro-batch's backward pass finishes it and gathers the
    // weights during the next step's first forward pass, so only what exceeds those passes shows, and never
    // less than the last bucket (docs/MODEL.md#dp). Between 0 and 1: a mix of the two times.
    double dpOverlap = 0.0;
    // Bytes per parameter the data-parallel all-reduce moves. Megatron-LM with fp16 (SC21) and
    // Megatron-DeepSpeed's fp16 optimizer (vTrain) all-reduce the gradients in the 16-bit training type (2);
    // Megatron-LM with bf16 accumulates and all-reduces fp32 main gradients (4). docs/MODEL.md 4.3: 2.
    // Not fitted: the calibration loss cannot tell 2 from 4 (docs/VALIDATION.md).
    double dpGradientBytes = 2.0;  // bytes per parameter in the gradient all-reduce
    double memoryReserveGib = 3.0; // per-GPU workspace + fragmentation reserve (2-4 GiB: docs/MODEL.md 3)
    // FP8 training (Transformer Engine) quantizes every linear layer's input (and, backward, its output
    // gradient) before the GEMM: memory-bound HBM traffic of this many bytes per element of the linear
    // layers' inputs and outputs, forward (backward costs twice that, as its GEMMs do). Fitted on the FP8
    // calibration rows of tests/data/validation/hopper (`carbon3d-validate calibrate`); 0 outside FP8.
    double fp8CastBytesPerElement = 4.05;
    // Megatron runs each model chunk's forward and backward pass between blocking point-to-point exchanges
    // of the pipeline; each exchange costs this fixed time beyond its transfer (the exchange synchronises,
    // and the next chunk's kernels cannot be queued across it). Interleaving multiplies the exchanges by v,
    // so this is the cost of v > 1 the bubble saving must beat. Fitted on the measured ratios of
    // interleaved to plain 1F1B of tests/data/validation/zero_bubble (`carbon3d-validate calibrate`).
    double pipelineTransferOverheadS = 0.452e-3;
    // Whether the interleaved schedule's exchanges overlap the compute (a fact of the software stack, not
    // fitted): 0 for blocking exchanges (Megatron-LM of SC21 and the Zero Bubble baseline, whose batched
    // exchange synchronises the device), 1 for Megatron-Core's overlapped exchanges (`overlap_p2p_comm`,
    // which NeMo turns on whenever v > 1). Overlapped, only the pipeline's fill and drain wait on transfers
    // and a transfer longer than the pass it hides behind shows its excess. Plain 1F1B always blocks.
    double pipelineOverlap = 0.0;
    // The GPU's power while it works (its compute, memory-bound and waiting phases, docs/MODEL.md
    // (phase-powers)) as a multiple of the power model's. 1 for every family: not fitted on published runs,
    // whose power model rests on measured phase and idle powers instead (docs/VALIDATION.md, "Power against
    // measurements"); a user's own power log sets a cluster's (`carbon3d-cli estimate --measured-power`).
    double gpuPowerScale = 1.0;
    // How much the sustained speed of nominally identical GPUs spreads (coefficient of variation across a
    // fleet; docs/MODEL.md#stragglers): a synchronous step waits for the slowest of its GPUs. Not fitted:
    // taken from published measurements of GPU-to-GPU variability.
    double gpuSpeedSpread = 0.02111;
    // Expert parallelism (docs/MODEL.md#expert-parallel). The token dispatch and combine of a mixture of
    // experts reach these fractions of the nominal links, in DeepEP's convention (a token counted once per
    // destination GPU over NVLink and once per destination node over the network, its own included):
    // measured by DeepEP's normal kernels on H800 (tests/data/validation/expert_alltoall; `carbon3d-validate
    // report-validation` recomputes them and tst_validation checks these values against it). Above 1 over
    // the network: a token crosses to a node once and is forwarded inside it over NVLink.
    double intraNodeAllToAllEfficiency = 0.7775;
    double interNodeAllToAllEfficiency = 1.007;
    // Whether the stack hides the dispatch and combine behind other compute (a fact of the software stack,
    // not fitted): 0 for Megatron-Core's all-to-all dispatcher, which waits for them; 1 where the expert
    // communication of one micro-batch overlaps another's compute (DeepSeek's DualPipe); only what exceeds
    // the layer's compute then shows.
    double expertCommOverlap = 0.0;
    // The busiest expert-parallel rank's tokens over the mean (1: routing balanced). A stated assumption, not
    // a measurement: no published per-rank load of a training run was found that may be used. A capacity
    // factor caps it (tokens beyond it are dropped).
    double expertLoadImbalance = 1.0;
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

// Calibration per accelerator family (issue 17, item 1). A profile names its family in its "calibration"
// object ("family": "a100", "hopper" or "cdna3"); the family's values are the base its other keys override.
// - a100: the defaults above, fitted on the A100 sets.
// - hopper (H100, H200): the A100 fit with what the Hopper calibration rows of tests/data/validation/hopper
//   set differently: the asymptotic BF16 GEMM efficiency (fitted on the BF16 calibration rows by
//   `carbon3d-validate calibrate`) and the software stack those rows ran, Megatron-Core with overlapped
//   pipeline exchanges (docs/DECISIONS.md, "Per-accelerator calibration").
// - cdna3 (MI300X, MI325X): the Hopper family's stack (Megatron-Core's descendants, ROCm Megatron-LM and
//   Primus, overlap the pipeline exchanges the same way) with the GEMM efficiency fitted on the FP8
//   calibration row of tests/data/validation/cdna3 (MI325X; its only BF16 run is held out as the check),
//   the FP8 cast held at its Hopper fit (docs/DECISIONS.md, "CDNA 3").
enum class CalibrationFamily { A100, Hopper, Cdna3 };
inline constexpr double kHopperGemmEfficiencyMax = 0.6959;
inline constexpr double kCdna3GemmEfficiencyMax = 0.499;
std::string_view calibrationFamilyName(CalibrationFamily family); // "a100", "hopper", "cdna3"
std::string calibrationFamilyNames();                             // "'a100', 'hopper' or 'cdna3'"
// What a family's values were fitted and checked on, one sentence for the studio and the CLI.
std::string_view calibrationFamilyBasis(CalibrationFamily family);
// What a profile's calibration rests on: its family's basis, and how many values the profile sets itself.
std::string describeCalibration(CalibrationFamily family, const PerfCalibration& values);
std::optional<CalibrationFamily> parseCalibrationFamily(std::string_view name);
// `base` with the family's own terms (the A100 family changes nothing).
PerfCalibration familyCalibration(CalibrationFamily family, PerfCalibration base = {});

} // namespace carbon3d
