// SPDX-License-Identifier: MIT
#include "validation/ValidationSet.h"

#include "domain/InputError.h"
#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "validation/CsvTable.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace carbon3d {

namespace {

std::string billions(double value) {
    std::ostringstream out;
    out << value << "B";
    return out.str();
}

// Megatron pads the GPT-2 vocabulary (50,257) to a multiple of 128 x t (vTrain's README of the data).
int paddedGpt2Vocab(int tp) {
    const int multiple = 128 * tp;
    return (50257 + multiple - 1) / multiple * multiple;
}

void loadVtrain(const std::string& path, ValidationSource source, std::vector<ValidationRow>& out) {
    const Csv csv = readCsv(path);
    const bool multi = source == ValidationSource::VtrainMulti;
    const int cParams = multi ? csv.column("Parameters (billion)") : -1;
    const int cGpus = csv.column("# GPUs"), cBatch = csv.column("global batch"),
              cMicro = csv.column("micro batch");
    const int cHidden = csv.column("hidden size"), cHeads = csv.column("attention heads");
    const int cLayers = csv.column("# layers"), cSeq = csv.column("sequence length");
    const int cTp = csv.column("tensor parallelism"), cDp = csv.column("data parallelism");
    const int cPp = csv.column("pipeline parallelism"), cTime = csv.column("iteration time (ms)");
    for (size_t i = 0; i < csv.rows.size(); ++i) {
        ValidationRow row;
        row.source = source;
        row.line = csv.lines[i];
        row.config.tp = csv.integer(i, cTp);
        row.config.dp = csv.integer(i, cDp);
        row.config.pp = csv.integer(i, cPp);
        row.config.microBatch = csv.integer(i, cMicro);
        row.config.recompute = Recompute::Full; // "full activation checkpointing" (data README)
        const int gpus = csv.integer(i, cGpus);
        if (row.config.gpus() != gpus)
            throw InputError(csv.file, row.line, cGpus + 1, "expected # GPUs = t*d*p");
        row.job.model = gptModel(csv.integer(i, cLayers), csv.integer(i, cHidden), csv.integer(i, cHeads),
                                 csv.integer(i, cSeq), paddedGpt2Vocab(row.config.tp));
        row.job.globalBatch = csv.integer(i, cBatch);
        row.job.attention = AttentionKernel::Materialized; // Megatron-DeepSpeed of 2023 (data README)
        row.measuredStepS = csv.number(i, cTime) / 1000.0;
        if (multi) {
            row.publishedParamsBillion = csv.number(i, cParams);
            row.group = billions(row.publishedParamsBillion) + " on " + std::to_string(gpus);
        } else {
            row.group = "h" + std::to_string(row.job.model.hidden) + " l" +
                        std::to_string(row.job.model.layers) + " on " + std::to_string(gpus);
        }
        out.push_back(row);
    }
}

// An SC21 table: published TFLOP/s per GPU with t, p and the GPU count. The micro-batch and the interleave
// degree where the file gives them (Table 1: NVIDIA's reproduction script; Table 2 the micro-batch only);
// what it does not give, the rule chooses.
void loadSc21(const std::string& path, std::vector<ValidationRow>& out) {
    const Csv sc21 = readCsv(path);
    const int cParams = sc21.column("params_billion"), cHeads = sc21.column("attention_heads");
    const int cHidden = sc21.column("hidden_size"), cLayers = sc21.column("layers");
    const int cTp = sc21.column("tensor_parallel"), cPp = sc21.column("pipeline_parallel");
    const int cGpus = sc21.column("gpus"), cBatch = sc21.column("global_batch"),
              cSeq = sc21.column("seq_len");
    const int cVocab = sc21.column("vocab"), cTflops = sc21.column("tflops_per_gpu");
    const int cMicro = sc21.optionalColumn("micro_batch");
    const int cInterleave = sc21.optionalColumn("interleave");
    for (size_t i = 0; i < sc21.rows.size(); ++i) {
        ValidationRow row;
        row.source = ValidationSource::Sc21;
        row.line = sc21.lines[i];
        row.job.model = gptModel(sc21.integer(i, cLayers), sc21.integer(i, cHidden), sc21.integer(i, cHeads),
                                 sc21.integer(i, cSeq), sc21.integer(i, cVocab));
        row.job.globalBatch = sc21.integer(i, cBatch);
        row.job.attention = AttentionKernel::Materialized; // 2021: before FlashAttention
        const int gpus = sc21.integer(i, cGpus);
        row.config.tp = sc21.integer(i, cTp);
        row.config.pp = sc21.integer(i, cPp);
        if (gpus % (row.config.tp * row.config.pp) != 0)
            throw InputError(sc21.file, row.line, cGpus + 1, "expected gpus to be a multiple of t*p");
        row.config.dp = gpus / (row.config.tp * row.config.pp);
        row.microBatchPublished = cMicro >= 0;
        row.config.microBatch = row.microBatchPublished ? sc21.integer(i, cMicro) : 1;
        row.config.recompute = Recompute::Full;
        row.chooseInterleave = cInterleave < 0;
        if (cInterleave >= 0)
            row.config.interleave = sc21.integer(i, cInterleave);
        row.publishedParamsBillion = sc21.number(i, cParams);
        row.group = billions(row.publishedParamsBillion) + " on " + std::to_string(gpus);
        // Iteration time implied by the published FLOP/s (SC21 Eq. 3, data README).
        row.measuredStepS = sc21FlopsPerIteration(row.job.model, row.job.globalBatch) /
                            (gpus * sc21.number(i, cTflops) * 1e12);
        out.push_back(row);
    }
}

} // namespace

std::vector<ValidationRow> loadValidationRows(const std::string& dataDir) {
    std::vector<ValidationRow> rows;
    loadSc21(dataDir + "/megatron_sc21_table1.csv", rows);
    loadVtrain(dataDir + "/vtrain/ground_truth_multi.csv", ValidationSource::VtrainMulti, rows);
    loadVtrain(dataDir + "/vtrain/ground_truth_single.csv", ValidationSource::VtrainSingle, rows);
    return rows;
}

std::vector<ValidationRow> loadSc21StrongScalingRows(const std::string& dataDir) {
    std::vector<ValidationRow> rows;
    loadSc21(dataDir + "/megatron_sc21_table2.csv", rows);
    return rows;
}

namespace {

AcceleratorSpec a100() {
    AcceleratorSpec a;
    a.name = "NVIDIA A100 80GB SXM4";
    a.peakFlops = {{Precision::BF16, 312e12},
                   {Precision::FP16, 312e12},
                   {Precision::TF32, 156e12},
                   {Precision::FP32, 19.5e12}};
    a.memoryBytes = 80.0 * 1024 * 1024 * 1024; // 80 GiB (HBM capacities are binary)
    a.hbmBytesPerS = 2.039e12;
    a.tdpW = 400.0;
    a.minPowerLimitW = 100.0;
    a.idleW = 60.0; // assumption: no vendor figure (docs/MODEL.md section 6: ~50-70 W)
    return a;
}

} // namespace

ClusterProfile seleneCluster(const PerfCalibration& calibration) {
    ClusterProfile c;
    c.id = "selene-dgx-a100-80gb";
    c.name = "Selene (DGX A100 80GB, HDR InfiniBand)";
    c.accelerator = a100();
    c.gpusPerNode = 8;
    c.intraNodeBytesPerS = 300e9;
    c.interNodeBytesPerS = 25e9;
    // As the dgx-a100-80gb preset, whose sources say where they come from: Selene's Top500 power per node
    // minus its GPUs at HPL (1,525 W at load), and an assumed 1,000 W when idle.
    c.nodeOverheadW = 1525.0;
    c.nodeIdleW = 1000.0;
    c.pue = 1.1;
    c.gpusAvailable = 4480;
    c.calibration = calibration;
    return c;
}

ClusterProfile vtrainCluster(const PerfCalibration& calibration) {
    ClusterProfile c = seleneCluster(calibration);
    c.id = "vtrain-a100";
    c.name = "vTrain validation cluster (8x A100 per node, 800 Gb/s per node)";
    c.intraNodeBytesPerS = 300e9;
    c.interNodeBytesPerS = 800e9 / 8.0 / 8.0;
    c.gpusAvailable = 512;
    return c;
}

namespace {

ClusterProfile clusterOf(const ValidationRow& row, const PerfCalibration& calibration) {
    return row.source == ValidationSource::Sc21 ? seleneCluster(calibration) : vtrainCluster(calibration);
}

} // namespace

PerfProblem validationProblem(const ValidationRow& row, const PerfCalibration& calibration) {
    PerfProblem problem = makePerfProblem(row.job, clusterOf(row, calibration));
    problem.crossNodeTp = true; // vTrain measured TP16 across two nodes
    return problem;
}

double predictStepS(const ValidationRow& row, const PerfCalibration& calibration, ParallelConfig* chosen) {
    return predictStepS(row, validationProblem(row, calibration), chosen);
}

double predictStepS(const ValidationRow& row, const PerfProblem& problem, ParallelConfig* chosen) {
    PerfEstimate e;
    ParallelConfig best = row.config;
    double bestTime = 0.0;
    if (!row.chooseInterleave) {
        estimate(problem, best, 0.0, e);
        bestTime = e.stepTimeS;
    } else {
        const int perStage = row.job.model.layers / row.config.pp;
        const int perReplica = row.job.globalBatch / row.config.dp;
        const int firstB = row.microBatchPublished ? row.config.microBatch : 1;
        const int lastB = row.microBatchPublished ? row.config.microBatch : perReplica;
        for (int b = firstB; b <= lastB; ++b) {
            for (int v = 1; v <= perStage; ++v) {
                ParallelConfig c = row.config;
                c.microBatch = b;
                c.interleave = v;
                estimate(problem, c, 0.0, e);
                if (e.reason != Infeasibility::None)
                    continue; // not a legal (b, v) or does not fit
                if (bestTime == 0.0 || e.stepTimeS < bestTime) {
                    bestTime = e.stepTimeS;
                    best = c;
                }
            }
        }
    }
    if (chosen != nullptr)
        *chosen = best;
    return bestTime;
}

PreparedValidationRows::PreparedValidationRows(const std::vector<ValidationRow>& rows)
    : m_rows(&rows)
    , m_predicted(rows.size()) {
    m_problems.reserve(rows.size());
    for (const ValidationRow& row : rows)
        m_problems.push_back(validationProblem(row, PerfCalibration{}));
}

const std::vector<double>& PreparedValidationRows::predict(const PerfCalibration& calibration) {
    for (size_t i = 0; i < m_problems.size(); ++i) {
        m_problems[i].calibration = calibration;
        m_predicted[i] = predictStepS((*m_rows)[i], m_problems[i]);
    }
    return m_predicted;
}

} // namespace carbon3d
