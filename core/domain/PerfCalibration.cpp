// SPDX-License-Identifier: MIT
#include "domain/PerfCalibration.h"

#include <iterator>

namespace carbon3d {

const std::vector<PerfCalibrationField>& perfCalibrationFields() {
    static const std::vector<PerfCalibrationField> fields{
        {"gemm_efficiency_max", "fraction", 0.05, 1.0, &PerfCalibration::gemmEfficiencyMax,
         "asymptotic fraction of dense peak FLOP/s reached by large matrix multiplications"},
        {"gemm_half_saturation_gflop", "GFLOP", 0.0, 1000.0, &PerfCalibration::gemmHalfSaturationGflop,
         "matrix-multiplication size at which efficiency reaches half its maximum"},
        {"gemm_saturation_exponent", "1", 0.25, 8.0, &PerfCalibration::gemmSaturationExponent,
         "Hill exponent of the GEMM efficiency curve (1: hyperbola; larger: sharper knee)"},
        {"memory_traffic_per_activation_byte", "bytes/byte", 0.0, 100.0,
         &PerfCalibration::memoryTrafficPerActivationByte,
         "HBM traffic of the memory-bound (non-GEMM) kernels per byte of stored activation, forward pass"},
        {"kernel_overhead_s", "s", 0.0, 0.01, &PerfCalibration::kernelOverheadS,
         "fixed launch and synchronisation time per transformer layer per forward pass"},
        {"intra_node_comm_efficiency", "fraction", 0.05, 1.0, &PerfCalibration::intraNodeCommEfficiency,
         "fraction of nominal intra-node (NVLink) bandwidth achieved by collectives"},
        {"inter_node_comm_efficiency", "fraction", 0.05, 1.0, &PerfCalibration::interNodeCommEfficiency,
         "fraction of nominal inter-node network bandwidth achieved by collectives"},
        {"collective_latency_s", "s", 0.0, 0.01, &PerfCalibration::collectiveLatencyS,
         "fixed latency of one collective or point-to-point operation"},
        {"network_latency_s", "s", 0.0, 0.01, &PerfCalibration::networkLatencyS,
         "latency a collective adds once its ranks span more than one node"},
        {"network_latency_per_doubling_s", "s", 0.0, 0.01, &PerfCalibration::networkLatencyPerDoublingS,
         "latency a collective adds per doubling of the nodes its ranks span"},
        {"dp_overlap", "fraction", 0.0, 1.0, &PerfCalibration::dpOverlap,
         "1 when the stack reduces gradient buckets during the last backward pass and gathers weights "
         "during the first forward pass (Megatron-Core overlap_grad_reduce), 0 when it waits for the pass"},
        {"dp_gradient_bytes", "bytes/parameter", 1.0, 4.0, &PerfCalibration::dpGradientBytes,
         "bytes per parameter moved by the data-parallel gradient all-reduce (2: 16-bit, 4: fp32)"},
        {"memory_reserve_gib", "GiB", 0.0, 64.0, &PerfCalibration::memoryReserveGib,
         "per-GPU memory reserved for workspace and fragmentation"},
        {"fp8_cast_bytes_per_element", "bytes/element", 0.0, 64.0, &PerfCalibration::fp8CastBytesPerElement,
         "FP8 only: HBM traffic of quantizing the linear layers' inputs and outputs, per element, forward"},
        {"pipeline_transfer_overhead_s", "s", 0.0, 0.1, &PerfCalibration::pipelineTransferOverheadS,
         "fixed time of one pipeline point-to-point exchange beyond its transfer (v > 1 multiplies them)"},
        {"pipeline_overlap", "fraction", 0.0, 1.0, &PerfCalibration::pipelineOverlap,
         "1 when the interleaved schedule's exchanges overlap compute (Megatron-Core overlap_p2p_comm), "
         "0 when they block"},
        {"gpu_power_scale", "x", 0.25, 4.0, &PerfCalibration::gpuPowerScale,
         "the GPU's working power as a multiple of the power model's (1 unless calibrated on a measured "
         "power log)"},
        {"gpu_speed_spread", "fraction", 0.0, 0.5, &PerfCalibration::gpuSpeedSpread,
         "coefficient of variation of sustained speed across nominally identical GPUs (a synchronous step "
         "waits for the slowest)"},
        {"intra_node_all_to_all_efficiency", "fraction", 0.05, 2.0,
         &PerfCalibration::intraNodeAllToAllEfficiency,
         "fraction of nominal NVLink bandwidth the expert dispatch and combine reach (a token counted once "
         "per destination GPU)"},
        {"inter_node_all_to_all_efficiency", "fraction", 0.05, 2.0,
         &PerfCalibration::interNodeAllToAllEfficiency,
         "fraction of nominal network bandwidth the expert dispatch and combine reach (a token counted once "
         "per destination node, its own included)"},
        {"expert_comm_overlap", "fraction", 0.0, 1.0, &PerfCalibration::expertCommOverlap,
         "1 when the stack hides the expert dispatch and combine behind another micro-batch's compute "
         "(DualPipe), 0 when it waits for them (Megatron-Core's all-to-all dispatcher)"},
        {"expert_load_imbalance", "x", 1.0, 16.0, &PerfCalibration::expertLoadImbalance,
         "tokens of the busiest expert-parallel rank over the mean (1: balanced routing)"},
    };
    return fields;
}

namespace {

// Every family once: its name in a profile's "calibration" object and what its values rest on.
struct FamilyEntry {
    CalibrationFamily family;
    std::string_view name;
    std::string_view basis;
};
constexpr FamilyEntry kFamilies[] = {
    {CalibrationFamily::A100, "a100",
     "the A100 fit: Megatron-LM and Megatron-DeepSpeed runs on A100 (SC21, vTrain); on other accelerators "
     "it is unchecked (docs/VALIDATION.md)"},
    {CalibrationFamily::Hopper, "hopper",
     "the Hopper family: the A100 fit with its GEMM efficiency and FP8 term fitted on published H100 runs "
     "and checked on held-out H100 and H200 runs (docs/VALIDATION.md, \"Hopper\")"},
    {CalibrationFamily::Cdna3, "cdna3",
     "the CDNA 3 family: the Hopper stack with its GEMM efficiency fitted on one MI325X run and checked on "
     "five more (MI300X shares the die; no MI300X run was found to check it) (docs/VALIDATION.md, "
     "\"CDNA 3\")"},
};

const FamilyEntry& entryOf(CalibrationFamily family) {
    for (const FamilyEntry& entry : kFamilies) {
        if (entry.family == family)
            return entry;
    }
    return kFamilies[0];
}

} // namespace

std::string_view calibrationFamilyName(CalibrationFamily family) {
    return entryOf(family).name;
}

std::string_view calibrationFamilyBasis(CalibrationFamily family) {
    return entryOf(family).basis;
}

std::string calibrationFamilyNames() {
    std::string names;
    const size_t count = std::size(kFamilies);
    for (size_t i = 0; i < count; ++i) {
        names += (i == 0 ? "'" : i + 1 == count ? " or '" : ", '");
        names += kFamilies[i].name;
        names += "'";
    }
    return names;
}

std::optional<CalibrationFamily> parseCalibrationFamily(std::string_view name) {
    for (const FamilyEntry& entry : kFamilies) {
        if (entry.name == name)
            return entry.family;
    }
    return std::nullopt;
}

std::string describeCalibration(CalibrationFamily family, const PerfCalibration& values) {
    const PerfCalibration base = familyCalibration(family);
    int own = 0;
    for (const PerfCalibrationField& field : perfCalibrationFields())
        own += values.*field.member != base.*field.member ? 1 : 0;
    std::string text(calibrationFamilyBasis(family));
    if (own > 0)
        text += "; the cluster file sets " + std::to_string(own) + (own == 1 ? " value" : " values") +
                " of its own";
    return text;
}

PerfCalibration familyCalibration(CalibrationFamily family, PerfCalibration base) {
    if (family == CalibrationFamily::A100)
        return base;
    base.gemmEfficiencyMax =
        family == CalibrationFamily::Hopper ? kHopperGemmEfficiencyMax : kCdna3GemmEfficiencyMax;
    // Megatron-Core, the stack of both families' rows, overlaps the pipeline's exchanges and the
    // data-parallel reduction (overlap_p2p_comm, overlap_grad_reduce with overlap_param_gather).
    base.pipelineOverlap = 1.0;
    base.dpOverlap = 1.0;
    return base;
}

} // namespace carbon3d
