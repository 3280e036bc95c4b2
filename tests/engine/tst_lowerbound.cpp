// SPDX-License-Identifier: MIT
// The certified lower bound (engine/LowerBound.h) over a randomised grid of real cases: the default
// scenario's job (its dense model or a mixture of experts) and cluster (the performance model's menu), the
// bundled 2022 traces, one to three regions, random starts, slack, overheads, attribution of parked GPUs,
// deadline mode, power limits and forecast. Every policy of the catalogue runs on every case; none may emit
// less than the bound, none run on the oracle's input less than the oracle, and removing the overheads may
// not raise the bound (docs/ENGINE.md, "The lower bound" and "oracle").
#include "EngineTestSupport.h"
#include "config/Presets.h"
#include "config/ScenarioJson.h"
#include "engine/LowerBound.h"
#include "engine/PolicyRegistry.h"
#include "runner/ScenarioRunner.h"
#include "traces/TraceLoader.h"

#include <QTest>
#include <algorithm>
#include <random>
#include <sstream>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// The engine accepts completion up to 1 ms after the deadline (its floating-point work / rate), which the
// bound's horizon (the deadline) does not include, and the run's total sums ~10^2-10^3 intervals in
// another order: 1e-7 relative covers both (1 ms of a >= 16 h job is 2e-8 of its work).
constexpr double kTolerance = 1e-7;

struct Case {
    Scenario scenario;
    std::string description;
};

// `model`: a preset id for the job's model, or empty for the base scenario's.
Case randomCase(std::mt19937_64& random, const Scenario& base, const std::string& model) {
    Case made{base, {}};
    Scenario& s = made.scenario;
    std::vector<std::string> files = bundledTraceFiles();
    std::shuffle(files.begin(), files.end(), random);
    const auto regions = pick<std::size_t>(random, {1, 1, 2, 3});
    s.regions.clear();
    for (std::size_t r = 0; r < regions; ++r) {
        RegionSpec region;
        region.trace = loadCarbonTrace(bundledTrace(files[r]));
        region.regionId = region.trace.regionId;
        region.tracePath = bundledTrace(files[r]);
        s.regions.push_back(region);
    }
    // Any hour from January 1 to December 20 (the longest deadline, 40 h x 2, stays inside 2022).
    const auto day = std::uniform_int_distribution<int>(0, 352)(random);
    const auto hour = std::uniform_int_distribution<int>(0, 23)(random);
    s.startUtc = daysFromCivil(2022, 1, 1) * kSecondsPerDay + (day * 24 + hour) * kSecondsPerHour;
    // 10-25 B tokens: 16-40 h at full size, so the oracle and the ILP stay quick under the sanitizers.
    s.job.tokens = std::uniform_real_distribution<double>(10e9, 25e9)(random);
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Slack, pick<double>(random, {0.1, 0.25, 0.5, 1.0})};
    ModellingOptions& m = s.modelling;
    m.reconfigurationSeconds = pick<double>(random, {0, 300, 600, 1800});
    m.resizeSeconds = pick<double>(random, {0, 60, 120, 600});
    m.preemptionSeconds = pick<double>(random, {0, 300, 600, 1800});
    m.migrationSeconds = pick<double>(random, {0, 1800, 3600});
    m.overheadPowerFraction = pick<double>(random, {0.0, 0.5, 1.0});
    m.backfill = pick<double>(random, {0.0, 0.5, 1.0});
    if (pick<int>(random, {0, 0, 0, 1}) == 1) {
        m.deadlineMode = ModellingOptions::DeadlineMode::Soft;
        m.softDeadlinePenaltyGPerHour = pick<double>(random, {0.0, 50e3, 500e3});
    }
    if (pick<int>(random, {0, 0, 1}) == 1)
        m.powerLimitsW = {300.0, 350.0}; // Chase's variants
    s.forecast.kind = pick<std::string>(random, {"oracle", "ridge", "seasonal"});
    if (!model.empty())
        s.job.model = *findModelPreset(model);
    std::ostringstream text;
    text << s.job.model.name << " ";
    for (const RegionSpec& region : s.regions)
        text << region.regionId << " ";
    text << "from " << formatIsoUtc(s.startUtc) << ", " << s.job.tokens / 1e9 << " B tokens, slack "
         << s.deadline.value << ", overheads " << m.reconfigurationSeconds << "/" << m.resizeSeconds << "/"
         << m.preemptionSeconds << "/" << m.migrationSeconds << " s at " << m.overheadPowerFraction
         << ", backfill " << m.backfill << ", "
         << (m.deadlineMode == ModellingOptions::DeadlineMode::Soft ? "soft" : "hard") << " deadline, "
         << m.powerLimitsW.size() << " power limits, forecast " << s.forecast.kind;
    made.description = text.str();
    return made;
}

// True when the policy, with its default options, runs the scenario's own input (the oracle's): it keeps the
// job, the menu and the migration time.
bool runsTheOraclesInput(const PreparedScenario& prepared, const PolicyInfo& info) {
    return !makePolicy(PolicySpec{info.name, {}})
                ->adaptInput(InputAdaptation{prepared.scenario, prepared.measuredMenu}, prepared.input);
}

double boundOf(const SimulationInput& input) {
    return certifiedLowerBound(input, CostModel(input)).g;
}

} // namespace

class TestLowerBound : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void noPolicyBeatsTheBound() {
        const Scenario base =
            loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/default.json");
        std::mt19937_64 random(20261201); // fixed: a failure names its case and reproduces
        int runs = 0;
        int oracleNotProven = 0;
        for (int c = 0; c < 14; ++c) {
            // The default job's dense model, then mixtures of experts (their menus reshape ep with d); the
            // dense cases draw what they drew before the MoE cases joined.
            const std::string model =
                c < 10 ? std::string() : pick<std::string>(random, {"mixtral-8x7b", "deepseek-v3"});
            const Case made = randomCase(random, base, model);
            const PreparedScenario prepared = prepareScenario(made.scenario);
            const double bound = boundOf(prepared.input);
            QVERIFY2(bound > 0.0, made.description.c_str());

            // Removing every overhead (time and power) may not raise the bound.
            SimulationInput free = prepared.input;
            free.modelling.reconfigurationSeconds = 0.0;
            free.modelling.resizeSeconds = 0.0;
            free.modelling.preemptionSeconds = 0.0;
            free.modelling.migrationSeconds = 0.0;
            free.modelling.overheadPowerFraction = 0.0;
            QVERIFY2(boundOf(free) <= bound * (1.0 + 1e-12), made.description.c_str());

            double oracle = 0.0;
            std::vector<std::pair<std::string, double>> objectives;
            for (const PolicyInfo& info : policyCatalog()) {
                // The ILP's wall-clock safety net cut to 20 s: on one case of this grid a branch-and-bound
                // LP of GLPK's stalls on the degenerate schedule graph and runs to the default 300 s limit
                // (the node limit does not stop a node's own LP). Whatever schedule the limit leaves must
                // still respect the bound, which is what this test checks.
                PolicySpec spec{info.name, {}};
                if (info.name == "ilp")
                    spec.options["time_limit_ms"] = "20000";
                const RunResult run = runPolicy(prepared, spec);
                const RunMetrics& metrics = run.metrics;
                if (info.traits.perfectKnowledge && run.options.at("solved_by") != "exact")
                    ++oracleNotProven;
                // Policies that keep the job and menu are charged on the same input, hence the same bound.
                if (!info.traits.changesJobOrMenu)
                    QVERIFY2(std::abs(metrics.lowerBoundG - bound) <= 1e-12 * bound,
                             (info.name + ": " + made.description).c_str());
                if (!metrics.finished)
                    continue; // the soft deadline let it run past the end of a trace: no total to compare
                const double objective = metrics.totalG + metrics.deadlinePenaltyG;
                QVERIFY2(objective >= metrics.lowerBoundG * (1.0 - kTolerance),
                         qPrintable(QStringLiteral("%1 emits %2 kg, below the bound %3 kg: %4")
                                        .arg(QString::fromStdString(info.name))
                                        .arg(objective / 1e3, 0, 'f', 3)
                                        .arg(metrics.lowerBoundG / 1e3, 0, 'f', 3)
                                        .arg(QString::fromStdString(made.description))));
                if (info.traits.perfectKnowledge)
                    oracle = objective;
                else if (runsTheOraclesInput(prepared, info) && metrics.deadlineMet)
                    objectives.emplace_back(info.name, objective);
                ++runs;
            }
            // Issue 39, item 8: the oracle is the optimum of the decision space the other policies have,
            // regions and moves included: no policy run on its input emits less, proven optimal or not
            // (where its search gives up it starts from their schedules). The one space it leaves out, a
            // soft deadline's late finish, its run names in a warning; those runs are not compared.
            // 1e-9 relative: the same schedule charged by the engine in another order.
            for (const auto& [name, objective] : objectives)
                QVERIFY2(oracle <= objective * (1.0 + 1e-9),
                         qPrintable(QStringLiteral("%1 emits %2 kg, below the oracle's %3 kg: %4")
                                        .arg(QString::fromStdString(name))
                                        .arg(objective / 1e3, 0, 'f', 3)
                                        .arg(oracle / 1e3, 0, 'f', 3)
                                        .arg(QString::fromStdString(made.description))));
            qDebug("case %d: %s; bound %.1f kg, oracle %.2f %% above it", c, made.description.c_str(),
                   bound / 1e3, 100.0 * (oracle / bound - 1.0));
        }
        // The grid must reach the search's fallback, where the oracle is the best found rather than proven.
        QVERIFY(oracleNotProven > 0);
        qDebug("%d runs above the bound; the oracle was not proven optimal in %d of 14 cases", runs,
               oracleNotProven);
    }

    // Issue 39, item 8: a case where the oracle's exact search used to give up (its best found, one option
    // with pauses, was 14,363.7 kg) and dynamic-3d, on the ridge forecast, emitted 14,224.8 kg. Started from
    // the other policies' schedules, it is proven optimal again and no policy emits less.
    void theOracleHoldsWhereItsSearchUsedToGiveUp() {
        Scenario scenario =
            loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/default.json");
        RegionSpec region;
        region.tracePath = bundledTrace("ZA_2022.csv");
        region.trace = loadCarbonTrace(region.tracePath);
        region.regionId = region.trace.regionId;
        scenario.regions = {region};
        scenario.startUtc = daysFromCivil(2022, 4, 27) * kSecondsPerDay;
        scenario.job.tokens = 20e9;
        scenario.deadline = DeadlineSpec{DeadlineSpec::Kind::Slack, 0.25};
        scenario.forecast.kind = "ridge";
        scenario.modelling.backfill = 1.0;
        scenario.modelling.reconfigurationSeconds = 600.0;
        scenario.modelling.preemptionSeconds = 600.0;
        const PreparedScenario prepared = prepareScenario(scenario);
        const RunResult oracleRun = runPolicy(prepared, PolicySpec{"oracle", {}});
        QCOMPARE(oracleRun.options.at("solved_by"), std::string("exact"));
        const double oracle = oracleRun.metrics.totalG;
        for (const PolicyInfo& info : policyCatalog()) {
            if (info.traits.perfectKnowledge || !runsTheOraclesInput(prepared, info))
                continue;
            const double emitted = runPolicy(prepared, PolicySpec{info.name, {}}).metrics.totalG;
            // 1e-9 relative: the same schedule charged by the engine in another order.
            QVERIFY2(oracle <= emitted * (1.0 + 1e-9),
                     qPrintable(QStringLiteral("%1 emits %2 kg, below the oracle's %3 kg")
                                    .arg(QString::fromStdString(info.name))
                                    .arg(emitted / 1e3, 0, 'f', 1)
                                    .arg(oracle / 1e3, 0, 'f', 1)));
        }
    }

    // Hand-checkable: one region, a flat trace, one option, no parked GPUs: the job can only run at that
    // option for work / rate seconds, so the bound is that time x its cost rate, exactly.
    void flatSingleOptionBoundIsTheRunItself() {
        const CarbonTrace flat = makeTrace(std::vector<double>(48, 250.0));
        const ExecutionMenu menu{makeOption(8, 1000.0, 4000.0)};
        const double work = 1000.0 * 10.0 * 3600.0; // 10 h
        SimulationInput input = makeInput(flat, menu, work, kJune1, kJune1 + 20 * kSecondsPerHour);
        input.pue = 1.2;
        input.embodiedGPerGpuSecond = 0.001;
        // 4 kW x 1.2 x 250 g/kWh = 1200 g/h operational, 8 GPUs x 0.001 g/s x 3600 = 28.8 g/h embodied.
        const double expected = 10.0 * (1200.0 + 28.8);
        QVERIFY(std::abs(boundOf(input) - expected) <= 1e-9 * expected); // bisection to 1e-12 of lambda
    }
};

QTEST_GUILESS_MAIN(TestLowerBound)
#include "tst_lowerbound.moc"
