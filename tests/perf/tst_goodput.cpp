// SPDX-License-Identifier: MIT
#include "perf/Goodput.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace carbon3d;

namespace {

bool near(double a, double b, double relative) {
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

ModellingOptions failures(double perGpuHour, double checkpointS, double restartS) {
    ModellingOptions m;
    m.interruptionsPerGpuHour = perGpuHour;
    m.checkpointIntervalSeconds = checkpointS;
    m.restartSeconds = restartS;
    return m;
}

// A long run played out interval by interval: Poisson interruptions at `lambdaPerS` of running time;
// an interruption loses the interval's work done so far and costs `restartS`. Returns wall time per unit
// of productive time.
double simulatedWallPerProductive(double lambdaPerS, double intervalS, double restartS, int intervals) {
    std::mt19937_64 random(20261202);
    std::exponential_distribution<double> untilInterruption(lambdaPerS);
    double wall = 0.0;
    for (int i = 0; i < intervals; ++i) {
        for (;;) {
            const double next = untilInterruption(random);
            if (next >= intervalS) {
                wall += intervalS;
                break;
            }
            wall += next + restartS;
        }
    }
    return wall / (intervals * intervalS);
}

} // namespace

class TestGoodput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultRateIsLlama3sRun() {
        // 466 interruptions in 54 days on 16,384 GPUs: 466 / 21,233,664 GPU-hours.
        QVERIFY(near(ModellingOptions{}.interruptionsPerGpuHour, 2.19464e-5, 1e-5)); // printed digits
        // At that scale, with the default 10-minute checkpoints and restarts, the run trains more than 90 %
        // of the time, as the Llama 3 paper reports (section 3.3.4).
        const GoodputShares llama3 = goodputShares(ModellingOptions{}, 16384);
        QVERIFY(near(llama3.interruptionsPerHour, 466.0 / (54.0 * 24.0), 1e-12)); // same arithmetic
        QVERIFY(llama3.productive() > 0.90);
        QVERIFY(llama3.productive() < 0.95);
    }

    void sharesByHand() {
        // 1,000 GPUs at 1e-4 per GPU-hour: lambda = 0.1 per hour. Checkpoint every hour, restart 30 min:
        // x = lambda tau = 0.1; e^0.1 - 1 = 0.105170918; lost work = 0.105170918 / 0.1 - 1 = 0.05170918;
        // restart = 0.105170918 x 0.5 = 0.05258546; wall = 1.10429464.
        const GoodputShares s = goodputShares(failures(1e-4, 3600.0, 1800.0), 1000);
        QVERIFY(near(s.interruptionsPerHour, 0.1, 1e-12));
        QVERIFY(near(s.lostWork, 0.05170918, 1e-6)); // 8 printed digits of the hand arithmetic
        QVERIFY(near(s.restart, 0.05258546, 1e-6));
        QVERIFY(near(s.productive(), 1.0 / 1.10429464, 1e-6));
        // Small rates reduce to the first-order rule: half an interval and a restart per interruption.
        const GoodputShares small = goodputShares(failures(1e-9, 600.0, 600.0), 8);
        const double lambda = 8e-9 / 3600.0;
        QVERIFY(near(small.lostWork, lambda * 300.0, 1e-5)); // second-order terms are 1e-9 of the first
        QVERIFY(near(small.restart, lambda * 600.0, 1e-5));
    }

    void sharesMatchAPlayedOutRun() {
        // The closed form against interruptions drawn at random: 40,000 checkpoint intervals at one
        // interruption per 5 intervals. The wall time's relative standard error is about 0.2 %;
        // tolerance 1 %, five standard errors.
        const double lambdaPerS = 0.2 / 3600.0;
        const GoodputShares s = goodputShares(failures(0.2 / 100.0, 3600.0, 900.0), 100);
        QVERIFY(near(s.interruptionsPerHour, 0.2, 1e-12));
        const double played = simulatedWallPerProductive(lambdaPerS, 3600.0, 900.0, 40000);
        QVERIFY2(near(s.wallPerProductive(), played, 0.01),
                 qPrintable(
                     QStringLiteral("closed form %1, played out %2").arg(s.wallPerProductive()).arg(played)));
    }

    void evaluationAddsItsShare() {
        ModellingOptions m = failures(0.0, 600.0, 600.0);
        m.evaluationFraction = 0.05;
        const GoodputShares s = goodputShares(m, 64);
        QCOMPARE(s.lostWork, 0.0);
        QCOMPARE(s.restart, 0.0);
        QVERIFY(near(s.productive(), 1.0 / 1.05, 1e-15));
    }

    void menuByHand() {
        ClusterProfile cluster;
        cluster.gpusPerNode = 8;
        cluster.accelerator.idleW = 50.0;
        cluster.nodeOverheadW = 1000.0;
        ExecutionOption option;
        option.gpusActive = 1000;
        option.workPerSecond = 1000.0;
        option.activePowerW = 500e3;
        option.gpuPowerW = 400e3;
        ExecutionMenu menu{option};
        applyGoodput(menu, failures(1e-4, 3600.0, 1800.0), cluster);
        QCOMPARE(menu.size(), std::size_t{1});
        // wall 1.10429464: work 1000 / 1.10429464 = 905.55629; training share 1.05170918 / 1.10429464 =
        // 0.95238095 (= 1 / 1.05 exactly: e^x / (e^x (1 + ...)) here), restart share 0.04761905. Idle:
        // 1,000 GPUs x 50 W + 125 nodes x 1 kW = 175 kW. Power 0.95238095 x 500 + 0.04761905 x 175 =
        // 484.52381 kW; GPUs 0.95238095 x 400 + 0.04761905 x 50 = 383.33333 kW.
        QVERIFY(near(menu[0].workPerSecond, 905.55629, 1e-6));
        QVERIFY(near(menu[0].activePowerW, 484523.81, 1e-6));
        QVERIFY(near(menu[0].gpuPowerW, 383333.33, 1e-6));
    }

    void noFailuresLeaveTheMenuAlone() {
        ExecutionOption option;
        option.gpusActive = 16384;
        option.workPerSecond = 1.5e6;
        option.activePowerW = 12e6;
        option.gpuPowerW = 9e6;
        ExecutionMenu menu{option};
        applyGoodput(menu, failures(0.0, 600.0, 600.0), ClusterProfile{});
        QCOMPARE(menu[0].workPerSecond, option.workPerSecond); // exact: divided by 1
        QCOMPARE(menu[0].activePowerW, option.activePowerW);
        QCOMPARE(menu[0].gpuPowerW, option.gpuPowerW);
    }

    void optionsTheLossesLeaveDominatedLeaveTheMenu() {
        // 10,000 GPUs at 1e-4 per GPU-hour are interrupted once an hour: with 10-minute checkpoints and
        // restarts they keep 1 / (1 + 0.088 + 0.181) = 79 % of their speed, 87 against the 8 GPUs' 100 at
        // half their power, which keep almost all of theirs. The menu stays a Pareto frontier.
        ExecutionOption small;
        small.gpusActive = 8;
        small.workPerSecond = 100.0;
        small.activePowerW = 1000.0;
        ExecutionOption big = small;
        big.gpusActive = 10000;
        big.workPerSecond = 110.0;
        big.activePowerW = 2000.0;
        ExecutionMenu menu{big, small};
        applyGoodput(menu, failures(1e-4, 600.0, 600.0), ClusterProfile{});
        QCOMPARE(menu.size(), std::size_t{1});
        QCOMPARE(menu[0].gpusActive, 8);
    }

    void hopelessOptionsLeaveTheMenu() {
        // One interruption per 100 GPU-hours: 100,000 GPUs are interrupted 1,000 times an hour, so with
        // 10-minute checkpoints e^166.7 - 1 interruptions come per interval and no such run finishes; 8 GPUs
        // (0.08 an hour) train 98 % of their time.
        ExecutionOption big;
        big.gpusActive = 100000;
        big.workPerSecond = 1.0;
        ExecutionOption small = big;
        small.gpusActive = 8;
        ExecutionMenu menu{small, big};
        applyGoodput(menu, failures(0.01, 600.0, 600.0), ClusterProfile{});
        QCOMPARE(menu.size(), std::size_t{1});
        QCOMPARE(menu[0].gpusActive, 8);
        // Daily checkpoints: e^24,000 overflows; the share is infinite, not a number that wraps.
        QVERIFY(std::isinf(goodputShares(failures(0.01, 86400.0, 600.0), 100000).wallPerProductive()));
        menu = {big};
        applyGoodput(menu, failures(0.01, 86400.0, 600.0), ClusterProfile{});
        QVERIFY(menu.empty());
    }
};

QTEST_GUILESS_MAIN(TestGoodput)
#include "tst_goodput.moc"
