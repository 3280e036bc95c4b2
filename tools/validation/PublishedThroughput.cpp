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

// The columns of runs.csv; required ones are looked up (and missing ones reported) in this order.
struct RunsColumns {
    int role, source, model, layers, hidden, heads, kvHeads, ffnHidden, gatedMlp, dropout, vocab, seqLen;
    int gpus, precision, tp, pp, cp, vp, dp, microBatch, globalBatch, measured, measuredUnit, gpu;
    int fp8Weights, bf16Grads, fsdp, recompute; // optional: -1 when absent
};

RunsColumns runsColumns(const Csv& csv) {
    RunsColumns col;
    col.role = csv.column("role");
    col.source = csv.column("source_id");
    col.model = csv.column("model");
    col.layers = csv.column("layers");
    col.hidden = csv.column("hidden");
    col.heads = csv.column("heads");
    col.kvHeads = csv.column("kv_heads");
    col.ffnHidden = csv.column("ffn_hidden");
    col.gatedMlp = csv.column("gated_mlp");
    col.dropout = csv.column("dropout");
    col.vocab = csv.column("vocab");
    col.seqLen = csv.column("seq_len");
    col.gpus = csv.column("gpus");
    col.precision = csv.column("precision");
    col.tp = csv.column("tp");
    col.pp = csv.column("pp");
    col.cp = csv.column("cp");
    col.vp = csv.column("vp");
    col.dp = csv.column("dp");
    col.microBatch = csv.column("micro_batch");
    col.globalBatch = csv.column("global_batch");
    col.measured = csv.column("measured");
    col.measuredUnit = csv.column("measured_unit");
    col.gpu = csv.column("gpu");
    // Absent or empty: FP8 weights, as NeMo's and Megatron-Bridge's FP8 recipes hold them; 0 where the run
    // kept Megatron-LM's BF16 copy (fp8_param_gather off).
    col.fp8Weights = csv.optionalColumn("fp8_weights");
    // Absent or empty: fp32 gradients (Megatron-LM's for bf16 training); 1 where the run's configuration
    // keeps the gradient buffer in 16 bits (NeMo's grad_sync_dtype: bf16).
    col.bf16Grads = csv.optionalColumn("bf16_grads");
    // Absent or empty: the distributed optimizer (Megatron-Core's default in these stacks); 1: FSDP.
    col.fsdp = csv.optionalColumn("fsdp");
    // Absent or empty: the rule (the fastest that fits); else what the run published: none, selective, or
    // full (every layer).
    col.recompute = csv.optionalColumn("recompute");
    return col;
}

// The model's architecture, named `name` (the row's model column).
void readModelShape(const Csv& csv, size_t i, const RunsColumns& col, ModelSpec& m, const std::string& name) {
    m.id = name;
    m.name = name;
    m.layers = csv.integer(i, col.layers);
    m.hidden = csv.integer(i, col.hidden);
    m.heads = csv.integer(i, col.heads);
    m.kvHeads = csv.integer(i, col.kvHeads);
    m.ffnHidden = csv.integer(i, col.ffnHidden);
    m.gatedMlp = csv.text(i, col.gatedMlp) == "1";
    m.dropout = csv.text(i, col.dropout) == "1";
    m.vocab = csv.integer(i, col.vocab);
    m.seqLen = csv.integer(i, col.seqLen);
}

// Precision, attention kernel, FP8 weights, gradient width and global batch of the row's job.
void readJobSettings(const Csv& csv, size_t i, const RunsColumns& col, PublishedThroughputRow& row) {
    const auto precision = parsePrecision(csv.text(i, col.precision));
    if (!precision)
        throw InputError(csv.file, row.line, col.precision + 1, "expected a precision such as bf16 or fp8");
    row.job.precision = *precision;
    row.job.attention = AttentionKernel::Flash; // every row's stack runs it (docs/VALIDATION.md)
    row.job.fp8Weights = optionalFlag(csv, i, col.fp8Weights, true);
    row.job.bf16Gradients = optionalFlag(csv, i, col.bf16Grads, false);
    row.job.globalBatch = csv.integer(i, col.globalBatch);
}

// The parallel configuration; what the source leaves empty (micro-batch, interleave, recomputation) is
// marked for the prediction to choose.
void readParallelism(const Csv& csv, size_t i, const RunsColumns& col, PublishedThroughputRow& row) {
    row.config.tp = csv.integer(i, col.tp);
    row.config.pp = csv.integer(i, col.pp);
    row.config.cp = csv.integer(i, col.cp);
    row.config.dp = csv.integer(i, col.dp);
    if (row.config.gpus() != csv.integer(i, col.gpus))
        throw InputError(csv.file, row.line, col.gpus + 1, "expected gpus = dp x tp x pp x cp");
    row.config.microBatch = optionalInteger(csv, i, col.microBatch);
    row.chooseMicroBatch = row.config.microBatch == 0;
    row.config.interleave = optionalInteger(csv, i, col.vp);
    row.chooseInterleave = row.config.interleave == 0;
    row.config.sequenceParallel = row.config.tp > 1;
    row.config.distributedOptimizer = true;
    row.config.fullySharded = optionalFlag(csv, i, col.fsdp, false);
    const std::string recompute = col.recompute >= 0 ? csv.text(i, col.recompute) : std::string();
    row.chooseRecompute = recompute.empty();
    if (!row.chooseRecompute) {
        const auto mode = parseRecompute(recompute);
        if (!mode)
            throw InputError(csv.file, row.line, col.recompute + 1,
                             "expected " + recomputeModeNames() + " or nothing, found '" + recompute + "'");
        row.config.recompute = *mode;
    }
}

// The published throughput and its unit.
void readMeasurement(const Csv& csv, size_t i, const RunsColumns& col, PublishedThroughputRow& row) {
    row.measured = csv.number(i, col.measured);
    const std::string& unit = csv.text(i, col.measuredUnit);
    if (unit != "tokens_per_s_per_gpu" && unit != "model_tflops_per_gpu")
        throw InputError(csv.file, row.line, col.measuredUnit + 1,
                         "expected tokens_per_s_per_gpu or model_tflops_per_gpu, found '" + unit + "'");
    row.measuredIsTflops = unit == "model_tflops_per_gpu";
}

} // namespace

std::vector<PublishedThroughputRow> loadPublishedThroughput(const std::string& dataDir,
                                                            CalibrationFamily family) {
    const Csv csv = readCsv(dataDir + "/" + std::string(calibrationFamilyName(family)) + "/runs.csv");
    const RunsColumns col = runsColumns(csv);
    std::vector<PublishedThroughputRow> rows;
    for (size_t i = 0; i < csv.rows.size(); ++i) {
        PublishedThroughputRow row;
        row.role = roleOf(csv, i, col.role);
        row.gpu = gpuOf(csv, i, col.gpu, family);
        row.source = csv.text(i, col.source);
        row.model = csv.text(i, col.model);
        row.line = csv.lines[i];
        readModelShape(csv, i, col, row.job.model, row.model);
        readJobSettings(csv, i, col, row);
        readParallelism(csv, i, col, row);
        readMeasurement(csv, i, col, row);
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

std::optional<RankedConfig> fastestPublishedVariant(const PerfProblem& problem, const ParallelConfig& layout,
                                                    bool chooseRecompute, bool chooseMicroBatch,
                                                    bool chooseInterleave) {
    std::optional<RankedConfig> best;
    for (const Recompute recompute : kRecomputeModes) {
        if (!chooseRecompute && recompute != layout.recompute)
            continue;
        ParallelConfig c = layout;
        c.recompute = recompute;
        const auto variant =
            fastestVariant(problem, c, !chooseMicroBatch, !chooseInterleave, 0.0, chooseRecompute);
        if (variant && (!best || variant->estimate.stepTimeS < best->estimate.stepTimeS))
            best = variant;
    }
    return best;
}

ThroughputPrediction predictThroughput(const PublishedThroughputRow& row,
                                       const PerfCalibration& calibration) {
    const PerfProblem problem = makePerfProblem(row.job, publishedRunCluster(calibration, row.gpu));
    const auto variant = fastestPublishedVariant(problem, row.config, row.chooseRecompute,
                                                 row.chooseMicroBatch, row.chooseInterleave);
    if (!variant)
        return {};
    const PerfEstimate& e = variant->estimate;
    const double value = row.measuredIsTflops ? e.modelFlopsPerGpu / 1e12 : e.tokensPerS / row.config.gpus();
    return {true, variant->config, value};
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
