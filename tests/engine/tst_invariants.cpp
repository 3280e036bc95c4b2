// SPDX-License-Identifier: MIT
#include "EngineTestSupport.h"
#include "domain/Savings.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "engine/policies/Dynamic3dPolicy.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// A Pareto menu with the asymmetry of docs/MODEL.md section 4.4: power grows linearly with active
// GPUs, throughput sublinearly (exponent 0.85). 1,024 GPUs held, 400 W each plus 1 kW per node.
ExecutionMenu asymmetricMenu() {
    ExecutionMenu menu;
    for (int gpus : {128, 256, 512, 1024}) {
        const int nodes = gpus / 8;
        menu.push_back(makeOption(gpus, 1000.0 * std::pow(gpus, 0.85), gpus * 400.0 + nodes * 1000.0));
    }
    return menu;
}

// A 4-day job at full size; deadline from the slack. Default overheads (600 s), idle 50 W per GPU,
// PUE 1.1, embodied 150 kg per GPU over 5 years: every charge of the engine is exercised.
SimulationInput realisticInput(const CarbonTrace& trace, double slack) {
    const ExecutionMenu menu = asymmetricMenu();
    const double work = 4.0 * 86400.0 * menu.back().workPerSecond;
    SimulationInput input = makeInput(
        trace, menu, work, kJune1, resolveDeadline({DeadlineSpec::Kind::Slack, slack}, kJune1, work, menu));
    input.idlePowerPerGpuW = 50.0;
    input.pue = 1.1;
    input.embodiedGPerGpuSecond = 150.0 * 1000.0 / (5.0 * 365.25 * 86400.0);
    input.modelling = ModellingOptions{};
    input.forecast.kind = "ridge";
    return input;
}

const std::vector<std::string>& policyNames() {
    static const std::vector<std::string> names{"static-max", "best-static", "suspend-resume",
                                                "tertile",    "dynamic-3d",  "oracle"};
    return names;
}

double relativeDifference(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

} // namespace

class TestInvariants : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onEveryBundledTrace_data() {
        QTest::addColumn<QString>("file");
        for (const std::string& file : bundledTraceFiles())
            QTest::newRow(file.c_str()) << QString::fromStdString(file);
    }
    void onEveryBundledTrace() {
        QFETCH(QString, file);
        const CarbonTrace trace = loadCarbonTrace(bundledTrace(file.toStdString()));
        const SimulationInput input = realisticInput(trace, 0.25);
        std::map<std::string, RunResult> runs;
        for (const std::string& name : policyNames())
            runs[name] = simulate(input, PolicySpec{name, {}});
        const double oracle = runs["oracle"].metrics.totalG;
        for (const auto& [name, run] : runs) {
            const RunMetrics& m = run.metrics;
            QVERIFY2(m.finished, name.c_str());
            // Hard deadline: every run meets it, and "met" means finished by the deadline
            // (1 ms: the engine's completion-time tolerance for floating-point work / rate).
            QVERIFY2(m.deadlineMet, name.c_str());
            QVERIFY(m.completionSeconds <= static_cast<double>(input.deadlineUtc - input.startUtc) + 1e-3);
            // Series and totals: the same numbers summed once each way; 1e-9 relative covers
            // reassociation of ~10^3 terms.
            double energy = 0.0;
            double emissions = 0.0;
            double embodied = 0.0;
            for (const IntervalRecord& record : run.series) {
                energy += record.energyJ;
                emissions += record.emissionsG;
                embodied += record.embodiedG;
            }
            QVERIFY(relativeDifference(energy, m.energyJ) <= 1e-9);
            QVERIFY(relativeDifference(emissions, m.operationalG) <= 1e-9);
            QVERIFY(relativeDifference(embodied, m.embodiedG) <= 1e-9);
            // The offline optimum is a lower bound for every policy (1e-9: summation order).
            QVERIFY2(oracle <= m.totalG * (1.0 + 1e-9), qPrintable(QStringLiteral("%1: oracle %2 g > %3 g")
                                                                       .arg(QString::fromStdString(name))
                                                                       .arg(oracle)
                                                                       .arg(m.totalG)));
        }
        qDebug("%s: static-max %.1f t, oracle saves %.2f %%, dynamic-3d %.2f %%, suspend-resume %.2f %%",
               qPrintable(file), runs["static-max"].metrics.totalG / 1e6,
               100.0 * savingsFraction(runs["static-max"].metrics.totalG, runs["oracle"].metrics.totalG),
               100.0 * savingsFraction(runs["static-max"].metrics.totalG, runs["dynamic-3d"].metrics.totalG),
               100.0 *
                   savingsFraction(runs["static-max"].metrics.totalG, runs["suspend-resume"].metrics.totalG));
    }

    // Issue 18: planned for cost plus the carbon price times emissions, the oracle is never beaten in that
    // objective (its cost_usd) by a policy minimising the same objective, nor by the carbon-agnostic
    // baseline; and every cost total is the sum of its series. A seeded random grid: each bundled trace with
    // its own GPU price, capacity, carbon price and attribution.
    void oracleBoundsTheCostPlusCarbonObjective_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("capacity");
        QTest::addColumn<double>("gpuPrice");
        QTest::addColumn<double>("carbonPrice");
        QTest::addColumn<double>("backfill");
        std::mt19937_64 random(18);
        const auto uniform = [&](double lo, double hi) {
            return lo + (hi - lo) * static_cast<double>(random() >> 11) * 0x1.0p-53;
        };
        for (const std::string& file : bundledTraceFiles()) {
            const int capacity = static_cast<int>(random() % 2); // on demand or reserved: no spot strikes
            const double gpuPrice = uniform(0.05, 8.0);
            const double carbonPrice = uniform(0.0, 1000.0);
            const double backfill = random() % 2 == 0 ? 0.0 : 1.0;
            QTest::newRow(file.c_str())
                << QString::fromStdString(file) << capacity << gpuPrice << carbonPrice << backfill;
        }
    }
    void oracleBoundsTheCostPlusCarbonObjective() {
        QFETCH(QString, file);
        QFETCH(int, capacity);
        QFETCH(double, gpuPrice);
        QFETCH(double, carbonPrice);
        QFETCH(double, backfill);
        const CarbonTrace trace = loadCarbonTrace(bundledTrace(file.toStdString()));
        SimulationInput input = realisticInput(trace, 0.5);
        input.modelling.gpuCapacity = static_cast<ModellingOptions::GpuCapacity>(capacity);
        input.modelling.gpuPriceUsdPerHour = gpuPrice;
        input.modelling.carbonPriceUsdPerT = carbonPrice;
        input.modelling.backfill = backfill;
        const std::map<std::string, std::string> objective{{"objective", "cost+carbon"}};
        const RunResult oracleRun = simulate(input, PolicySpec{"oracle", objective});
        const double oracle = oracleRun.metrics.costUsd;
        // Each objective's optimum is the best in its own terms: planned for carbon, the oracle costs no
        // less; planned for cost+carbon, it emits no less (1e-9: summation order).
        const RunResult carbonOracle = simulate(input, PolicySpec{"oracle", {}});
        QVERIFY(oracle <= carbonOracle.metrics.costUsd * (1.0 + 1e-9));
        QVERIFY(carbonOracle.metrics.totalG <= oracleRun.metrics.totalG * (1.0 + 1e-9));
        qDebug("%s: oracle for cost+carbon $%.0f (%.1f t), for carbon $%.0f (%.1f t)", qPrintable(file),
               oracle, oracleRun.metrics.totalG / 1e6, carbonOracle.metrics.costUsd,
               carbonOracle.metrics.totalG / 1e6);
        for (const char* name :
             {"static-max", "best-static", "suspend-resume", "dynamic-3d", "carbonscaler", "wait-awhile"}) {
            const RunResult run = simulate(input, PolicySpec{name, name == std::string("static-max")
                                                                       ? std::map<std::string, std::string>{}
                                                                       : objective});
            QVERIFY2(run.metrics.deadlineMet, name);
            double gpu = 0.0;
            double energy = 0.0;
            double carbon = 0.0;
            for (const IntervalRecord& record : run.series) {
                gpu += record.gpuCostUsd;
                energy += record.energyCostUsd;
                carbon += record.carbonCostUsd;
            }
            // 1e-9 relative: summation order of ~10^3 terms.
            QVERIFY(relativeDifference(gpu, run.metrics.gpuCostUsd) <= 1e-9);
            QVERIFY(relativeDifference(energy, run.metrics.energyCostUsd) <= 1e-9);
            QVERIFY(relativeDifference(carbon, run.metrics.carbonCostUsd) <= 1e-9);
            QVERIFY(relativeDifference(gpu + energy + carbon, run.metrics.costUsd) <= 1e-9);
            QVERIFY2(oracle <= run.metrics.costUsd * (1.0 + 1e-9),
                     qPrintable(QStringLiteral("%1: oracle $%2 > $%3")
                                    .arg(QString::fromLatin1(name))
                                    .arg(oracle, 0, 'f', 2)
                                    .arg(run.metrics.costUsd, 0, 'f', 2)));
        }
    }

    // Issue 39: a feasible hard deadline is met by every policy of the catalogue, whatever it decides (the
    // engine's guard), over a seeded random grid of real traces, start days, tight slacks, overheads and
    // forecasts. (This grid also passed before the guard learnt that a reconfiguration can itself overrun
    // the deadline; tst_cli aFeasibleHardDeadlineIsMet keeps the case that showed it.)
    void everyPolicyMeetsAFeasibleHardDeadline_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("startDay");
        QTest::addColumn<double>("slack");
        QTest::addColumn<double>("overheadS");
        QTest::addColumn<QString>("forecast");
        constexpr int kCasesPerTrace = 4;
        std::mt19937_64 random(39);
        const auto uniform = [&](double lo, double hi) {
            return lo + (hi - lo) * static_cast<double>(random() >> 11) * 0x1.0p-53;
        };
        const char* forecasts[] = {"ridge", "persistence", "oracle"};
        for (const std::string& file : bundledTraceFiles()) {
            for (int k = 0; k < kCasesPerTrace; ++k) {
                const int startDay = static_cast<int>(random() % 300);
                const double slack = uniform(0.02, 0.3);
                const double overheadS = uniform(60.0, 3600.0);
                const char* forecast = forecasts[random() % 3];
                QTest::newRow((file + " #" + std::to_string(k)).c_str())
                    << QString::fromStdString(file) << startDay << slack << overheadS
                    << QString::fromLatin1(forecast);
            }
        }
    }
    void everyPolicyMeetsAFeasibleHardDeadline() {
        QFETCH(QString, file);
        QFETCH(int, startDay);
        QFETCH(double, slack);
        QFETCH(double, overheadS);
        QFETCH(QString, forecast);
        const CarbonTrace trace = loadCarbonTrace(bundledTrace(file.toStdString()));
        const ExecutionMenu menu = asymmetricMenu();
        const double work = 2.0 * 86400.0 * menu.back().workPerSecond; // two days at full size
        const UtcSeconds start = trace.startUtc + startDay * kSecondsPerDay;
        SimulationInput input = makeInput(
            trace, menu, work, start, resolveDeadline({DeadlineSpec::Kind::Slack, slack}, start, work, menu));
        input.modelling = ModellingOptions{};
        input.modelling.reconfigurationSeconds = overheadS;
        input.modelling.preemptionSeconds = overheadS;
        input.forecast.kind = forecast.toStdString();
        for (const PolicyInfo& info : policyCatalog()) {
            const RunResult run = simulate(input, PolicySpec{info.name, {}});
            // 1 ms: the engine's completion-time tolerance for floating-point work / rate.
            QVERIFY2(run.metrics.deadlineMet && run.metrics.completionSeconds <=
                                                    static_cast<double>(input.deadlineUtc - start) + 1e-3,
                     qPrintable(QStringLiteral("%1 ends %2 s after the deadline")
                                    .arg(QString::fromStdString(info.name))
                                    .arg(run.metrics.completionSeconds -
                                         static_cast<double>(input.deadlineUtc - start))));
        }
    }

    // Issue 39, item 1: dynamic-3d contains the simpler plans (one configuration throughout, the full size
    // paused or shifted, elastic scaling). Under a perfect forecast it emits no more than any of them, at
    // both ends of the attribution of parked GPUs, over a seeded random grid of real traces, start days,
    // slacks and menus whose throughput grows more or less than linearly with the GPUs.
    void dynamicThreeDContainsTheSimplerPlans_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("startDay");
        QTest::addColumn<double>("slack");
        QTest::addColumn<double>("backfill");
        QTest::addColumn<double>("scalingExponent");
        constexpr int kCasesPerTrace = 2;
        std::mt19937_64 random(1039);
        const auto uniform = [&](double lo, double hi) {
            return lo + (hi - lo) * static_cast<double>(random() >> 11) * 0x1.0p-53;
        };
        for (const std::string& file : bundledTraceFiles()) {
            for (int k = 0; k < kCasesPerTrace; ++k) {
                const int startDay = static_cast<int>(random() % 330);
                const double slack = uniform(0.1, 1.5);
                const double scalingExponent = uniform(0.7, 1.0);
                QTest::newRow((file + " #" + std::to_string(k)).c_str())
                    << QString::fromStdString(file) << startDay << slack << (k % 2 == 0 ? 0.0 : 1.0)
                    << scalingExponent;
            }
        }
    }
    void dynamicThreeDContainsTheSimplerPlans() {
        QFETCH(QString, file);
        QFETCH(int, startDay);
        QFETCH(double, slack);
        QFETCH(double, backfill);
        QFETCH(double, scalingExponent);
        const CarbonTrace trace = loadCarbonTrace(bundledTrace(file.toStdString()));
        ExecutionMenu menu;
        for (int gpus : {128, 256, 512, 1024})
            menu.push_back(
                makeOption(gpus, 1000.0 * std::pow(gpus, scalingExponent), gpus * 400.0 + gpus * 125.0));
        const double work = 2.0 * 86400.0 * menu.back().workPerSecond; // two days at full size
        const UtcSeconds start = trace.startUtc + startDay * kSecondsPerDay;
        SimulationInput input = makeInput(
            trace, menu, work, start, resolveDeadline({DeadlineSpec::Kind::Slack, slack}, start, work, menu));
        input.idlePowerPerGpuW = 50.0;
        input.pue = 1.1;
        input.embodiedGPerGpuSecond = 150.0 * 1000.0 / (5.0 * 365.25 * 86400.0);
        input.modelling = ModellingOptions{};
        input.modelling.backfill = backfill;
        input.forecast.kind = "oracle";
        const RunResult dynamic = simulate(input, PolicySpec{"dynamic-3d", {}});
        for (const PolicyInfo& info : policyCatalog()) {
            if (info.traits.simplerPlan == SimplerPlan::None)
                continue;
            const RunResult simpler = simulate(input, PolicySpec{info.name, {}});
            // 1e-9 relative: the same engine charging the same schedule may sum it in another order.
            QVERIFY2(dynamic.metrics.totalG <= simpler.metrics.totalG * (1.0 + 1e-9),
                     qPrintable(QStringLiteral("dynamic-3d %1 g > %2 %3 g (followed %4)")
                                    .arg(dynamic.metrics.totalG, 0, 'f', 0)
                                    .arg(QString::fromStdString(info.name))
                                    .arg(simpler.metrics.totalG, 0, 'f', 0)
                                    .arg(QString::fromStdString(dynamic.options.at(kFollowedPlanKey)))));
        }
        qDebug("%s day %d, slack %.2f, backfill %.0f: follows %s", qPrintable(file), startDay, slack,
               backfill, dynamic.options.at(kFollowedPlanKey).c_str());
    }

    void flatTraceLeavesNothingToShift_data() {
        QTest::addColumn<bool>("heldGpusCost");
        // Parked GPUs drawing idle power and carrying embodied carbon make the full-size option the
        // least-carbon one (best-static = static-max); without them the smallest option is (its
        // throughput grows as GPUs^0.85), which separates the two baselines.
        QTest::newRow("held GPUs cost") << true;
        QTest::newRow("held GPUs free") << false;
    }
    void flatTraceLeavesNothingToShift() {
        QFETCH(bool, heldGpusCost);
        // A flat grid: with a deadline loose enough for every option (slack 6: the 128-GPU option needs
        // 8^0.85 = 5.85x the full-size runtime), the carbon-aware policies can only pick the best
        // single option. 0.1 %: the issue's tolerance; the remaining difference is trimming at
        // completion inside a slot.
        const CarbonTrace flat =
            makeTrace(std::vector<double>(std::size_t{24} * 60, 300.0), kJune1 - 14 * kSecondsPerDay);
        SimulationInput input = realisticInput(flat, 6.0);
        if (!heldGpusCost) {
            input.idlePowerPerGpuW = 0.0;
            input.embodiedGPerGpuSecond = 0.0;
        }
        const double bestStatic = simulate(input, PolicySpec{"best-static", {}}).metrics.totalG;
        for (const std::string name : {"suspend-resume", "tertile", "dynamic-3d", "oracle"}) {
            const double total = simulate(input, PolicySpec{name, {}}).metrics.totalG;
            QVERIFY2(relativeDifference(total, bestStatic) <= 1e-3,
                     qPrintable(QStringLiteral("%1: %2 g vs best-static %3 g")
                                    .arg(QString::fromStdString(name))
                                    .arg(total)
                                    .arg(bestStatic)));
        }
        // The literature's suspend-resume keeps the full-size job: on a flat grid it never pauses and
        // equals static-max (1e-9: the same schedule).
        const double staticMax = simulate(input, PolicySpec{"static-max", {}}).metrics.totalG;
        QVERIFY(relativeDifference(
                    simulate(input, PolicySpec{"suspend-resume", {{"size", "fastest"}}}).metrics.totalG,
                    staticMax) <= 1e-9);
        if (!heldGpusCost) // else the suspend-resume check above could not tell the two forms apart
            QVERIFY2(relativeDifference(bestStatic, staticMax) > 1e-2,
                     qPrintable(QString::number(relativeDifference(bestStatic, staticMax))));
        // Tight deadline: mixing options may beat any single one; the optimum never loses.
        const SimulationInput tight = realisticInput(flat, 0.25);
        QVERIFY(simulate(tight, PolicySpec{"oracle", {}}).metrics.totalG <=
                simulate(tight, PolicySpec{"best-static", {}}).metrics.totalG * (1.0 + 1e-9));
    }
};

QTEST_GUILESS_MAIN(TestInvariants)
#include "tst_invariants.moc"
