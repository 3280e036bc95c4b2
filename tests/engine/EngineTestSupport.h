// SPDX-License-Identifier: MIT
#pragma once

#include "domain/NumberText.h"
#include "domain/Scenario.h"
#include "engine/Policy.h"
#include "engine/SimulationInput.h"
#include "engine/forecast/Forecaster.h"
#include "traces/TraceLoader.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace carbon3d::test {

// 2022-06-01T00:00:00Z, the default scenario's start.
constexpr UtcSeconds kJune1 = 1654041600;

inline CarbonTrace makeTrace(const std::vector<double>& values, UtcSeconds start = kJune1,
                             std::int64_t step = 3600) {
    CarbonTrace trace;
    trace.regionId = "TEST";
    trace.startUtc = start;
    trace.stepSeconds = step;
    trace.gPerKwh = values;
    return trace;
}

inline ExecutionOption makeOption(int gpus, double workPerSecond, double activePowerW) {
    ExecutionOption option;
    option.config.dp = gpus;
    option.gpusActive = gpus;
    option.workPerSecond = workPerSecond;
    option.activePowerW = activePowerW;
    option.label = "d" + std::to_string(gpus);
    return option;
}

// Synthetic input without overheads, idle power, embodied carbon or GPU price; tests switch those on
// explicitly.
inline SimulationInput makeInput(const CarbonTrace& trace, ExecutionMenu menu, double work, UtcSeconds start,
                                 UtcSeconds deadline) {
    SimulationInput input;
    input.regions = {trace};
    input.menu = std::move(menu);
    input.totalWork = work;
    for (const ExecutionOption& option : input.menu)
        input.gpusHeld = std::max(input.gpusHeld, option.gpusActive);
    input.pue = 1.0;
    input.startUtc = start;
    input.deadlineUtc = deadline;
    input.modelling.reconfigurationSeconds = 0.0;
    input.modelling.resizeSeconds = 0.0;
    input.modelling.preemptionSeconds = 0.0;
    // Overheads at the new option's full power, so that hand checks need no idle figures; the default (idle
    // GPUs and nodes) is pinned by tst_accounting overheadDrawsIdlePowerByDefault.
    input.modelling.overheadPowerFraction = 1.0;
    // Unpriced GPUs (a synthetic menu has no cluster to take a list price from) without the warning that
    // an unpriced cluster gets; cost tests set their prices.
    input.modelling.gpuPriceUsdPerHour = 0.0;
    input.forecast.kind = "oracle";
    return input;
}

// Plays a fixed list of decisions (by decision index); the last one repeats.
class ScriptedPolicy : public Policy {
public:
    explicit ScriptedPolicy(std::vector<int> actions)
        : m_actions(std::move(actions)) {}
    std::string name() const override { return "scripted"; }
    Decision decide(const DecisionState& state) override {
        const std::size_t i = std::min(state.decisionIndex, m_actions.size() - 1);
        return {m_actions[i], 0};
    }

private:
    std::vector<int> m_actions;
};

// One of `values`, drawn uniformly (the randomised grids of real cases).
template <typename T> T pick(std::mt19937_64& random, const std::vector<T>& values) {
    return values[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(random)];
}

// Randomised real forecasts for plan checks: each bundled trace, issued by the default ridge forecaster
// (48 h horizon, the past week's profile beyond it) at `perTrace` random hours of 2022, with a window of 2
// to 40 days after it. `check` sees the forecast, the issue time and the window's end.
template <typename Check> void forEachRidgeForecast(std::uint64_t seed, int perTrace, Check check);

// A job of 6 to 120 hours at the menu's last (fastest) option, starting at a random hour of `trace`, with
// 1.1 to 3 times that time to its deadline: the randomised windows of the truth-path checks.
inline SimulationInput randomWindowInput(const CarbonTrace& trace, ExecutionMenu menu,
                                         std::mt19937_64& random) {
    const double hours = std::uniform_real_distribution<double>(6.0, 120.0)(random);
    const UtcSeconds start =
        trace.startUtc + 3600 * std::uniform_int_distribution<std::int64_t>(
                                    0, static_cast<std::int64_t>(trace.size()) - 400)(random);
    const double window = hours * std::uniform_real_distribution<double>(1.1, 3.0)(random);
    const double work = hours * 3600.0 * menu.back().workPerSecond;
    return makeInput(trace, std::move(menu), work, start, start + static_cast<UtcSeconds>(window * 3600.0));
}

// The truth to the window's end under a kind that does not announce it (noisy with no error and a year's
// reach): what a policy's plan makes of the truth when no shortcut for a perfect forecast reads it.
inline void forecastTheTruthUnannounced(SimulationInput& input) {
    input.forecast.kind = "noisy";
    input.forecast.errorFraction = 0.0;
    input.forecast.horizonHours = 8784.0;
}

inline std::string bundledTrace(const std::string& file) {
    return std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/" + file;
}

inline const std::vector<std::string>& bundledTraceFiles() {
    static const std::vector<std::string> files{
        "US-CAL-CISO_2022.csv", "US-TEX-ERCO_2022.csv", "GB_2022.csv", "DE_2022.csv",
        "FR_2022.csv",          "SE-SE3_2022.csv",      "ZA_2022.csv"};
    return files;
}

// The scenario's job on a random day of a random bundled 2022 trace, 10-25 B tokens (16-40 h at the default
// job's full size) and a slack of 0.25, 0.5 or 1: the randomised grid of real cases the runner's checks draw
// from. Returns what names the case in a failure.
inline std::string randomBundledCase(std::mt19937_64& random, Scenario& s) {
    const std::string file = pick(random, bundledTraceFiles());
    s.regions.resize(1);
    s.regions[0].trace = loadCarbonTrace(bundledTrace(file));
    s.regions[0].regionId = s.regions[0].trace.regionId;
    s.regions[0].tracePath = bundledTrace(file);
    const auto day = std::uniform_int_distribution<int>(0, 352)(random);
    s.startUtc = daysFromCivil(2022, 1, 1) * kSecondsPerDay + day * kSecondsPerDay;
    s.job.tokens = std::uniform_real_distribution<double>(10e9, 25e9)(random);
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Slack, pick<double>(random, {0.25, 0.5, 1.0})};
    return file + " from " + formatIsoUtc(s.startUtc) + ", " + shortestNumber(s.job.tokens / 1e9) +
           " B tokens, slack " + shortestNumber(s.deadline.value);
}

template <typename Check> void forEachRidgeForecast(std::uint64_t seed, int perTrace, Check check) {
    std::mt19937_64 random(seed);
    for (const std::string& file : bundledTraceFiles()) {
        const CarbonTrace trace = loadCarbonTrace(bundledTrace(file));
        ForecastSpec spec;
        spec.kind = "ridge";
        const std::unique_ptr<Forecaster> forecaster = makeForecaster(spec, trace);
        for (int k = 0; k < perTrace; ++k) {
            const auto days = std::uniform_int_distribution<int>(2, 40)(random);
            const auto hour = std::uniform_int_distribution<std::int64_t>(
                0, static_cast<std::int64_t>(trace.size()) - 24 * (days + 1))(random);
            const UtcSeconds now = trace.startUtc + hour * 3600;
            const Forecast forecast = issueForecast(*forecaster, trace, now, spec.effectiveHorizonHours());
            check(forecast, now, static_cast<double>(now + days * kSecondsPerDay));
        }
    }
}

} // namespace carbon3d::test
