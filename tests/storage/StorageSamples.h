// SPDX-License-Identifier: MIT
#pragma once

// Deterministic sample runs for the storage tests, the crash/concurrency helper and the benchmark. Every
// field of RunResult gets a distinctive value (doubles with full 53-bit mantissas, every activity, every
// recompute mode, both booleans), so a round trip that drops or swaps a column cannot pass by accident.

#include "domain/RunResult.h"
#include "storage/StoredRun.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace carbon3d::test {

inline StoredScenario sampleScenario(const std::string& name) {
    // The hash stands in for core/config's scenarioHash(); the store only needs it to be unique per scenario.
    return {name, "{\"name\":\"" + name + "\",\"gpus\":1024}", "hash-of-" + name};
}

inline std::vector<StoredTrace> sampleTraces() {
    StoredTrace a;
    a.regionId = "US-CAL-CISO";
    a.contentSha256 = "3f1c0d6b9e2a4f5b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b";
    a.sourceColumn = "Carbon Intensity gCO2eq/kWh (LCA)";
    a.sourceFile = "sample_data/traces/US-CAL-CISO_2022.csv";
    a.format = "electricitymaps-csv";
    a.signal = "average";
    a.stepSeconds = 3600;
    a.startUtc = 1640995200; // 2022-01-01T00:00:00Z
    a.rows = 8760;
    a.attribution = "Electricity Maps (ODbL) \"2022\"";
    StoredTrace b = a;
    b.regionId = "DE";
    b.contentSha256 = "a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6";
    b.sourceFile = "sample_data/traces/DE_2022.csv";
    b.signal = "marginal";
    b.stepSeconds = 1800;
    b.rows = 17520;
    return {a, b};
}

// A run with `rows` intervals of one hour from 2022-06-01T00:00:00Z; `seed` varies every value.
inline RunResult sampleRun(std::size_t rows, std::uint64_t seed, const std::string& policy = "dynamic-3d") {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto value = [&](double scale) { return scale * unit(random); };
    RunResult run;
    run.policy = policy;
    run.options = {
        {"horizon_steps", "200"}, {"hysteresis", std::to_string(seed % 7)}, {"quote", "a \"b\" \\ c"}};
    run.modelling = {{"backfill", "0"}, {"reconfiguration_s", "600"}, {"unicode", "g\u00b7CO\u2082e"}};
    run.forecastKind = "noisy";
    run.forecastMape = value(0.2);
    run.startUtc = 1654041600; // 2022-06-01T00:00:00Z
    run.deadlineUtc = run.startUtc + static_cast<std::int64_t>(rows + 24) * 3600;
    constexpr IntervalActivity activities[] = {IntervalActivity::Training, IntervalActivity::Paused,
                                               IntervalActivity::Reconfiguring, IntervalActivity::Preempting,
                                               IntervalActivity::Migrating};
    run.series.reserve(rows);
    for (std::size_t i = 0; i < rows; ++i) {
        IntervalRecord r;
        r.start = run.startUtc + static_cast<std::int64_t>(i) * 3600;
        r.end = r.start + 3600;
        r.regionIndex = static_cast<int>((i / 5) % 2);
        r.activity = activities[(i + seed) % 5];
        r.config.dp = 1 + static_cast<int>(i % 16);
        r.config.tp = 1 << (i % 4);
        r.config.pp = 1 + static_cast<int>(i % 8);
        r.config.cp = 1 << (i % 3);
        r.config.microBatch = 1 + static_cast<int>(i % 3);
        r.config.interleave = 1 + static_cast<int>(i % 2);
        r.config.recompute = kRecomputeModes[i % 3];
        r.config.recomputeLayers = r.config.recompute == Recompute::Full ? static_cast<int>(i % 4) : 0;
        r.config.sequenceParallel = i % 2 == 0;
        r.config.distributedOptimizer = i % 3 == 0;
        r.config.fullySharded = i % 5 == 0;
        r.config.ep = 1 << (i % 4); // the round trip keeps every field, not a feasible layout
        r.config.expertTp = 1 + static_cast<int>(i % 2);
        r.gpusActive = r.config.gpus();
        r.gpusHeld = r.gpusActive + static_cast<int>(i % 5);
        r.powerLimitW = i % 4 == 0 ? 0.0 : 300.0 + value(400.0);
        r.facilityPowerW = value(5.0e6);
        r.ciGPerKwh = value(600.0);
        r.forecastCiGPerKwh = value(600.0);
        r.marginalCiGPerKwh = value(900.0);
        r.workDone = value(1.0e9);
        r.energyJ = value(1.8e10);
        r.emissionsG = value(3.0e6);
        r.marginalEmissionsG = value(4.5e6);
        r.embodiedG = value(1.0e4);
        run.series.push_back(r);
    }
    RunMetrics& m = run.metrics;
    m.operationalG = value(1.0e9);
    m.marginalG = value(1.2e9);
    m.embodiedG = value(1.0e7);
    m.totalG = m.operationalG + m.embodiedG;
    m.energyJ = value(1.0e13);
    m.workDone = value(3.0e11);
    m.completionSeconds = value(1.0e6);
    m.finished = seed % 3 != 2;
    m.deadlineMet = seed % 3 == 0;
    m.reconfigurations = static_cast<int>(seed % 11);
    m.reconfigurationSeconds = value(7200.0);
    m.preemptions = static_cast<int>(seed % 13);
    m.preemptionSeconds = value(3600.0);
    m.migrations = static_cast<int>(seed % 2);
    m.migrationSeconds = value(1200.0);
    m.averagePowerW = value(4.0e6);
    m.workPerGram = m.workDone / m.totalG;
    run.warnings = {"forecast error above 10 %", "ILP timed out; greedy fallback used"};
    run.warnings.resize(seed % 3); // 0, 1 or 2 warnings
    return run;
}

// Exact equality: SQLite REAL is IEEE binary64, so a double must come back bit-for-bit (NaN as NaN).
inline bool sameDouble(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// The first difference between two runs, "" when equal in every field.
inline std::string firstDifference(const RunResult& a, const RunResult& b) {
#define C3D_FIELD(expr, same)                                                                                \
    if (!(same))                                                                                             \
    return std::string(#expr)
    C3D_FIELD(policy, a.policy == b.policy);
    C3D_FIELD(options, a.options == b.options);
    C3D_FIELD(modelling, a.modelling == b.modelling);
    C3D_FIELD(forecastKind, a.forecastKind == b.forecastKind);
    C3D_FIELD(forecastMape, sameDouble(a.forecastMape, b.forecastMape));
    C3D_FIELD(startUtc, a.startUtc == b.startUtc);
    C3D_FIELD(deadlineUtc, a.deadlineUtc == b.deadlineUtc);
    C3D_FIELD(warnings, a.warnings == b.warnings);
    const RunMetrics& m = a.metrics;
    const RunMetrics& n = b.metrics;
    C3D_FIELD(operationalG, sameDouble(m.operationalG, n.operationalG));
    C3D_FIELD(marginalG, sameDouble(m.marginalG, n.marginalG));
    C3D_FIELD(embodiedG, sameDouble(m.embodiedG, n.embodiedG));
    C3D_FIELD(totalG, sameDouble(m.totalG, n.totalG));
    C3D_FIELD(energyJ, sameDouble(m.energyJ, n.energyJ));
    C3D_FIELD(workDone, sameDouble(m.workDone, n.workDone));
    C3D_FIELD(completionSeconds, sameDouble(m.completionSeconds, n.completionSeconds));
    C3D_FIELD(finished, m.finished == n.finished);
    C3D_FIELD(deadlineMet, m.deadlineMet == n.deadlineMet);
    C3D_FIELD(reconfigurations, m.reconfigurations == n.reconfigurations);
    C3D_FIELD(reconfigurationSeconds, sameDouble(m.reconfigurationSeconds, n.reconfigurationSeconds));
    C3D_FIELD(preemptions, m.preemptions == n.preemptions);
    C3D_FIELD(preemptionSeconds, sameDouble(m.preemptionSeconds, n.preemptionSeconds));
    C3D_FIELD(migrations, m.migrations == n.migrations);
    C3D_FIELD(migrationSeconds, sameDouble(m.migrationSeconds, n.migrationSeconds));
    C3D_FIELD(averagePowerW, sameDouble(m.averagePowerW, n.averagePowerW));
    C3D_FIELD(workPerGram, sameDouble(m.workPerGram, n.workPerGram));
    C3D_FIELD(series.size, a.series.size() == b.series.size());
    for (std::size_t i = 0; i < a.series.size(); ++i) {
        const IntervalRecord& r = a.series[i];
        const IntervalRecord& s = b.series[i];
        const std::string at = " of interval " + std::to_string(i);
        if (r.start != s.start || r.end != s.end)
            return "start/end" + at;
        if (r.regionIndex != s.regionIndex)
            return "regionIndex" + at;
        if (r.activity != s.activity)
            return "activity" + at;
        if (!(r.config == s.config))
            return "config" + at;
        if (r.gpusActive != s.gpusActive || r.gpusHeld != s.gpusHeld)
            return "gpus" + at;
        const double x[] = {r.powerLimitW,        r.facilityPowerW, r.ciGPerKwh, r.forecastCiGPerKwh,
                            r.marginalCiGPerKwh,  r.workDone,       r.energyJ,   r.emissionsG,
                            r.marginalEmissionsG, r.embodiedG};
        const double y[] = {s.powerLimitW,        s.facilityPowerW, s.ciGPerKwh, s.forecastCiGPerKwh,
                            s.marginalCiGPerKwh,  s.workDone,       s.energyJ,   s.emissionsG,
                            s.marginalEmissionsG, s.embodiedG};
        for (std::size_t k = 0; k < std::size(x); ++k) {
            if (!sameDouble(x[k], y[k]))
                return "real field " + std::to_string(k) + at;
        }
    }
#undef C3D_FIELD
    return {};
}

} // namespace carbon3d::test
