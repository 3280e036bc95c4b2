// SPDX-License-Identifier: MIT
// Study benchmarks (issue 16, docs/PERFORMANCE.md "Studies"): one cell of the year study per policy (the
// default job from 2022-01-15 in California; the menu the study's cells share is built once, outside the
// timing), static-max the baseline; and two whole studies on one thread: January of the year study (31 starts
// x 7 regions x 6 policies), and Let's Wait Awhile's setting, a 4-hour job submitted every hour of 2022 in
// Germany. Wall-clock time, one thread: the studies' own thread pool is measured by scripts/bench-studies.
// Last, how long a running study takes to stop once cancelled.
#include "domain/Json.h"
#include "domain/Time.h"
#include "runner/ScenarioRunner.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"
#include "study/StudyRunner.h"

#include <atomic>
#include <benchmark/benchmark.h>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

using namespace carbon3d;

namespace {

const std::string kStudies = std::string(CARBON3D_SOURCE_DIR) + "/sample_data/studies/";
const std::string kTraces = std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces";

// The year study's cell of `policy` for the 2022-01-15 start in California, found by its axis values
// (start, region, policy).
StudyCell yearStudyCell(const StudyDefinition& study, const std::string& policy) {
    const std::vector<std::string> wanted{"2022-01-15T00:00:00Z", "US-CAL-CISO", policy};
    for (std::size_t index = 0; index < cellCount(study); ++index) {
        StudyCell cell = cellAt(study, index);
        if (cellValues(study, cell) == wanted)
            return cell;
    }
    throw std::logic_error("the year study has no 2022-01-15 California cell of " + policy);
}

// What a study does per cell once the menu its cells share is built: prepare the scenario, run the policy.
void runCell(benchmark::State& state, const std::string& policy) {
    const StudyDefinition study = loadStudy(kStudies + "year-default.json", kTraces);
    const CellSetup setup = cellSetup(study, yearStudyCell(study, policy));
    const ScenarioMenu menu = buildScenarioMenu(setup.scenario);
    for (auto _ : state) {
        const PreparedScenario prepared = prepareScenario(setup.scenario, menu, std::nullopt);
        const RunResult result = runPolicy(prepared, setup.policy);
        benchmark::DoNotOptimize(result.metrics.totalG);
    }
}

void runWholeStudy(benchmark::State& state, const std::string& file) {
    const StudyDefinition study = loadStudy(kStudies + file, kTraces);
    std::size_t cells = 0;
    for (auto _ : state) {
        StudyRunOptions options;
        options.jobs = 1;
        cells = runStudy(study, options).cells;
    }
    state.counters["cells"] = static_cast<double>(cells);
    state.counters["cells_per_s"] =
        benchmark::Counter(static_cast<double>(cells), benchmark::Counter::kIsIterationInvariantRate);
}

} // namespace

#define CELL_BENCH(NAME, POLICY)                                                                             \
    static void NAME(benchmark::State& state) {                                                              \
        runCell(state, POLICY);                                                                              \
    }                                                                                                        \
    BENCHMARK(NAME)->Unit(benchmark::kMillisecond)->UseRealTime()

CELL_BENCH(BM_Baseline_CellStaticMax, "static-max");
CELL_BENCH(BM_CellBestStatic, "best-static");
CELL_BENCH(BM_CellSuspendResume, "suspend-resume");
CELL_BENCH(BM_CellDynamic3d, "dynamic-3d");
CELL_BENCH(BM_CellCarbonScaler, "carbonscaler");
CELL_BENCH(BM_CellOracle, "oracle");

static void BM_StudyJanuary(benchmark::State& state) {
    runWholeStudy(state, "january-default.json");
}
BENCHMARK(BM_StudyJanuary)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

static void BM_StudyWaitAwhileGermanyHourly(benchmark::State& state) {
    runWholeStudy(state, "wait-awhile-germany-hourly.json");
}
BENCHMARK(BM_StudyWaitAwhileGermanyHourly)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// Cancel (issue 16: within 100 ms): January of the year study on two threads, cancelled once ten cells
// have finished; the time from the cancel to runStudy's return (every running cell stopped within a
// decision, the oracle between its passes), measured by hand.
static void BM_StudyCancelLatency(benchmark::State& state) {
    const StudyDefinition study = loadStudy(kStudies + "january-default.json", kTraces);
    for (auto _ : state) {
        std::atomic<bool> cancel{false};
        std::atomic<int> finished{0};
        StudyRunOptions options;
        options.jobs = 2;
        options.cancel = &cancel;
        options.onCell = [&finished](CellResult&&) { ++finished; };
        std::chrono::steady_clock::time_point stopped;
        std::thread runner([&] {
            runStudy(study, options);
            stopped = std::chrono::steady_clock::now();
        });
        while (finished.load() < 10)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const auto asked = std::chrono::steady_clock::now();
        cancel = true;
        runner.join();
        state.SetIterationTime(std::chrono::duration<double>(stopped - asked).count());
    }
}
BENCHMARK(BM_StudyCancelLatency)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(20);

// Reading a study whose start axis holds N values (issue 40: the twin check compared each value with every
// earlier one, so 100,000 starts, the axis's cap, took 82 s). N = 1,000 is the baseline; the time per start
// should stay flat as N grows 100-fold.
static void BM_ReadStartAxis(benchmark::State& state) {
    const auto starts = static_cast<double>(state.range(0));
    // Every 3 minutes from 2022-01-01: N starts end well inside the bundled 2022 traces.
    const std::string to = formatIsoUtc(daysFromCivil(2022, 1, 1) * kSecondsPerDay +
                                        static_cast<UtcSeconds>((starts - 1.0) * 180.0));
    const JsonValue json = parseJson(R"({"schema": 1, "name": "starts", "base": "../scenarios/default.json",
        "axes": {"start": {"from": "2022-01-01T00:00:00Z", "to": ")" +
                                         to + R"(", "every_hours": 0.05}}})",
                                     "bench-starts.json");
    for (auto _ : state) {
        const StudyDefinition study = parseStudy(json, kStudies + "bench-starts.json", kTraces);
        benchmark::DoNotOptimize(study.axes.front().values.size());
    }
    state.counters["starts"] = starts;
    state.counters["s_per_start"] = benchmark::Counter(starts, benchmark::Counter::kIsIterationInvariantRate |
                                                                   benchmark::Counter::kInvert);
}
BENCHMARK(BM_ReadStartAxis)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();
