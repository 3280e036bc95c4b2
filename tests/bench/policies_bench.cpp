// SPDX-License-Identifier: MIT
// Policy benchmarks: every policy of the policies issue (and the engine's) on a 30-day job over an
// hourly trace (California 2022, from 2022-06-01, deadline 45 days after the start), a 4-option menu
// with 10 min reconfiguration/resume overheads. static-max is the baseline: docs/PERFORMANCE.md
// ("Policies") reports every other time as a ratio to it from the same run. multi-region and the
// oracle's second case run over the California and Texas traces; eadt's levers need the performance model
// (core/runner), so here it benchmarks only its delegation (inner dynamic-3d) on the synthetic menu.
#include "SyntheticJob.h"
#include "config/ScenarioJson.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "runner/ScenarioRunner.h"
#include "traces/TraceLoader.h"

#include <benchmark/benchmark.h>
#include <map>
#include <string>

using namespace carbon3d;

namespace {

const CarbonTrace& trace(const char* file) {
    static std::map<std::string, CarbonTrace> cache;
    auto it = cache.find(file);
    if (it == cache.end())
        it = cache
                 .emplace(file,
                          loadCarbonTrace(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/" + file))
                 .first;
    return it->second;
}

SimulationInput monthInput(bool twoRegions) {
    SimulationInput input = syntheticJob({16, 32, 48, 64}, 0.9, 500.0, 60.0);
    input.regions = {trace("US-CAL-CISO_2022.csv")};
    if (twoRegions)
        input.regions.push_back(trace("US-TEX-ERCO_2022.csv"));
    input.startUtc = 1654041600; // 2022-06-01T00:00:00Z
    input.deadlineUtc = input.startUtc + 45 * kSecondsPerDay;
    input.totalWork = 30.0 * 86400.0 * input.menu.back().workPerSecond;
    input.modelling.reconfigurationSeconds = 600.0;
    input.modelling.resizeSeconds = 600.0; // the synthetic menu varies data parallelism only
    input.modelling.preemptionSeconds = 600.0;
    return input;
}

void runPolicy(benchmark::State& state, const std::string& policy, bool twoRegions,
               const std::map<std::string, std::string>& options = {}) {
    const SimulationInput input = monthInput(twoRegions);
    for (auto _ : state) {
        RunResult result = simulate(input, PolicySpec{policy, options});
        benchmark::DoNotOptimize(result.metrics.totalG);
    }
}

} // namespace

#define POLICY_BENCH(NAME, POLICY, TWO)                                                                      \
    static void NAME(benchmark::State& state) {                                                              \
        runPolicy(state, POLICY, TWO);                                                                       \
    }                                                                                                        \
    BENCHMARK(NAME)->Unit(benchmark::kMillisecond)->UseRealTime()

POLICY_BENCH(BM_Month_StaticMax_Baseline, "static-max", false);
POLICY_BENCH(BM_Month_BestStatic, "best-static", false);
POLICY_BENCH(BM_Month_SuspendResume, "suspend-resume", false);
POLICY_BENCH(BM_Month_Tertile, "tertile", false);
POLICY_BENCH(BM_Month_Dynamic3d, "dynamic-3d", false);
POLICY_BENCH(BM_Month_WaitAwhile, "wait-awhile", false);
POLICY_BENCH(BM_Month_WaitAwhileInterruptible, "wait-awhile-interruptible", false);
POLICY_BENCH(BM_Month_CarbonScaler, "carbonscaler", false);
POLICY_BENCH(BM_Month_GreedyLookahead, "greedy-lookahead", false);
POLICY_BENCH(BM_Month_Chase, "chase", false);
POLICY_BENCH(BM_Month_Ilp, "ilp", false);
POLICY_BENCH(BM_Month_Eadt, "eadt", false);
POLICY_BENCH(BM_Month_MultiRegion, "multi-region", true);
POLICY_BENCH(BM_Month_Oracle, "oracle", false);
POLICY_BENCH(BM_Month_Oracle_TwoRegions, "oracle", true);

// The ILP at a coarser re-solve interval (the default re-solves every 6 h: 120 solves over 30 days).
static void BM_Month_Ilp_Resolve24h(benchmark::State& state) {
    runPolicy(state, "ilp", false, {{"resolve_hours", "24"}});
}
BENCHMARK(BM_Month_Ilp_Resolve24h)->Unit(benchmark::kMillisecond)->UseRealTime();

// The ILP on the default scenario's real menu (GPT-3 175B on 1,024 A100s: 18 performance-model options)
// with its token budget scaled to 30 days at the fastest option and 25 % slack: the size a user meets.
static void BM_Month_Ilp_DefaultScenarioMenu(benchmark::State& state) {
    Scenario scenario =
        loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/default.json");
    const PreparedScenario base = prepareScenario(scenario);
    scenario.job.tokens *= 30.0 * 24.0 / base.staticMaxHours;
    const PreparedScenario prepared = prepareScenario(scenario);
    state.counters["menu_options"] = static_cast<double>(prepared.menu.size());
    for (auto _ : state) {
        RunResult result = runPolicy(prepared, PolicySpec{"ilp", {}});
        benchmark::DoNotOptimize(result.metrics.totalG);
    }
}
BENCHMARK(BM_Month_Ilp_DefaultScenarioMenu)->Unit(benchmark::kMillisecond)->UseRealTime();

// Growth with the menu (issue 40 item 6): the default scenario with N power limits spread over 150-400 W
// (0 = none, its usual 26 options), so that the menu holds N + 1 variants of each size. BM_Menu_Build
// times building the menu (the performance model's search), the others a run on the built menu. A cost
// linear in the options keeps time / menu_options flat as N grows.
namespace {

PreparedScenario scenarioWithPowerLimits(int limits) {
    Scenario scenario =
        loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/default.json");
    for (int k = 0; k < limits; ++k)
        scenario.modelling.powerLimitsW.push_back(150.0 + 250.0 * k / std::max(1, limits - 1));
    return prepareScenario(scenario);
}

void runOnMenu(benchmark::State& state, const std::string& policy) {
    const PreparedScenario prepared = scenarioWithPowerLimits(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        RunResult result = runPolicy(prepared, PolicySpec{policy, {}});
        benchmark::DoNotOptimize(result.metrics.totalG);
    }
    state.counters["menu_options"] = static_cast<double>(prepared.menu.size());
}

} // namespace

static void BM_Menu_Build(benchmark::State& state) {
    std::size_t options = 0;
    for (auto _ : state)
        options = scenarioWithPowerLimits(static_cast<int>(state.range(0))).menu.size();
    state.counters["menu_options"] = static_cast<double>(options);
}
BENCHMARK(BM_Menu_Build)->Arg(0)->Arg(16)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

#define MENU_BENCH(NAME, POLICY)                                                                             \
    static void NAME(benchmark::State& state) {                                                              \
        runOnMenu(state, POLICY);                                                                            \
    }                                                                                                        \
    BENCHMARK(NAME)->Arg(0)->Arg(16)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime()

MENU_BENCH(BM_Menu_StaticMax, "static-max");
MENU_BENCH(BM_Menu_Dynamic3d, "dynamic-3d");
MENU_BENCH(BM_Menu_Oracle, "oracle");

// Issue 44 item 5: the ILP's CPU per run on the default scenario as shipped (GPT-3 175B on 1,024 A100s, its
// 28-option menu, 10 days), against the oracle's on the same job: the oracle is this group's baseline. The
// third row solves every horizon by branch and bound, as before 2026-12-07 (solver=glpk).
namespace {

void runDefaultScenario(benchmark::State& state, const PolicySpec& policy) {
    const PreparedScenario prepared = prepareScenario(
        loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/default.json"));
    for (auto _ : state) {
        RunResult result = runPolicy(prepared, policy);
        benchmark::DoNotOptimize(result.metrics.totalG);
    }
}

} // namespace

static void BM_Default_Oracle_Baseline(benchmark::State& state) {
    runDefaultScenario(state, PolicySpec{"oracle", {}});
}
BENCHMARK(BM_Default_Oracle_Baseline)->Unit(benchmark::kMillisecond);

static void BM_Default_Ilp(benchmark::State& state) {
    runDefaultScenario(state, PolicySpec{"ilp", {}});
}
BENCHMARK(BM_Default_Ilp)->Unit(benchmark::kMillisecond);

static void BM_Default_Ilp_GlpkOnly(benchmark::State& state) {
    runDefaultScenario(state, PolicySpec{"ilp", {{"solver", "glpk"}}});
}
BENCHMARK(BM_Default_Ilp_GlpkOnly)->Unit(benchmark::kMillisecond);
