// SPDX-License-Identifier: MIT
#include "EngineTestSupport.h"
#include "engine/CostModel.h"
#include "engine/Simulator.h"
#include "engine/policies/IlpPolicy.h"
#include "engine/policies/OraclePolicy.h"
#include "engine/policies/ScheduleGraph.h"

#include <QTest>
#include <cmath>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// Per hour: the option trained with in that hour (-1: none).
QList<int> optionPerHour(const RunResult& run, const SimulationInput& input, int hours) {
    QList<int> out(hours, -1);
    for (const IntervalRecord& record : run.series) {
        if (record.activity != IntervalActivity::Training)
            continue;
        for (int k = 0; k < static_cast<int>(input.menu.size()); ++k)
            if (input.menu[static_cast<std::size_t>(k)].gpusActive == record.gpusActive)
                out[static_cast<qsizetype>((record.start - input.startUtc) / 3600)] = k;
    }
    return out;
}

} // namespace

class TestIlp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void equalsTheOracle_data() {
        QTest::addColumn<QList<double>>("hourly");
        QTest::addColumn<double>("work");
        QTest::addColumn<double>("overheadS");
        QTest::addColumn<double>("idleW");
        // Menu: A = 2 GPUs, 1 unit/s at 500 W; B = 4 GPUs, 2 units/s at 1200 W. 6 h window.
        // 10800 units: A in the three cleanest hours, 0.5 kWh x (90 + 100 + 120) = 155 g, beats B at 90
        // plus A at 100 (1.2 x 90 + 0.5 x 100 = 158 g).
        QTest::newRow("no overheads") << QList<double>{300, 100, 250, 90, 300, 120} << 10800.0 << 0.0 << 0.0;
        // 14400 units: 2 h of B or 4 h of A or mixes; switching costs and idle power matter.
        QTest::newRow("no overheads, more work")
            << QList<double>{300, 100, 250, 90, 300, 120} << 14400.0 << 0.0 << 0.0;
        QTest::newRow("idle GPUs") << QList<double>{300, 100, 250, 90, 300, 120} << 10800.0 << 0.0 << 50.0;
        // Overheads of 600 s per reconfiguration or resume: the job no longer fills whole slots (the ILP's
        // unused-tail variable must match the engine's partial last slot).
        QTest::newRow("overheads") << QList<double>{300, 100, 250, 90, 300, 120} << 10800.0 << 600.0 << 0.0;
        QTest::newRow("overheads, contiguous cheap run")
            << QList<double>{400, 80, 90, 400, 400, 100} << 9000.0 << 600.0 << 30.0;
    }
    void equalsTheOracle() {
        QFETCH(QList<double>, hourly);
        QFETCH(double, work);
        QFETCH(double, overheadS);
        QFETCH(double, idleW);
        SimulationInput input = makeInput(makeTrace({hourly.begin(), hourly.end()}),
                                          {makeOption(2, 1.0, 500.0), makeOption(4, 2.0, 1200.0)}, work,
                                          kJune1, kJune1 + 6 * kSecondsPerHour);
        input.modelling.resizeSeconds = overheadS; // d 2 <-> d 4: a resize
        input.modelling.preemptionSeconds = overheadS;
        input.idlePowerPerGpuW = idleW;
        IlpParameters exact;
        exact.mipGap = 0.0; // prove optimality: the comparison is with the exact oracle
        IlpPolicy ilp(exact);
        OraclePolicy oracle("exact", 200000);
        const RunResult a = simulate(input, ilp);
        const RunResult b = simulate(input, oracle);
        QCOMPARE(ilp.fallbacks(), 0);
        QCOMPARE(optionPerHour(a, input, 6), optionPerHour(b, input, 6));
        // Same schedule, same engine: equal up to summation order (1e-9 relative).
        QVERIFY2(qAbs(a.metrics.totalG - b.metrics.totalG) <= 1e-9 * b.metrics.totalG,
                 qPrintable(QString::number(a.metrics.totalG) + QStringLiteral(" vs ") +
                            QString::number(b.metrics.totalG)));
        QVERIFY(a.metrics.deadlineMet);
    }

    void lagrangianSeedOnAHandCheckedCase() {
        // The "no overheads" instance: A = 1 unit/s at 500 W, B = 2 units/s at 1200 W, hourly CI
        // 300, 100, 250, 90, 300, 120, 10800 units by the end of hour 6. Per hour A costs 0.5 kWh x CI and
        // does 3600 units; B 1.2 kWh x CI for 7200. The cheapest path meeting the target runs A in hours
        // 1, 3 and 5 (CI 100, 90, 120): 0.5 x 310 = 155 g, 10800 units; the seed must find it (B in
        // hour 3 plus A in hour 1 does 10800 for 1.2 x 90 + 0.5 x 100 = 158 g).
        const SimulationInput input = makeInput(makeTrace({300, 100, 250, 90, 300, 120}),
                                                {makeOption(2, 1.0, 500.0), makeOption(4, 2.0, 1200.0)},
                                                10800.0, kJune1, kJune1 + 6 * kSecondsPerHour);
        const CostModel costs(input);
        std::vector<ForecastPiece> pieces;
        for (double ci : {300.0, 100.0, 250.0, 90.0, 300.0, 120.0})
            pieces.push_back({kJune1 + 3600.0 * static_cast<double>(pieces.size()), 3600.0, ci, false});
        const ScheduleGraph graph(costs, pieces, kNotStarted, /*canFinish=*/true);
        const SchedulePath seed = lagrangianSchedule(graph, 10800.0, 1e-3);
        QList<int> states;
        for (std::size_t index : seed.states)
            states.append(graph.stateOf(index));
        const int a = 0;
        QCOMPARE(states.at(1), a);
        QCOMPARE(states.at(3), a);
        QCOMPARE(states.at(5), a);
        QVERIFY(states.at(0) < 0 && states.at(2) < 0 && states.at(4) < 0);
        // Grams from watt-hours: exact in binary to far below 1e-9 relative.
        QVERIFY(qAbs(seed.carbonG - 155.0) <= 1e-9 * 155.0);
        QCOMPARE(seed.work, 10800.0);
    }

    void infeasibleSolveUsesTheGreedyFallback() {
        // 3 h at B cover 21600 units; asking for 30000 inside a 3 h window is infeasible for the ILP:
        // the greedy runs B in the cheapest hours (all three here) and the warning says why.
        const SimulationInput input = makeInput(makeTrace({300, 100, 200, 400}),
                                                {makeOption(2, 1.0, 500.0), makeOption(4, 2.0, 1200.0)},
                                                1000.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        const CostModel costs(input);
        IlpPolicy policy(IlpParameters{});
        policy.prepare(PlanningContext{input, costs, [] { return std::vector<UtcSeconds>{}; }});
        Forecast forecast;
        forecast.firstSlotUtc = kJune1;
        forecast.horizon = {300, 100, 200, 400};
        DecisionState state;
        state.nowUtc = kJune1;
        state.deadlineUtc = kJune1 + 3 * kSecondsPerHour;
        state.workRemaining = 30000.0;
        state.forecast = [&forecast]() -> const Forecast& { return forecast; };
        QCOMPARE(policy.decide(state).option, 1);
        QCOMPARE(policy.fallbacks(), 1);
        const std::vector<std::string> warnings = policy.warnings();
        QCOMPARE(static_cast<int>(warnings.size()), 1);
        QVERIFY(warnings.front().find("greedy fallback") != std::string::npos);
        QVERIFY(warnings.front().find("infeasible") != std::string::npos);
    }

    void rollingHorizonFinishesALongJob() {
        // 10 days hourly, a 3-day job at B with 2 days of slack, 48 h horizon: the pro-rata target keeps
        // the job on track and the run meets its deadline without the engine's guard.
        std::vector<double> hourly;
        hourly.reserve(std::size_t{24} * 10);
        for (int h = 0; h < 24 * 10; ++h)
            hourly.push_back(h % 24 < 8 ? 100.0 : 300.0);
        const SimulationInput input =
            makeInput(makeTrace(hourly), {makeOption(2, 1.0, 500.0), makeOption(4, 2.0, 1200.0)},
                      2.0 * kSecondsPerHour * 72, kJune1, kJune1 + 5 * kSecondsPerDay);
        IlpParameters p;
        p.resolveHours = 6.0;
        IlpPolicy policy(p);
        const RunResult run = simulate(input, policy);
        QVERIFY(run.metrics.deadlineMet);
        QCOMPARE(policy.fallbacks(), 0);
        QVERIFY(policy.solves() >= 20); // 120 h / 6 h, more when the run leaves the plan
    }

    void searchLimitKeepsTheBestScheduleDeterministically() {
        // The ten-day job of rollingHorizonFinishesALongJob with 20 min switch overheads (so schedules
        // differ in where partial slots fall) and proof of optimality demanded (mip_gap 0) but only the
        // root node allowed: solves that cannot prove optimality at the root stop at the node limit,
        // keep the heuristic/GLPK schedule (no greedy fallback) and say so. The node count, unlike
        // GLPK's wall-clock limit, makes two runs identical.
        std::vector<double> hourly;
        hourly.reserve(std::size_t{24} * 10);
        for (int h = 0; h < 24 * 10; ++h)
            hourly.push_back(100.0 + 200.0 * std::abs(std::sin(0.37 * h)) + (h % 24 < 8 ? 0.0 : 150.0));
        SimulationInput input =
            makeInput(makeTrace(hourly), {makeOption(2, 1.0, 500.0), makeOption(4, 2.0, 1200.0)},
                      2.0 * kSecondsPerHour * 72, kJune1, kJune1 + 5 * kSecondsPerDay);
        input.modelling.resizeSeconds = 1200.0; // d 2 <-> d 4: a resize
        input.modelling.preemptionSeconds = 1200.0;
        IlpParameters p;
        p.mipGap = 0.0;
        p.nodeLimit = 1;
        IlpPolicy first(p);
        IlpPolicy second(p);
        const RunResult a = simulate(input, first);
        const RunResult b = simulate(input, second);
        QVERIFY(a.metrics.deadlineMet);
        QCOMPARE(first.fallbacks(), 0);
        QVERIFY(first.limited() > 0);
        QVERIFY(first.warnings().front().find("node limit of 1") != std::string::npos);
        // Deterministic: the same schedule, so the same totals to the last bit.
        QCOMPARE(a.series.size(), b.series.size());
        QCOMPARE(a.metrics.totalG, b.metrics.totalG);
        QCOMPARE(first.limited(), second.limited());
    }
};

QTEST_GUILESS_MAIN(TestIlp)
#include "tst_ilp.moc"
