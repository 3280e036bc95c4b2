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
        {"dp_overlap", "fraction", 0.0, 1.0, &PerfCalibration::dpOverlap,
         "fraction of the data-parallel gradient all-reduce hidden behind the backward pass"},
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
    };
    return fields;
}

std::string_view calibrationFamilyName(CalibrationFamily family) {
    switch (family) {
    case CalibrationFamily::Hopper:
        return "hopper";
    case CalibrationFamily::Cdna3:
        return "cdna3";
    case CalibrationFamily::A100:
        break;
    }
    return "a100";
}

std::string calibrationFamilyNames() {
    std::string names;
    const size_t count = std::size(kCalibrationFamilies);
    for (size_t i = 0; i < count; ++i) {
        names += (i == 0 ? "'" : i + 1 == count ? " or '" : ", '");
        names += calibrationFamilyName(kCalibrationFamilies[i]);
        names += "'";
    }
    return names;
}

std::optional<CalibrationFamily> parseCalibrationFamily(std::string_view name) {
    for (CalibrationFamily family : kCalibrationFamilies) {
        if (calibrationFamilyName(family) == name)
            return family;
    }
    return std::nullopt;
}

PerfCalibration familyCalibration(CalibrationFamily family, PerfCalibration base) {
    if (family == CalibrationFamily::A100)
        return base;
    base.gemmEfficiencyMax =
        family == CalibrationFamily::Hopper ? kHopperGemmEfficiencyMax : kCdna3GemmEfficiencyMax;
    base.pipelineOverlap = 1.0;
    return base;
}

} // namespace carbon3d
