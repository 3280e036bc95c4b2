// SPDX-License-Identifier: MIT
// Benchmarks of the performance model (docs/PERFORMANCE.md, section "Performance model"):
//   BM_Baseline*         what the evaluations are compared with in the same run
//   BM_EstimateConfig    one full evaluation (memory, time, power) of a configuration
//   BM_FullSearch1T      every configuration of a 1T-parameter model (l128 h25600 a160) on 16,384 GPUs;
//                        /1 with FSDP offered as well (TrainingJob::fsdp)
//   BM_EstimateMoe       one full evaluation of a DeepSeek-V3 configuration with expert parallelism
//   BM_SearchMoe         every configuration of DeepSeek-V3 on up to 1,024 H100s, ep searched with the rest
#include "config/Presets.h"
#include "perf/ConfigSearch.h"
#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "validation/ValidationSet.h"

#include <array>
#include <benchmark/benchmark.h>

using namespace carbon3d;

namespace {

TrainingJob megatron1t(int globalBatch) {
    TrainingJob job;
    job.model = gptModel(128, 25600, 160, 2048, 51200);
    job.globalBatch = globalBatch;
    return job;
}

// 64 distinct configurations so that branch prediction cannot memorise one path.
std::array<ParallelConfig, 64> configs() {
    std::array<ParallelConfig, 64> list{};
    const int tps[] = {1, 2, 4, 8};
    const int pps[] = {8, 16, 32, 64};
    const Recompute rcs[] = {Recompute::None, Recompute::Selective, Recompute::Full, Recompute::Full};
    for (int i = 0; i < 64; ++i) {
        ParallelConfig& c = list[static_cast<size_t>(i)];
        c.tp = tps[i % 4];
        c.pp = pps[(i / 4) % 4];
        c.dp = 16384 / (c.tp * c.pp) > 0 ? 4 : 1;
        c.microBatch = 1 + (i / 16) % 2;
        c.recompute = rcs[(i / 16) % 4];
        c.sequenceParallel = c.tp > 1;
    }
    return list;
}

void BM_BaselineCopyConfig(benchmark::State& state) {
    // Baseline: touching the same configurations and writing a result struct, without the model.
    const auto list = configs();
    PerfEstimate e;
    size_t i = 0;
    for (auto _ : state) {
        const ParallelConfig& c = list[i++ & 63];
        e.gpus = c.gpus();
        e.stepTimeS = c.microBatch;
        benchmark::DoNotOptimize(e);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BaselineCopyConfig);

void BM_BaselineMemoryOnly(benchmark::State& state) {
    const PerfProblem problem = makePerfProblem(megatron1t(4096), seleneCluster());
    const auto list = configs();
    PerfEstimate e;
    size_t i = 0;
    for (auto _ : state) {
        estimateMemory(problem, list[i++ & 63], e);
        benchmark::DoNotOptimize(e);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BaselineMemoryOnly);

// Full estimates of the 64 configurations in turn.
void estimateInTurn(benchmark::State& state, const PerfProblem& problem,
                    const std::array<ParallelConfig, 64>& list) {
    PerfEstimate e;
    size_t i = 0;
    for (auto _ : state) {
        estimate(problem, list[i++ & 63], 0.0, e);
        benchmark::DoNotOptimize(e);
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_EstimateConfig(benchmark::State& state) {
    estimateInTurn(state, makePerfProblem(megatron1t(4096), seleneCluster()), configs());
}
BENCHMARK(BM_EstimateConfig);

void BM_FullSearch1T(benchmark::State& state) {
    // Every configuration on up to 16,384 GPUs (all GPU counts), global batch 4,096 sequences.
    ClusterProfile cluster = seleneCluster();
    cluster.gpusAvailable = 16384;
    const PerfProblem problem = makePerfProblem(megatron1t(4096), cluster);
    SearchOptions options;
    options.maxGpus = 16384;
    options.offerFsdp = state.range(0) == 1;
    SearchStats stats;
    for (auto _ : state) {
        stats = {};
        auto top = searchConfigs(problem, options, 10, &stats);
        benchmark::DoNotOptimize(top);
    }
    state.counters["enumerated"] = static_cast<double>(stats.enumerated);
    state.counters["feasible"] = static_cast<double>(stats.evaluated);
}
BENCHMARK(BM_FullSearch1T)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_ParetoFrontier1T(benchmark::State& state) {
    ClusterProfile cluster = seleneCluster();
    cluster.gpusAvailable = 16384;
    const PerfProblem problem = makePerfProblem(megatron1t(4096), cluster);
    SearchOptions options;
    options.maxGpus = 16384;
    for (auto _ : state) {
        auto frontier = paretoFrontier(problem, options);
        benchmark::DoNotOptimize(frontier);
    }
}
BENCHMARK(BM_ParetoFrontier1T)->Unit(benchmark::kMillisecond);

TrainingJob deepSeekV3(int globalBatch) {
    TrainingJob job;
    job.model = *findModelPreset("deepseek-v3");
    job.globalBatch = globalBatch;
    return job;
}

// 64 distinct expert-parallel layouts of DeepSeek-V3, every one well-formed (so each is a full estimate,
// out-of-memory ones included): d x t = 64 GPUs per stage, which every ep here divides and d divides the
// batch of 1,024; p splits 61 + 2 layers evenly.
std::array<ParallelConfig, 64> moeConfigs() {
    std::array<ParallelConfig, 64> list{};
    const int tps[] = {1, 2, 4, 8};
    const int pps[] = {1, 3, 7, 21};
    const int eps[] = {8, 16, 32, 64};
    for (int i = 0; i < 64; ++i) {
        ParallelConfig& c = list[static_cast<size_t>(i)];
        c.tp = tps[i % 4];
        c.pp = pps[(i / 4) % 4];
        c.ep = eps[(i / 16) % 4];
        c.dp = 64 / c.tp;
        c.sequenceParallel = c.tp > 1;
        c.distributedOptimizer = true;
    }
    return list;
}

void BM_EstimateMoe(benchmark::State& state) {
    const PerfProblem problem = makePerfProblem(deepSeekV3(1024), *findClusterPreset("dgx-h100"));
    for (const ParallelConfig& c : moeConfigs()) {
        const Infeasibility reason = estimate(problem, c).reason;
        if (reason != Infeasibility::None && reason != Infeasibility::OutOfMemory)
            state.SkipWithError(("a malformed layout: " + c.label()).c_str());
    }
    estimateInTurn(state, problem, moeConfigs());
}
BENCHMARK(BM_EstimateMoe);

void BM_SearchMoe(benchmark::State& state) {
    // What `carbon3d-cli search --model deepseek-v3 --cluster dgx-h100 --gpus 1024 --global-batch 1024` does.
    const TrainingJob job = deepSeekV3(1024);
    const PerfProblem problem = makePerfProblem(job, *findClusterPreset("dgx-h100"));
    const SearchOptions options = searchOptionsFor(job, 1024);
    SearchStats stats;
    for (auto _ : state) {
        stats = {};
        auto top = searchConfigs(problem, options, 10, &stats);
        benchmark::DoNotOptimize(top);
    }
    state.counters["enumerated"] = static_cast<double>(stats.enumerated);
    state.counters["feasible"] = static_cast<double>(stats.evaluated);
}
BENCHMARK(BM_SearchMoe)->Unit(benchmark::kMillisecond);

} // namespace
