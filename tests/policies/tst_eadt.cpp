// SPDX-License-Identifier: MIT
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "engine/policies/EadtPolicy.h"
#include "runner/ScenarioRunner.h"

#include <QTest>
#include <algorithm>

using namespace carbon3d;

namespace {

Scenario windyGermany() {
    return loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/learn-windy-germany.json");
}

double fastestRate(const ExecutionMenu& menu) {
    double best = 0.0;
    for (const ExecutionOption& option : menu)
        best = std::max(best, option.workPerSecond);
    return best;
}

} // namespace

class TestEadt : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void codecCost_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<double>("expectedRate");
        // 1e9 parameters over t = 2, p = 1: 5e8 local gradient elements x 16 B = 8e9 B at 2e12 B/s = 4 ms
        // per step. 1e6 tokens per step at 1e5 tokens/s = 10 s; + 0.004 s -> 1e6 / 10.004 = 99960.0160 tok/s.
        QTest::newRow("dp 4, tp 2") << 4 << 2 << 1e6 / 10.004;
        // t = 1: 1e9 x 16 B / 2e12 B/s = 8 ms -> 1e6 / 10.008 tok/s.
        QTest::newRow("dp 8, tp 1") << 8 << 1 << 1e6 / 10.008;
        // One replica: no all-reduce, nothing to compress, the rate is unchanged.
        QTest::newRow("dp 1") << 1 << 2 << 1e5;
    }
    void codecCost() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(double, expectedRate);
        ExecutionOption option;
        option.config.dp = dp;
        option.config.tp = tp;
        option.workPerSecond = 1e5;
        // 1e-9 relative: a few products and quotients of exact decimals.
        const double rate = rateWithCodec(option, 1e9, 1e6, 2e12, 16.0);
        QVERIFY2(std::abs(rate - expectedRate) <= 1e-9 * expectedRate, std::to_string(rate).c_str());
    }

    // A mixture of experts' shard: its routed experts split over ep x etp as well. 1e9 dense parameters over
    // t = 2 (5e8 elements) and 8e9 expert parameters over ep = 8, etp = 2 (5e8): 1e9 x 16 B / 2e12 B/s =
    // 8 ms, as the dense 1e9 at t = 1.
    void codecCostShardsExperts() {
        ExecutionOption option;
        option.config.dp = 8;
        option.config.tp = 2;
        option.config.ep = 8;
        option.config.expertTp = 2;
        option.workPerSecond = 1e5;
        const double rate = rateWithCodec(option, 1e9, 1e6, 2e12, 16.0, 8e9);
        QVERIFY2(std::abs(rate - 1e6 / 10.008) <= 1e-9 * rate, std::to_string(rate).c_str()); // as codecCost
    }

    void neutralLeversGiveTheSameMenu() {
        // r = 1, transfer and arithmetic precision from the job: the menu must be the plain one.
        const Scenario scenario = windyGermany();
        const PreparedScenario plain = prepareScenario(scenario);
        EadtParameters p;
        p.compressionRatio = 1.0;
        p.transferPrecision = "job";
        p.arithmeticPrecision = "job";
        const ExecutionMenu menu = eadtMenu(scenario, p);
        QCOMPARE(menu.size(), plain.menu.size());
        for (std::size_t i = 0; i < menu.size(); ++i) {
            QCOMPARE(menu[i].workPerSecond, plain.menu[i].workPerSecond); // same code path: bit-identical
            QCOMPARE(menu[i].activePowerW, plain.menu[i].activePowerW);
        }
    }

    void compressionSpeedsUpTheFastestOption() {
        const Scenario scenario = windyGermany();
        const PreparedScenario plain = prepareScenario(scenario);
        EadtParameters p; // r = 10 on fp16 gradients (the job's bf16 baseline already moves 2 B)
        p.codecBytesPerParam = 0.0;
        const double compressed = fastestRate(eadtMenu(scenario, p));
        // Fewer all-reduce bytes can only shorten the exposed DP communication (dp_overlap is 0).
        QVERIFY(compressed >= fastestRate(plain.menu));
        p.compressionRatio = 1.0;
        p.transferPrecision = "fp32"; // full-precision gradients (EADT's baseline) move twice the bytes
        QVERIFY(fastestRate(eadtMenu(scenario, p)) <= fastestRate(plain.menu));
        qInfo("fastest option: plain %.0f tok/s, r = 10 without codec %.0f, fp32 transfer %.0f",
              fastestRate(plain.menu), compressed, fastestRate(eadtMenu(scenario, p)));
    }

    void runAddsTheConvergencePenalty() {
        const PreparedScenario prepared = prepareScenario(windyGermany());
        const RunResult run =
            runPolicy(prepared, PolicySpec{"eadt", {{"inner", "static-max"}, {"extra_steps", "0.05"}}});
        QVERIFY(run.metrics.finished);
        // 1e-9 relative: the work done is the job's tokens x 1.05, summed over intervals.
        QVERIFY(std::abs(run.metrics.workDone - 1.05 * prepared.input.totalWork) <=
                1e-9 * run.metrics.workDone);
        QCOMPARE(run.options.at("inner"), std::string("static-max"));
        const RunResult baseline = runPolicy(prepared, PolicySpec{"static-max", {}});
        qInfo("eadt(static-max, r 10, codec 16 B, +5 %% steps) %.1f kg vs static-max %.1f kg",
              run.metrics.totalG / 1000.0, baseline.metrics.totalG / 1000.0);
    }

    void badOptions() {
        QVERIFY_THROWS_EXCEPTION(InputError, makePolicy(PolicySpec{"eadt", {{"transfer_precision", "fp4"}}}));
        QVERIFY_THROWS_EXCEPTION(InputError, makePolicy(PolicySpec{"eadt", {{"inner", "oracle"}}}));
        QVERIFY_THROWS_EXCEPTION(InputError, makePolicy(PolicySpec{"eadt", {{"compression_ratio", "0.5"}}}));
        // The A100 has no fp8 matrix units: the levers cannot build a menu.
        EadtParameters p;
        p.arithmeticPrecision = "fp8";
        QVERIFY_THROWS_EXCEPTION(InputError, eadtMenu(windyGermany(), p));
    }
};

QTEST_GUILESS_MAIN(TestEadt)
#include "tst_eadt.moc"
