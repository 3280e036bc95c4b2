// SPDX-License-Identifier: MIT
#include "EngineTestSupport.h"
#include "domain/InputError.h"
#include "domain/Savings.h"
#include "engine/CostModel.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"

#include <QTest>
#include <atomic>
#include <cmath>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// Hand-checked values are sums of a few exactly representable products: 1e-9 relative absorbs
// the rounding of the J -> kWh division and nothing else.
bool near(double actual, double expected, double relative = 1e-9) {
    return std::abs(actual - expected) <= relative * std::max(1.0, std::abs(expected));
}

// A: 2 of 4 GPUs, 1 work unit/s at 500 W; B: 4 GPUs, 1.5 units/s at 1200 W.
ExecutionMenu twoOptions() {
    return {makeOption(2, 1.0, 500.0), makeOption(4, 1.5, 1200.0)};
}

void checkSeriesSums(const RunResult& result) {
    double energy = 0.0;
    double emissions = 0.0;
    double work = 0.0;
    for (const IntervalRecord& record : result.series) {
        energy += record.energyJ;
        emissions += record.emissionsG;
        work += record.workDone;
        QVERIFY(record.end > record.start);
    }
    QVERIFY(near(energy, result.metrics.energyJ));
    QVERIFY(near(emissions, result.metrics.operationalG));
    QVERIFY(near(work, result.metrics.workDone));
}

} // namespace

class TestAccounting : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void acrossSlotBoundaries_data() {
        QTest::addColumn<qint64>("startOffset");
        QTest::addColumn<double>("expectedG");
        QTest::addColumn<double>("decisionInterval");
        // Trace 100, 200, 300 g/kWh hourly; one option at 1000 W doing 1 unit/s; 5400 units = 1.5 h.
        // From 00:00: 1 kWh x 100 + 0.5 kWh x 200 = 200 g.
        QTest::newRow("slot-aligned") << qint64(0) << 200.0 << 0.0;
        // From 00:30: 0.5 kWh x 100 + 1 kWh x 200 = 250 g.
        QTest::newRow("mid-slot start") << qint64(1800) << 250.0 << 0.0;
        // Decisions every 1.5 h do not change the integration: still 200 g.
        QTest::newRow("decision interval 5400 s") << qint64(0) << 200.0 << 5400.0;
    }
    void acrossSlotBoundaries() {
        QFETCH(qint64, startOffset);
        QFETCH(double, expectedG);
        QFETCH(double, decisionInterval);
        SimulationInput input = makeInput(makeTrace({100, 200, 300}), {makeOption(4, 1.0, 1000.0)}, 5400.0,
                                          kJune1 + startOffset, kJune1 + 3 * kSecondsPerHour);
        input.modelling.decisionIntervalSeconds = decisionInterval;
        const RunResult result = simulate(input, PolicySpec{"static-max", {}});
        QVERIFY(near(result.metrics.operationalG, expectedG));
        QVERIFY(near(result.metrics.energyJ, 5.4e6)); // 1000 W x 5400 s
        QVERIFY(near(result.metrics.completionSeconds, 5400.0));
        QVERIFY(result.metrics.deadlineMet);
        checkSeriesSums(result);
    }

    void idlePueEmbodiedAndRelease_data() {
        QTest::addColumn<bool>("release");
        QTest::addColumn<double>("expectedOperationalG");
        QTest::addColumn<double>("expectedEmbodiedG");
        // Option A (2 of 4 GPUs, 500 W) for one hour at 100 g/kWh, idle 50 W/GPU, PUE 1.5,
        // embodied 0.001 g per GPU-second.
        // Idle: (500 + 2 x 50) x 1.5 = 900 W -> 0.9 kWh x 100 = 90 g; embodied 4 x 0.001 x 3600 = 14.4 g.
        QTest::newRow("parked idle") << false << 90.0 << 14.4;
        // Released: 500 x 1.5 = 750 W -> 75 g; embodied 2 x 0.001 x 3600 = 7.2 g.
        QTest::newRow("parked released") << true << 75.0 << 7.2;
    }
    void idlePueEmbodiedAndRelease() {
        QFETCH(bool, release);
        QFETCH(double, expectedOperationalG);
        QFETCH(double, expectedEmbodiedG);
        SimulationInput input =
            makeInput(makeTrace({100, 200}), twoOptions(), 3600.0, kJune1, kJune1 + 2 * kSecondsPerHour);
        input.idlePowerPerGpuW = 50.0;
        input.pue = 1.5;
        input.embodiedGPerGpuSecond = 0.001;
        input.modelling.backfill = release ? 1.0 : 0.0;
        ScriptedPolicy policy({0});
        const RunResult result = simulate(input, policy);
        QVERIFY(near(result.metrics.operationalG, expectedOperationalG));
        QVERIFY(near(result.metrics.embodiedG, expectedEmbodiedG));
        QVERIFY(near(result.metrics.totalG, expectedOperationalG + expectedEmbodiedG));
        QCOMPARE(result.series.front().gpusHeld, release ? 2 : 4);
        checkSeriesSums(result);
    }

    // Issue 14: a paused hour of a job that holds its GPUs, checked by hand, at both ends of the
    // attribution and between, with the two ends every run reports.
    void pausedHourAtEveryBackfill_data() {
        QTest::addColumn<double>("backfill");
        QTest::newRow("dedicated (0)") << 0.0;
        QTest::newRow("a third used by others") << 1.0 / 3.0;
        QTest::newRow("shared (1)") << 1.0;
    }
    void pausedHourAtEveryBackfill() {
        QFETCH(double, backfill);
        // Trace 100, 400, 200 g/kWh. The script trains option B (all 4 GPUs, 1200 W, 1.5 units/s) in
        // hours 0 and 2 and pauses through the dirty hour 1 (free to resume: preemption 0 s).
        SimulationInput input = makeInput(makeTrace({100, 400, 200}), twoOptions(), 2 * kSecondsPerHour * 1.5,
                                          kJune1, kJune1 + 3 * kSecondsPerHour);
        input.idlePowerPerGpuW = 50.0;
        input.gpusPerNode = 2; // the 4 GPUs fill 2 nodes, each drawing 300 W outside its GPUs when idle
        input.idlePowerPerNodeW = 300.0;
        input.pue = 1.5;
        input.embodiedGPerGpuSecond = 0.001;
        input.modelling.preemptionSeconds = 0.0;
        input.modelling.backfill = backfill;
        ScriptedPolicy policy({1, kPaused, 1});
        const RunResult result = simulate(input, policy);
        QVERIFY(result.metrics.finished);
        // Training hours: 1200 W x 1.5 = 1.8 kWh at 100 and at 200 g/kWh = 540 g; embodied 4 x 0.001 x
        // 3600 x 2 = 28.8 g. Nothing is parked while B runs (it uses all 4 GPUs, so both nodes are active
        // and their overhead is in B's 1200 W).
        const double trainingG = 540.0 + 28.8;
        // The paused hour at 400 g/kWh, all 4 GPUs and both nodes parked: (4 GPUs x 50 W + 2 nodes x 300 W)
        // x 1.5 = 1200 W -> 1.2 kWh x 400 = 480 g, embodied 4 x 0.001 x 3600 = 14.4 g: 494.4 g, of which the
        // job pays (1 - backfill).
        const double pausedG = 480.0 + 14.4;
        QVERIFY(near(result.metrics.totalG, trainingG + (1.0 - backfill) * pausedG));
        QVERIFY(near(result.metrics.dedicatedG, trainingG + pausedG));
        QVERIFY(near(result.metrics.sharedG, trainingG));
        checkSeriesSums(result);
    }

    void defaultDecisionGrid_data() {
        QTest::addColumn<int>("stepSeconds");
        QTest::addColumn<int>("expectedSpacingS");
        // Slot boundaries, but no more often than every 30 min (kMinSlotDecisionIntervalS): a 5-min trace
        // decides every 6th boundary, a 15-min trace every 2nd, 20-min slots every 2nd (40 min: the
        // smallest multiple >= 30 min), an hourly trace at every boundary.
        QTest::newRow("5 min") << 300 << 1800;
        QTest::newRow("15 min") << 900 << 1800;
        QTest::newRow("20 min") << 1200 << 2400;
        QTest::newRow("hourly") << 3600 << 3600;
    }
    void defaultDecisionGrid() {
        QFETCH(int, stepSeconds);
        QFETCH(int, expectedSpacingS);
        // Four hours of trace; the job may use all of it.
        const auto slots = static_cast<std::size_t>(4 * 3600 / stepSeconds);
        const SimulationInput input =
            makeInput(makeTrace(std::vector<double>(slots, 100.0), kJune1, stepSeconds),
                      {makeOption(4, 1.0, 1000.0)}, 3600.0, kJune1, kJune1 + 4 * kSecondsPerHour);
        const std::vector<UtcSeconds> points = decisionPoints(input);
        QCOMPARE(points.front(), kJune1);
        QCOMPARE(points.back(), kJune1 + 4 * kSecondsPerHour);
        for (std::size_t i = 1; i + 1 < points.size(); ++i)
            QCOMPARE(points[i] - points[i - 1], UtcSeconds{expectedSpacingS});
        // An explicit interval is honoured as asked.
        SimulationInput every = input;
        every.modelling.decisionIntervalSeconds = stepSeconds;
        QCOMPARE(decisionPoints(every).size(), slots + 1);
    }

    void reconfigurationCost() {
        // Trace 100, 200, 300; A in slot 0, B from slot 1; reconfiguration 600 s at 0.5 x B's power.
        // Slot 0: A 3600 s: 3600 units, 500 W -> 0.5 kWh x 100 = 50 g.
        // Slot 1: overhead 600 s at 600 W -> 0.1 kWh x 200 = 20 g; B 3000 s: 4500 units,
        //         1200 W -> 1 kWh x 200 = 200 g.
        // Slot 2: B 1000 s for the last 1500 units: 1200 W -> 1/3 kWh x 300 = 100 g.
        // Total 370 g, 9600 units, completion 2 h + 1000 s = 8200 s.
        // B here is tensor-parallel (t 2 x d 2), so moving from A (d 2) reshards: a reconfiguration.
        ExecutionMenu menu = twoOptions();
        menu[1].config.dp = 2;
        menu[1].config.tp = 2;
        SimulationInput input =
            makeInput(makeTrace({100, 200, 300}), menu, 9600.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        input.modelling.reconfigurationSeconds = 600.0;
        input.modelling.overheadPowerFraction = 0.5;
        ScriptedPolicy policy({0, 1});
        const RunResult result = simulate(input, policy);
        QVERIFY(near(result.metrics.operationalG, 370.0));
        QCOMPARE(result.metrics.reconfigurations, 1);
        QVERIFY(near(result.metrics.reconfigurationSeconds, 600.0));
        QVERIFY(near(result.metrics.completionSeconds, 8200.0));
        QCOMPARE(result.series[1].activity, IntervalActivity::Reconfiguring);
        QVERIFY(near(result.series[1].emissionsG, 20.0));
        checkSeriesSums(result);
    }

    // Issue 41: a region whose time zone is assumed (UTC, no zone known) says so in every run's warnings.
    void aRunOnARegionOfUnknownTimeZoneSaysSo() {
        SimulationInput input =
            makeInput(makeTrace({100, 200}), twoOptions(), 3600.0, kJune1, kJune1 + 2 * kSecondsPerHour);
        QVERIFY(simulate(input, PolicySpec{"static-max", {}}).warnings.empty());
        input.regions.front().regionId = "westus";
        input.regions.front().timeZoneAssumed = true;
        const RunResult run = simulate(input, PolicySpec{"static-max", {}});
        QCOMPARE(run.warnings.size(), std::size_t(1));
        QVERIFY(run.warnings.front().find("region westus: its time zone is not known") == 0);
    }

    // Issue 14: what a move between two options costs depends on what changes.
    void transitionKinds() {
        ExecutionOption a = makeOption(2, 1.0, 500.0);      // d 2
        ExecutionOption grown = makeOption(4, 1.5, 1200.0); // d 4: data parallelism alone
        ExecutionOption capped = a;                         // d 2 at a lower power limit
        capped.powerLimitW = 300.0;
        ExecutionOption resharded = grown; // t 2 x d 2: the model state is split another way
        resharded.config.dp = 2;
        resharded.config.tp = 2;
        SimulationInput input = makeInput(makeTrace({100, 200}), {a, grown, capped, resharded}, 1.0, kJune1,
                                          kJune1 + 2 * kSecondsPerHour);
        input.modelling.reconfigurationSeconds = 600.0;
        input.modelling.resizeSeconds = 120.0;
        input.modelling.preemptionSeconds = 900.0;
        const CostModel costs(input);
        QCOMPARE(costs.transitionSeconds(0, 1), 120.0); // d 2 -> d 4: replicas join, no reshard
        QCOMPARE(costs.transitionSeconds(1, 0), 120.0);
        QCOMPARE(costs.transitionSeconds(0, 2), 0.0);   // a power limit is set while the job runs
        QCOMPARE(costs.transitionSeconds(0, 3), 600.0); // t changes: checkpoint, reshard, reload
        QCOMPARE(costs.transitionSeconds(kPaused, 1), 900.0);
        QCOMPARE(costs.transitionSeconds(kNotStarted, 3), 0.0); // the first start is free
        QCOMPARE(costs.transitionDurations(), (std::vector<double>{0.0, 120.0, 600.0, 900.0}));
        // The groups those durations come from, which the oracle plans by.
        QCOMPARE(costs.liveGroupCount(), 3);
        QCOMPARE(costs.shardGroupCount(), 2);
        QCOMPARE(costs.liveGroup(2), costs.liveGroup(0));
        QVERIFY(costs.liveGroup(1) != costs.liveGroup(0) && costs.shardGroup(1) == costs.shardGroup(0));
        QVERIFY(costs.shardGroup(3) != costs.shardGroup(0));
    }

    void preemptionCost() {
        // A, pause, A with preemption 900 s at full power (fraction 1), idle 0 W:
        // slot 0: 50 g, 3600 units; slot 1 paused: 0 g; slot 2: restore 900 s at 500 W
        // -> 0.125 kWh x 300 = 37.5 g, then A 2700 s -> 0.375 kWh x 300 = 112.5 g, 2700 units.
        // Total 200 g for 6300 units, finishing exactly at the 3 h deadline.
        SimulationInput input =
            makeInput(makeTrace({100, 200, 300}), twoOptions(), 6300.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        input.modelling.preemptionSeconds = 900.0;
        ScriptedPolicy policy({0, kPaused, 0});
        const RunResult result = simulate(input, policy);
        QVERIFY(near(result.metrics.operationalG, 200.0));
        QCOMPARE(result.metrics.preemptions, 1);
        QVERIFY(near(result.metrics.preemptionSeconds, 900.0));
        QVERIFY(result.metrics.deadlineMet);
        QCOMPARE(result.metrics.forcedDecisions, 0);
        checkSeriesSums(result);
    }

    // Issue 14: by default a checkpoint restore draws the target's GPUs and nodes at idle, not its training
    // power. A (2 GPUs, 500 W) of 4 held GPUs on 2-GPU nodes; idle 50 W per GPU, 300 W per node.
    // Slot 0 (100 g/kWh): A 500 W + 2 parked GPUs 100 W + 1 parked node 300 W = 0.9 kWh -> 90 g.
    // Slot 1 (200): paused, 4 x 50 + 2 x 300 = 800 W -> 160 g.
    // Slot 2 (300): restore 900 s at A's idle 2 x 50 + 1 x 300 = 400 W plus the parked 400 W: 0.2 kWh -> 60
    // g;
    //   then A 2700 s at 900 W: 0.675 kWh -> 202.5 g. Total 512.5 g (at training power the restore would
    //   cost 67.5 g, 520 g in all).
    void overheadDrawsIdlePowerByDefault() {
        SimulationInput input =
            makeInput(makeTrace({100, 200, 300}), twoOptions(), 6300.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        input.modelling.overheadPowerFraction = ModellingOptions{}.overheadPowerFraction;
        QCOMPARE(input.modelling.overheadPowerFraction, 0.0);
        input.modelling.preemptionSeconds = 900.0;
        input.idlePowerPerGpuW = 50.0;
        input.gpusPerNode = 2;
        input.idlePowerPerNodeW = 300.0;
        ScriptedPolicy policy({0, kPaused, 0});
        const RunResult result = simulate(input, policy);
        QVERIFY2(near(result.metrics.operationalG, 512.5),
                 qPrintable(QString::number(result.metrics.operationalG)));
        checkSeriesSums(result);
    }

    void hardDeadlineForcesTheFastestFinish() {
        // A policy that always pauses, 3600 units, deadline 4 h. B needs 2400 s, so waiting at 0, 1
        // and 2 h still leaves time (3 h + 2400 s <= 4 h); at 3 h waiting would leave 4 h + 2400 s,
        // so the engine forces B at 3 h: 2400 s x 1200 W = 0.8 kWh x 400 g/kWh = 320 g.
        SimulationInput input = makeInput(makeTrace({100, 200, 300, 400}), twoOptions(), 3600.0, kJune1,
                                          kJune1 + 4 * kSecondsPerHour);
        ScriptedPolicy policy({kPaused});
        const RunResult result = simulate(input, policy);
        QCOMPARE(result.metrics.forcedDecisions, 1);
        QVERIFY(result.metrics.deadlineMet);
        QVERIFY(near(result.metrics.completionSeconds, 3 * 3600 + 2400.0));
        QVERIFY(near(result.metrics.operationalG, 320.0));
    }

    void softDeadlineRecordsThePenalty() {
        // Soft deadline at 2 h, 10 g per hour late; the script starts B at 3 h and finishes at
        // 3 h + 2400 s: 3600 + 2400 = 6000 s late -> 10 x 6000 / 3600 = 16.67 g.
        SimulationInput input = makeInput(makeTrace({100, 200, 300, 400}), twoOptions(), 3600.0, kJune1,
                                          kJune1 + 2 * kSecondsPerHour);
        input.modelling.deadlineMode = ModellingOptions::DeadlineMode::Soft;
        input.modelling.softDeadlinePenaltyGPerHour = 10.0;
        ScriptedPolicy policy({kPaused, kPaused, kPaused, 1});
        const RunResult result = simulate(input, policy);
        QVERIFY(!result.metrics.deadlineMet);
        QVERIFY(result.metrics.finished);
        QVERIFY(near(result.metrics.lateSeconds, 6000.0));
        QVERIFY(near(result.metrics.deadlinePenaltyG, 10.0 * 6000.0 / 3600.0));
        QCOMPARE(result.metrics.forcedDecisions, 0);
    }

    void marginalCompanion() {
        // 1.5 kWh at a flat marginal 500 g/kWh = 750 g next to the average 200 g.
        CarbonTrace trace = makeTrace({100, 200, 300});
        trace.marginalGPerKwh = {500, 500, 500};
        const SimulationInput input =
            makeInput(trace, {makeOption(4, 1.0, 1000.0)}, 5400.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        const RunResult result = simulate(input, PolicySpec{"static-max", {}});
        QVERIFY(near(result.metrics.marginalG, 750.0));
        QVERIFY(near(result.metrics.operationalG, 200.0));
    }

    void infeasibleJobIsAnError() {
        // 10800 units at B's 1.5 units/s need 2 h; the deadline is 1 h after the start.
        const SimulationInput input =
            makeInput(makeTrace({100, 200, 300}), twoOptions(), 10800.0, kJune1, kJune1 + 3600);
        QVERIFY_THROWS_EXCEPTION(InputError, simulate(input, PolicySpec{"static-max", {}}));
    }

    void badInputsAreErrors() {
        SimulationInput input = makeInput(makeTrace({100, 200}), twoOptions(), 100.0, kJune1, kJune1 + 7200);
        input.deadlineUtc = kJune1 + 3 * kSecondsPerHour; // beyond the trace
        QVERIFY_THROWS_EXCEPTION(InputError, simulate(input, PolicySpec{"static-max", {}}));
        input.deadlineUtc = kJune1 + 7200;
        input.menu[0].workPerSecond = 0.0;
        QVERIFY_THROWS_EXCEPTION(InputError, simulate(input, PolicySpec{"static-max", {}}));
        input.menu = twoOptions();
        QVERIFY_THROWS_EXCEPTION(InputError, simulate(input, PolicySpec{"no-such-policy", {}}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 simulate(input, PolicySpec{"suspend-resume", {{"percentle", "40"}}}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 simulate(input, PolicySpec{"suspend-resume", {{"percentile", "140"}}}));
    }

    void cancellation() {
        const SimulationInput input = makeInput(makeTrace({100, 200, 300}), {makeOption(4, 1.0, 1000.0)},
                                                5400.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        int calls = 0;
        SimulationHooks hooks;
        bool inRange = true;
        hooks.progress = [&calls, &inRange](double fraction) -> bool {
            inRange = inRange && fraction >= 0.0 && fraction <= 1.0;
            return ++calls < 2; // stop at the second decision
        };
        const RunResult result = simulate(input, PolicySpec{"static-max", {}}, hooks);
        QVERIFY(result.cancelled);
        QVERIFY(inRange);
        QVERIFY(!result.metrics.finished);
        QCOMPARE(calls, 2);
    }

    void cancellationWhilePlanning() {
        // A cancel raised before the run: the oracle's planner sees it and stops, no interval is charged.
        const SimulationInput input = makeInput(makeTrace({100, 200, 300}), {makeOption(4, 1.0, 1000.0)},
                                                5400.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        std::atomic<bool> cancel{true};
        SimulationHooks hooks;
        hooks.cancel = &cancel;
        const RunResult result = simulate(input, PolicySpec{"oracle", {}}, hooks);
        QVERIFY(result.cancelled);
        QVERIFY(result.series.empty());
        QCOMPARE(result.metrics.operationalG, 0.0);
    }

    void savings() {
        QVERIFY(near(savingsFraction(200.0, 150.0), 0.25)); // (200 - 150) / 200
        QVERIFY(near(savingsFraction(200.0, 250.0), -0.25));
        QVERIFY(std::isnan(savingsFraction(0.0, 150.0))); // nothing to measure against: not 0, not -inf
    }
};

QTEST_GUILESS_MAIN(TestAccounting)
#include "tst_accounting.moc"
