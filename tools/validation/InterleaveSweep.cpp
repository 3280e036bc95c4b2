// SPDX-License-Identifier: MIT
#include "validation/InterleaveSweep.h"

#include "domain/InputError.h"
#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "validation/CsvTable.h"
#include "validation/LineSearch.h"
#include "validation/ValidationSet.h"

#include <cmath>

namespace carbon3d {

namespace {

// GPT-2's vocabulary padded to Megatron's default multiple of 128: the paper does not state its vocabulary.
constexpr int kAssumedVocab = 50304;

double samplesPerGpuPerS(const PerfProblem& problem, const ParallelConfig& config, int globalBatch) {
    const PerfEstimate e = estimate(problem, config, 0.0);
    if (!e.feasible)
        return 0.0;
    return globalBatch / (e.stepTimeS * config.gpus());
}

} // namespace

std::vector<InterleavePair> loadInterleaveSweep(const std::string& dataDir) {
    const Csv csv = readCsv(dataDir + "/zero_bubble/table4.csv");
    const int cModel = csv.column("model"), cLayers = csv.column("layers"), cHidden = csv.column("hidden");
    const int cHeads = csv.column("heads"), cSeq = csv.column("seq_len"), cGpus = csv.column("gpus");
    const int cPp = csv.column("pipeline_parallel"), cMicro = csv.column("micro_batch");
    const int cCount = csv.column("micro_batches"), cV = csv.column("interleave");
    const int cPlain = csv.column("samples_per_gpu_per_s_1f1b");
    const int cInterleaved = csv.column("samples_per_gpu_per_s_1f1b_i");
    std::vector<InterleavePair> pairs;
    for (size_t i = 0; i < csv.rows.size(); ++i) {
        InterleavePair pair;
        pair.line = csv.lines[i];
        pair.model = csv.text(i, cModel);
        pair.job.model = gptModel(csv.integer(i, cLayers), csv.integer(i, cHidden), csv.integer(i, cHeads),
                                  csv.integer(i, cSeq), kAssumedVocab);
        pair.job.precision = Precision::BF16; // their fp16: the same A100 peak and bytes
        pair.job.attention = AttentionKernel::Materialized;
        pair.plain.pp = csv.integer(i, cPp);
        if (pair.plain.pp != csv.integer(i, cGpus))
            throw InputError(csv.file, pair.line, cGpus + 1,
                             "expected gpus = pipeline_parallel (pure pipeline)");
        pair.plain.microBatch = csv.integer(i, cMicro);
        pair.plain.recompute = Recompute::None;
        pair.job.globalBatch = pair.plain.microBatch * csv.integer(i, cCount);
        pair.interleaved = pair.plain;
        pair.interleaved.interleave = csv.integer(i, cV);
        pair.plainMeasured = csv.number(i, cPlain);
        pair.interleavedMeasured = csv.number(i, cInterleaved);
        if (pair.plainMeasured <= 0.0 || pair.interleavedMeasured <= 0.0)
            throw InputError(csv.file, pair.line, cPlain + 1, "expected positive throughputs");
        pairs.push_back(pair);
    }
    return pairs;
}

ClusterProfile interleaveSweepCluster(const PerfCalibration& calibration, double interNodeBytesPerS) {
    ClusterProfile cluster = seleneCluster(calibration); // the same A100 80GB nodes with NVLink
    cluster.id = "zero-bubble-a100";
    cluster.name = "Zero Bubble PP cluster (4 nodes of 8 A100 80GB, RoCE)";
    cluster.interNodeBytesPerS = interNodeBytesPerS;
    cluster.gpusAvailable = 32;
    return cluster;
}

InterleavePrediction predictInterleavePair(const InterleavePair& pair, const ClusterProfile& cluster) {
    const PerfProblem problem = makePerfProblem(pair.job, cluster);
    return {samplesPerGpuPerS(problem, pair.plain, pair.job.globalBatch),
            samplesPerGpuPerS(problem, pair.interleaved, pair.job.globalBatch)};
}

bool runsInOneNode(const InterleavePair& pair, const ClusterProfile& cluster) {
    return pair.plain.gpus() <= cluster.gpusPerNode;
}

double interleaveLoss(const std::vector<InterleavePair>& pairs, const ClusterProfile& cluster) {
    double sum = 0.0;
    int count = 0;
    for (const InterleavePair& pair : pairs) {
        if (!runsInOneNode(pair, cluster))
            continue;
        ++count;
        const InterleavePrediction p = predictInterleavePair(pair, cluster);
        if (p.plain <= 0.0 || p.interleaved <= 0.0)
            return INFINITY; // a run the model cannot hold counts as the worst fit
        const double error = std::log(p.speedup() / pair.measuredSpeedup());
        sum += error * error;
    }
    return count == 0 ? 0.0 : sum / count;
}

PerfCalibration fitPipelineTransferOverhead(const std::vector<InterleavePair>& pairs, PerfCalibration start) {
    start.pipelineTransferOverheadS = goldenSectionMinimum(
        [&](double seconds) {
            PerfCalibration trial = start;
            trial.pipelineTransferOverheadS = seconds;
            return interleaveLoss(pairs, interleaveSweepCluster(trial));
        },
        0.0, 5e-3, 1e-7);
    return start;
}

} // namespace carbon3d
