// SPDX-License-Identifier: MIT
#include "validation/PublishedThroughput.h"

#include "domain/InputError.h"
#include "perf/ConfigSearch.h"
#include "perf/PerfModel.h"
#include "validation/CsvTable.h"
#include "validation/LineSearch.h"

#include <cmath>

namespace carbon3d {

const char* throughputRoleName(ThroughputRole role) {
    return role == ThroughputRole::Calibration ? "calibration" : "held-out";
}

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

ThroughputRole roleOf(const Csv& csv, size_t row, int col) {
    const std::string& text = csv.text(row, col);
    if (text == "calibration")
        return ThroughputRole::Calibration;
    if (text == "held-out")
        return ThroughputRole::HeldOut;
    throw InputError(csv.file, csv.lines[row], col + 1,
                     "expected 'calibration' or 'held-out' in column 'role', found '" + text + "'");
}

PublishedGpu gpuOf(const Csv& csv, size_t row, int col, CalibrationFamily family) {
    const std::string& text = csv.text(row, col);
    std::string expected;
    for (const PublishedGpu gpu : kPublishedGpus) {
        if (familyOf(gpu) != family)
            continue;
        if (text == publishedGpuName(gpu))
            return gpu;
        expected += (expected.empty() ? "'" : " or '") + std::string(publishedGpuName(gpu)) + "'";
    }
    throw InputError(csv.file, csv.lines[row], col + 1,
                     "expected " + expected + " in column 'gpu', found '" + text + "'");
}

// An optional 0/1 column (absent, or an empty field: `fallback`).
bool optionalFlag(const Csv& csv, size_t row, int col, bool fallback) {
    if (col < 0 || csv.text(row, col).empty())
        return fallback;
    const std::string& text = csv.text(row, col);
    if (text != "0" && text != "1")
        throw InputError(csv.file, csv.lines[row], col + 1,
                         "expected 0 or 1 in column '" + csv.header[static_cast<size_t>(col)] + "', found '" +
                             text + "'");
    return text == "1";
}

// An integer column that may be empty (the source does not say): 0 then.
int optionalInteger(const Csv& csv, size_t row, int col) {
    return csv.text(row, col).empty() ? 0 : csv.integer(row, col);
}

} // namespace

std::vector<PublishedThroughputRow> loadPublishedThroughput(const std::string& dataDir,
                                                            CalibrationFamily family) {
    const Csv csv = readCsv(dataDir + "/" + std::string(calibrationFamilyName(family)) + "/runs.csv");
    const int cRole = csv.column("role"), cSource = csv.column("source_id"), cModel = csv.column("model");
    const int cLayers = csv.column("layers"), cHidden = csv.column("hidden"), cHeads = csv.column("heads");
    const int cKv = csv.column("kv_heads"), cFfn = csv.column("ffn_hidden"), cGated = csv.column("gated_mlp");
    const int cDropout = csv.column("dropout");
    const int cVocab = csv.column("vocab"), cSeq = csv.column("seq_len"), cGpus = csv.column("gpus");
    const int cPrecision = csv.column("precision"), cTp = csv.column("tp"), cPp = csv.column("pp");
    const int cCp = csv.column("cp"), cVp = csv.column("vp"), cDp = csv.column("dp");
    const int cMicro = csv.column("micro_batch"), cBatch = csv.column("global_batch");
    const int cMeasured = csv.column("measured"), cUnit = csv.column("measured_unit");
    const int cGpu = csv.column("gpu");
    // Absent or empty: FP8 weights, as NeMo's and Megatron-Bridge's FP8 recipes hold them; 0 where the run
    // kept Megatron-LM's BF16 copy (fp8_param_gather off).
    const int cFp8Weights = csv.optionalColumn("fp8_weights");
    // Absent or empty: fp32 gradients (Megatron-LM's for bf16 training); 1 where the run's configuration
    // keeps the gradient buffer in 16 bits (NeMo's grad_sync_dtype: bf16).
    const int cBf16Grads = csv.optionalColumn("bf16_grads");
    // Absent or empty: the distributed optimizer (Megatron-Core's default in these stacks); 1: FSDP.
    const int cFsdp = csv.optionalColumn("fsdp");
    // Absent or empty: the rule (the fastest that fits); else what the run published: none, selective, or
    // full (every layer).
    const int cRecompute = csv.optionalColumn("recompute");
    std::vector<PublishedThroughputRow> rows;
    for (size_t i = 0; i < csv.rows.size(); ++i) {
        PublishedThroughputRow row;
        row.role = roleOf(csv, i, cRole);
        row.gpu = gpuOf(csv, i, cGpu, family);
        row.source = csv.text(i, cSource);
        row.model = csv.text(i, cModel);
        row.line = csv.lines[i];
        ModelSpec& m = row.job.model;
        m.id = row.model;
        m.name = row.model;
        m.layers = csv.integer(i, cLayers);
        m.hidden = csv.integer(i, cHidden);
        m.heads = csv.integer(i, cHeads);
        m.kvHeads = csv.integer(i, cKv);
        m.ffnHidden = csv.integer(i, cFfn);
        m.gatedMlp = csv.text(i, cGated) == "1";
        m.dropout = csv.text(i, cDropout) == "1";
        m.vocab = csv.integer(i, cVocab);
        m.seqLen = csv.integer(i, cSeq);
        const auto precision = parsePrecision(csv.text(i, cPrecision));
        if (!precision)
            throw InputError(csv.file, row.line, cPrecision + 1, "expected a precision such as bf16 or fp8");
        row.job.precision = *precision;
        row.job.attention = AttentionKernel::Flash; // every row's stack runs it (docs/VALIDATION.md)
        row.job.fp8Weights = optionalFlag(csv, i, cFp8Weights, true);
        row.job.bf16Gradients = optionalFlag(csv, i, cBf16Grads, false);
        row.job.globalBatch = csv.integer(i, cBatch);
        row.config.tp = csv.integer(i, cTp);
        row.config.pp = csv.integer(i, cPp);
        row.config.cp = csv.integer(i, cCp);
        row.config.dp = csv.integer(i, cDp);
        if (row.config.gpus() != csv.integer(i, cGpus))
            throw InputError(csv.file, row.line, cGpus + 1, "expected gpus = dp x tp x pp x cp");
        row.config.microBatch = optionalInteger(csv, i, cMicro);
        row.chooseMicroBatch = row.config.microBatch == 0;
        row.config.interleave = optionalInteger(csv, i, cVp);
        row.chooseInterleave = row.config.interleave == 0;
        row.config.sequenceParallel = row.config.tp > 1;
        row.config.distributedOptimizer = true;
        row.config.fullySharded = optionalFlag(csv, i, cFsdp, false);
        const std::string recompute = cRecompute >= 0 ? csv.text(i, cRecompute) : std::string();
        row.chooseRecompute = recompute.empty();
        if (!row.chooseRecompute) {
            const auto mode = parseRecompute(recompute);
            if (!mode)
                throw InputError(csv.file, row.line, cRecompute + 1,
                                 "expected " + recomputeModeNames() + " or nothing, found '" + recompute +
                                     "'");
            row.config.recompute = *mode;
        }
        row.measured = csv.number(i, cMeasured);
        const std::string& unit = csv.text(i, cUnit);
        if (unit != "tokens_per_s_per_gpu" && unit != "model_tflops_per_gpu")
            throw InputError(csv.file, row.line, cUnit + 1,
                             "expected tokens_per_s_per_gpu or model_tflops_per_gpu, found '" + unit + "'");
        row.measuredIsTflops = unit == "model_tflops_per_gpu";
        rows.push_back(row);
    }
    return rows;
}

const char* publishedGpuName(PublishedGpu gpu) {
    switch (gpu) {
    case PublishedGpu::H200:
        return "h200";
    case PublishedGpu::MI325X:
        return "mi325x";
    case PublishedGpu::H100:
        break;
    }
    return "h100";
}

CalibrationFamily familyOf(PublishedGpu gpu) {
    return gpu == PublishedGpu::MI325X ? CalibrationFamily::Cdna3 : CalibrationFamily::Hopper;
}

namespace {

ClusterProfile hopperNode(PublishedGpu gpu) {
    ClusterProfile c;
    c.id = "dgx-h100-validation";
    c.name = "DGX H100 (8x H100 80GB SXM5, 8x 400 Gb/s per node)";
    AcceleratorSpec& a = c.accelerator;
    a.name = "NVIDIA H100 80GB SXM5";
    a.peakFlops = {{Precision::FP8, 1978.9e12},
                   {Precision::BF16, 989.4e12},
                   {Precision::FP16, 989.4e12},
                   {Precision::TF32, 494.7e12},
                   {Precision::FP32, 66.9e12}};
    a.memoryBytes = 80.0 * kGiB;
    a.hbmBytesPerS = 3.35e12;
    a.tdpW = 700.0;
    a.minPowerLimitW = 200.0;
    a.idleW = 80.0;
    c.gpusPerNode = 8;
    c.intraNodeBytesPerS = 450e9; // NVLink 4: 900 GB/s both directions
    c.interNodeBytesPerS = 50e9;  // one 400 Gb/s NIC per GPU
    c.nodeOverheadW = 4600.0;
    c.nodeIdleW = 4600.0;
    c.gpusAvailable = 16384;
    if (gpu == PublishedGpu::H200) {
        c.id = "dgx-h200-validation";
        c.name = "DGX H200 (8x H200 141GB SXM5, 8x 400 Gb/s per node)";
        a.name = "NVIDIA H200 141GB SXM5";
        a.memoryBytes = 141.0 * kGiB;
        a.hbmBytesPerS = 4.8e12;
    }
    return c;
}

// MI325X: MI300X's compute die and peaks (the mi300x-node preset's datasheet figures) with its own memory
// and board power (AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s, 1,000 W).
ClusterProfile mi325xNode() {
    ClusterProfile c;
    c.id = "mi325x-validation";
    c.name = "AMD Instinct MI325X platform (8 GPUs, 8x 400 Gb/s per node)";
    AcceleratorSpec& a = c.accelerator;
    a.name = "AMD Instinct MI325X OAM";
    a.peakFlops = {{Precision::FP8, 2614.9e12},
                   {Precision::BF16, 1307.4e12},
                   {Precision::FP16, 1307.4e12},
                   {Precision::TF32, 653.7e12},
                   {Precision::FP32, 163.4e12}};
    a.memoryBytes = 256.0 * kGiB;
    a.hbmBytesPerS = 6.0e12;
    a.tdpW = 1000.0;
    a.minPowerLimitW = 500.0;
    a.idleW = 140.0;
    c.gpusPerNode = 8;
    c.intraNodeBytesPerS = 448e9; // Infinity Fabric: 7 links x 64 GB/s per direction
    c.interNodeBytesPerS = 50e9;  // one 400 Gb/s NIC per GPU
    c.nodeOverheadW = 4600.0;
    c.nodeIdleW = 4600.0;
    c.gpusAvailable = 1024;
    return c;
}

} // namespace

ClusterProfile publishedRunCluster(const PerfCalibration& calibration, PublishedGpu gpu) {
    ClusterProfile c = gpu == PublishedGpu::MI325X ? mi325xNode() : hopperNode(gpu);
    c.calibration = calibration;
    c.calibrationFamily = familyOf(gpu);
    return c;
}

ThroughputPrediction predictThroughput(const PublishedThroughputRow& row,
                                       const PerfCalibration& calibration) {
    const PerfProblem problem = makePerfProblem(row.job, publishedRunCluster(calibration, row.gpu));
    ThroughputPrediction best;
    // The fastest feasible (b, v) of each recompute mode (full recomputation of every layer or of the fewest
    // that fit), then the fastest mode: the GPU count is the row's, so the fastest step is the highest
    // throughput per GPU in either unit. A published mode is taken as it is.
    for (const Recompute recompute : kRecomputeModes) {
        if (!row.chooseRecompute && recompute != row.config.recompute)
            continue;
        ParallelConfig c = row.config;
        c.recompute = recompute;
        const auto variant = fastestVariant(problem, c, !row.chooseMicroBatch, !row.chooseInterleave, 0.0,
                                            row.chooseRecompute);
        if (!variant)
            continue;
        const PerfEstimate& e = variant->estimate;
        const double value = row.measuredIsTflops ? e.modelFlopsPerGpu / 1e12 : e.tokensPerS / c.gpus();
        if (!best.feasible || value > best.value)
            best = {true, variant->config, value};
    }
    return best;
}

double throughputLoss(const std::vector<PublishedThroughputRow>& rows, Precision precision,
                      const PerfCalibration& calibration) {
    constexpr double kInfeasibleError = 1.0; // ln e: as if the model were off by a factor of 2.7
    double sum = 0.0;
    int count = 0;
    for (const PublishedThroughputRow& row : rows) {
        if (row.role != ThroughputRole::Calibration || row.job.precision != precision)
            continue;
        const ThroughputPrediction predicted = predictThroughput(row, calibration);
        const double r = predicted.feasible ? std::log(predicted.value / row.measured) : kInfeasibleError;
        sum += r * r;
        ++count;
    }
    return count > 0 ? sum / count : 0.0;
}

namespace {

// One calibration value fitted to the calibration rows of one precision, everything else kept from `start`.
PerfCalibration fitOneValue(const std::vector<PublishedThroughputRow>& rows, PerfCalibration start,
                            double PerfCalibration::*value, Precision precision, double lo, double hi,
                            double tolerance) {
    start.*value = goldenSectionMinimum(
        [&](double candidate) {
            PerfCalibration trial = start;
            trial.*value = candidate;
            return throughputLoss(rows, precision, trial);
        },
        lo, hi, tolerance);
    return start;
}

} // namespace

PerfCalibration fitGemmEfficiency(const std::vector<PublishedThroughputRow>& rows, PerfCalibration start,
                                  Precision precision) {
    return fitOneValue(rows, start, &PerfCalibration::gemmEfficiencyMax, precision, 0.3, 0.95, 1e-4);
}

PerfCalibration fitFp8Cast(const std::vector<PublishedThroughputRow>& rows, PerfCalibration start) {
    return fitOneValue(rows, start, &PerfCalibration::fp8CastBytesPerElement, Precision::FP8, 0.0, 16.0,
                       1e-3);
}

} // namespace carbon3d
