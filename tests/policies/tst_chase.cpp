// SPDX-License-Identifier: MIT
#include "EngineTestSupport.h"
#include "config/OperatingPointsCsv.h"
#include "engine/Simulator.h"
#include "engine/forecast/EpsilonSvr.h"
#include "engine/forecast/SvrForecaster.h"
#include "engine/policies/ChasePolicy.h"
#include "perf/ExecutionMenuBuilder.h"

#include <QTest>
#include <cmath>
#include <numbers>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// The Zeus A40 ResNet-50 sweep (docs/MODEL.md section 5.3) as a measured power-limit table: one GPU,
// work in epochs (throughput = 1 / epoch seconds), no node overhead.
ExecutionMenu zeusMenu() {
    const OperatingPointTable table = loadOperatingPoints(std::string(CARBON3D_SOURCE_DIR) +
                                                          "/tests/data/policies/zeus_a40_power_limits.csv");
    ClusterProfile cluster;
    cluster.gpusPerNode = 8;
    cluster.nodeOverheadW = 0.0;
    cluster.gpusAvailable = 1;
    return buildExecutionMenu(table, cluster);
}

// A daily pattern (period 24 slots) plus a slow weekly drift, hourly.
std::vector<double> dailyPattern(int days) {
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(24) * static_cast<std::size_t>(days));
    for (int h = 0; h < 24 * days; ++h)
        values.push_back(300.0 + 120.0 * std::sin(2.0 * std::numbers::pi * h / 24.0));
    return values;
}

} // namespace

class TestChase : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void powerLimitOnTheZeusTable_data() {
        QTest::addColumn<double>("ci");
        QTest::addColumn<double>("expectedLimitW");
        // cost(PL) = [0.5 x P x CI + 0.5 x 300 x 750] x epoch_s (throughput = 1/epoch_s):
        // CI 0: 112500 x epoch_s -> the shortest epoch, 300 W (3847 s).
        QTest::newRow("CI 0") << 0.0 << 300.0;
        // CI 100: 300 W (11760 + 112500) x 3847 = 478.03e6; 275 W (11540 + 112500) x 3858 = 478.55e6;
        // 250 W (10730 + 112500) x 3865 = 476.28e6; 225 W (9820 + 112500) x 3909 = 478.15e6;
        // 200 W (8880 + 112500) x 4124 = 500.57e6 -> 250 W.
        QTest::newRow("CI 100") << 100.0 << 250.0;
        // CI 750: 300 W 200700 x 3847 = 772.09e6; 250 W 192975 x 3865 = 745.85e6;
        // 225 W 186150 x 3909 = 727.66e6; 200 W 179100 x 4124 = 738.61e6; 175 W 172575 x 4706 = 812.14e6
        // -> 225 W.
        QTest::newRow("CI 750") << 750.0 << 225.0;
    }
    void powerLimitOnTheZeusTable() {
        QFETCH(double, ci);
        QFETCH(double, expectedLimitW);
        // Four hours: the tested CI in hour 1; the job runs through it (2.5 epochs of ~1.07 h each).
        const SimulationInput input =
            makeInput(makeTrace({ci, ci, ci, ci, ci}), zeusMenu(), 2.5, kJune1, kJune1 + 5 * kSecondsPerHour);
        ChasePolicy policy(ChaseParameters{});
        const RunResult run = simulate(input, policy);
        QVERIFY(!run.series.empty());
        for (const IntervalRecord& record : run.series)
            QCOMPARE(record.powerLimitW, expectedLimitW); // limits are copied from the table, exact
        QCOMPARE(static_cast<int>(policy.candidates().size()), 7);
    }

    void followsTheCarbonIntensity() {
        // CI 0, 100, 750 by the hour: the limit follows 300, 250, 225 W (see the table above).
        const SimulationInput input =
            makeInput(makeTrace({0, 100, 750, 750}), zeusMenu(), 2.5, kJune1, kJune1 + 4 * kSecondsPerHour);
        ChasePolicy policy(ChaseParameters{});
        const RunResult run = simulate(input, policy);
        QList<double> limits;
        for (const IntervalRecord& record : run.series)
            if (record.activity == IntervalActivity::Training &&
                record.start - kJune1 < 3 * kSecondsPerHour &&
                (limits.isEmpty() || (record.start - kJune1) % 3600 == 0))
                limits.append(record.powerLimitW);
        QCOMPARE(limits, (QList<double>{300.0, 250.0, 225.0}));
    }

    void etaOneIsEnergyOnly() {
        // eta = 1: cost = P x CI x epoch_s, i.e. energy per epoch x CI: 300 W 235.2 x 3847 = 904.8 kJ;
        // 250 W 214.6 x 3865 = 829.4 kJ; 225 W 196.4 x 3909 = 767.7 kJ; 200 W 177.6 x 4124 = 732.4 kJ;
        // 175 W 160.2 x 4706 = 753.9 kJ; 150 W 144.6 x 6327 = 914.9 kJ -> 200 W at any CI > 0.
        ChaseParameters p;
        p.eta = 1.0;
        const ExecutionMenu menu = zeusMenu();
        int best = 0;
        for (int k = 1; k < static_cast<int>(menu.size()); ++k)
            if (chaseCost(menu[static_cast<std::size_t>(k)], 400.0, p) <
                chaseCost(menu[static_cast<std::size_t>(best)], 400.0, p))
                best = k;
        QCOMPARE(menu[static_cast<std::size_t>(best)].powerLimitW, 200.0);
    }

    void svrFitsInsideTheTube() {
        // y = x1 + x2 on a grid: with epsilon 0.1 every training residual must lie within the tube
        // or its coefficient sit at the bound C (the KKT conditions of epsilon-SVR); C large here, so
        // every residual is within epsilon + the solver tolerance (1e-6 slack for the stopping rule).
        Eigen::MatrixXd x(25, 2);
        Eigen::VectorXd y(25);
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j) {
                x.row(i * 5 + j) << i / 4.0, j / 4.0;
                y(i * 5 + j) = i / 4.0 + j / 4.0;
            }
        EpsilonSvr::Parameters p;
        p.c = 1000.0;
        p.epsilon = 0.1;
        p.gamma = 1.0;
        p.maxSweeps = 20000;
        p.tolerance = 1e-10;
        EpsilonSvr svr(p);
        svr.fit(x, y);
        for (int i = 0; i < 25; ++i)
            QVERIFY2(std::abs(svr.predict(x.row(i).transpose()) - y(i)) <= 0.1 + 1e-6,
                     qPrintable(QString::number(i)));
        // A tube wider than every target: the zero function fits, no support vectors.
        p.epsilon = 10.0;
        EpsilonSvr wide(p);
        wide.fit(x, y);
        QCOMPARE(wide.coefficients().cwiseAbs().maxCoeff(), 0.0);
    }

    // The free-bias form (scikit-learn's SVR, Chase's code) by its optimality conditions: every residual
    // within the tube (C large, so no coefficient sits at its bound here), the coefficients summing to 0 (the
    // bias's constraint), and a constant added to every target moves the fit by exactly that constant (the
    // bias is not regularised; the folded form would shrink it). Tolerances: 1e-6 for the stopping rule's
    // 1e-10 violation, scaled by the data.
    void svrWithAFreeBiasMeetsItsConditions() {
        Eigen::MatrixXd x(25, 2);
        Eigen::VectorXd y(25);
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j) {
                x.row(i * 5 + j) << i / 4.0, j / 4.0;
                y(i * 5 + j) = std::sin(3.0 * i / 4.0) + j / 4.0;
            }
        EpsilonSvr::Parameters p;
        p.c = 1000.0;
        p.epsilon = 0.1;
        p.gamma = 1.0;
        p.freeBias = true;
        p.tolerance = 1e-10;
        EpsilonSvr svr(p);
        svr.fit(x, y);
        EpsilonSvr shifted(p);
        const Eigen::VectorXd lifted = y.array() + 1000.0;
        shifted.fit(x, lifted);
        QVERIFY(std::abs(svr.coefficients().sum()) <= 1e-6);
        for (int i = 0; i < 25; ++i) {
            const double fit = svr.predict(x.row(i).transpose());
            QVERIFY2(std::abs(fit - y(i)) <= 0.1 + 1e-6, qPrintable(QString::number(i)));
            QVERIFY(std::abs(shifted.predict(x.row(i).transpose()) - 1000.0 - fit) <= 1e-6);
        }
    }

    void svrForecasterLearnsADailyPattern() {
        // Five days of a pure daily sine (amplitude 120 around 300): trained on the 48 slots before
        // slot 100, the next value is a function of the features, so the SVR predicts it to within its
        // tube: epsilon 0.1 standardised = 0.1 x std (120 / sqrt 2 = 84.9) = 8.5 g/kWh, plus the
        // shrinkage of C = 1; 15 g/kWh (5 % of the mean) bounds both.
        const CarbonTrace trace = makeTrace(dailyPattern(5));
        SvrForecaster forecaster(trace);
        std::vector<double> out;
        forecaster.predict(100, 1, out);
        QVERIFY2(std::abs(out.front() - trace.gPerKwh[100]) <= 15.0,
                 qPrintable(QString::number(out.front()) + QStringLiteral(" vs ") +
                            QString::number(trace.gPerKwh[100])));
        // No past: persistence of what is known.
        forecaster.predict(10, 2, out);
        QCOMPARE(out, (std::vector<double>{trace.gPerKwh[9], trace.gPerKwh[9]}));
    }

    void svrPredictorRunsAChaseJob() {
        std::vector<double> values = dailyPattern(4);
        const SimulationInput input = makeInput(makeTrace(values), zeusMenu(), 10.0,
                                                kJune1 + 50 * kSecondsPerHour, kJune1 + 96 * kSecondsPerHour);
        ChaseParameters p;
        p.svr = true;
        ChasePolicy policy(p);
        const RunResult run = simulate(input, policy);
        QVERIFY(run.metrics.deadlineMet);
        QCOMPARE(run.options.at("predictor"), std::string("svr"));
    }
};

QTEST_GUILESS_MAIN(TestChase)
#include "tst_chase.moc"
