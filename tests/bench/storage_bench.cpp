// SPDX-License-Identifier: MIT
// Results store timings (docs/PERFORMANCE.md "Results store"). Targets: saving a one-year hourly run
// (8,760 intervals) < 50 ms, listing 1,000 runs < 20 ms, loading one run's series < 20 ms. Baselines in the
// same run: a write transaction that changes one row (renameRun) for the writes, a one-row read
// (listRuns with limit 1) for the reads. Wall-clock time: the work is I/O and locking as much as CPU.
#include "../storage/StorageSamples.h"
#include "storage/ResultsStore.h"

#include <QTemporaryDir>
#include <benchmark/benchmark.h>
#include <memory>

using namespace carbon3d;

namespace {

QTemporaryDir& tempDir() {
    static QTemporaryDir dir;
    return dir;
}

std::string dbPath(const char* name) {
    return tempDir().filePath(QString::fromLatin1(name)).toStdString();
}

// A database holding `runs` runs of `rows` intervals each, created once per process.
std::string populated(const char* name, int runs, std::size_t rows) {
    std::string path = dbPath(name);
    ResultsStore store(path);
    if (store.listRuns({}).size() != static_cast<std::size_t>(runs)) {
        for (int i = 0; i < runs; ++i)
            store.saveRun(
                test::sampleScenario("scenario " + std::to_string(i % 12)),
                test::sampleRun(rows, static_cast<std::uint64_t>(i), i % 2 ? "dynamic-3d" : "static-max"),
                test::sampleTraces());
    }
    return path;
}

void BM_Baseline_OneRowWriteTransaction(benchmark::State& state) {
    ResultsStore store(dbPath("write.sqlite"));
    const RunId id = store.saveRun(test::sampleScenario("w"), test::sampleRun(1, 1), test::sampleTraces());
    int i = 0;
    for (auto _ : state)
        store.renameRun(id, "name " + std::to_string(++i));
}
BENCHMARK(BM_Baseline_OneRowWriteTransaction)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_SaveRun(benchmark::State& state) {
    ResultsStore store(dbPath("write.sqlite"));
    const RunResult run = test::sampleRun(static_cast<std::size_t>(state.range(0)), 5);
    const StoredScenario scenario = test::sampleScenario("save");
    const std::vector<StoredTrace> traces = test::sampleTraces();
    for (auto _ : state)
        benchmark::DoNotOptimize(store.saveRun(scenario, run, traces));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SaveRun)->Arg(0)->Arg(8760)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Baseline_ListOneRun(benchmark::State& state) {
    ResultsStore store(populated("list.sqlite", 1000, 24));
    RunFilter filter;
    filter.limit = 1;
    for (auto _ : state)
        benchmark::DoNotOptimize(store.listRuns(filter));
}
BENCHMARK(BM_Baseline_ListOneRun)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_ListRuns1000(benchmark::State& state) {
    ResultsStore store(populated("list.sqlite", 1000, 24));
    for (auto _ : state) {
        const std::vector<RunSummary> runs = store.listRuns();
        if (runs.size() != 1000)
            state.SkipWithError("expected 1000 runs");
        benchmark::DoNotOptimize(runs.data());
    }
}
BENCHMARK(BM_ListRuns1000)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_LoadSeries8760(benchmark::State& state) {
    ResultsStore store(populated("load.sqlite", 20, 8760));
    const RunId id = store.listRuns().at(10).id;
    for (auto _ : state) {
        const std::vector<IntervalRecord> series = store.loadSeries(id);
        if (series.size() != 8760)
            state.SkipWithError("expected 8760 intervals");
        benchmark::DoNotOptimize(series.data());
    }
    state.SetItemsProcessed(state.iterations() * 8760);
}
BENCHMARK(BM_LoadSeries8760)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_LoadRun8760(benchmark::State& state) {
    ResultsStore store(populated("load.sqlite", 20, 8760));
    const RunId id = store.listRuns().at(10).id;
    for (auto _ : state)
        benchmark::DoNotOptimize(store.loadRun(id));
}
BENCHMARK(BM_LoadRun8760)->UseRealTime()->Unit(benchmark::kMillisecond);

// What the open-time check costs: quick_check reads the whole file, HeaderOnly does not.
void BM_Open(benchmark::State& state) {
    const std::string path = populated("load.sqlite", 20, 8760); // 20 one-year runs
    const auto check =
        state.range(0) == 0 ? ResultsStore::OpenCheck::HeaderOnly : ResultsStore::OpenCheck::Quick;
    for (auto _ : state)
        ResultsStore store(path, {ResultsStore::OpenMode::MustExist, check});
}
BENCHMARK(BM_Open)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

} // namespace
