// SPDX-License-Identifier: MIT
#include "reports/PublishedRunCheck.h"

#include "perf/ModelMath.h"
#include "validation/ValidationSet.h"

namespace carbon3d::reports {

const PublishedRun& bloom176b() {
    // Shape, batch and layout: BigScience, "BLOOM: A 176B-Parameter Open-Access Multilingual Language
    // Model" (2022), Table 3 and section 3.4 (70 layers, hidden 14336, 112 heads, vocabulary 250,880,
    // sequence 2048, global batch 2048, TP 4 x PP 12 x DP 8 on 384 A100 80GB, ZeRO stage 1, activation
    // checkpointing; 366B tokens); micro-batch 2 from the tr11-176B-ml training README of
    // github.com/bigscience-workshop/bigscience. Machine: Jean Zay, 8 A100 per node with 4 Omni-Path
    // 100 Gb/s links (the bigscience/bloom model card), 6.25 GB/s per GPU. Throughput: 149-150 TFLOP/s per
    // GPU in steady state (BigScience training chronicles, March 2022), counted as 8 N per token.
    // GPU-hours and energy: Luccioni, Viguier, Ligozat, "Estimating the Carbon Footprint of BLOOM",
    // JMLR 2023, Table 1: 1,082,990 GPU-hours and 433,196 kWh, which is those hours at the 400 W TDP.
    static const PublishedRun run{"BLOOM-176B",
                                  70,
                                  14336,
                                  112,
                                  250880,
                                  2048,
                                  2048,
                                  8,
                                  4,
                                  12,
                                  2,
                                  Recompute::Full,
                                  true,
                                  4.0 * 100e9 / 8.0 / 8.0,
                                  366e9,
                                  1082990.0,
                                  433196.0,
                                  400.0,
                                  150.0};
    return run;
}

PublishedRunCheck checkPublishedRun(const PublishedRun& run, const PerfCalibration& calibration) {
    PublishedRunCheck check;
    check.published = run;
    TrainingJob job;
    job.model = gptModel(run.layers, run.hidden, run.heads, run.seqLen, run.vocab);
    job.globalBatch = run.globalBatch;
    job.attention = AttentionKernel::Materialized; // Megatron-DeepSpeed of 2022
    ClusterProfile cluster = seleneCluster(calibration);
    cluster.interNodeBytesPerS = run.interNodeBytesPerS;
    const PerfProblem problem = makePerfProblem(job, cluster);
    // No sequence parallelism: Megatron-DeepSpeed of 2022 had none.
    const ParallelConfig config{
        run.dp, run.tp, run.pp, run.microBatch, 1, run.recompute, false, run.distributedOptimizer, 1};
    check.estimate = estimate(problem, config);
    const PerfEstimate& e = check.estimate;
    if (!e.feasible)
        return check;
    const double gpus = config.gpus();
    check.tflopsPerGpu = 8.0 * problem.totalParams * problem.tokensPerIteration / (e.stepTimeS * gpus) / 1e12;
    check.productiveGpuHours = run.tokens / e.tokensPerS * gpus / 3600.0;
    check.gpuEnergyKwh = check.productiveGpuHours * e.power.gpuAverageW / 1000.0;
    check.gpuEnergyAtAllocatedKwh = run.allocatedGpuHours * e.power.gpuAverageW / 1000.0;
    return check;
}

} // namespace carbon3d::reports
