// SPDX-License-Identifier: MIT
#include "EngineTestSupport.h"
#include "config/OperatingPointsCsv.h"
#include "domain/InputError.h"
#include "engine/CostModel.h"
#include "engine/Simulator.h"
#include "engine/policies/CarbonScalerPolicy.h"
#include "engine/policies/PlanningTools.h"
#include "perf/ExecutionMenuBuilder.h"

#include <QTest>
#include <cmath>
#include <random>
#include <set>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// Sizes 1, 2, 3 GPUs: 1, 1.8, 2.4 units/s at 100, 200, 300 W (PUE 1, no idle, no embodied, no
// overheads): marginal throughput per marginal watt 1/100, 0.8/100, 0.6/100 (diminishing returns).
ExecutionMenu syntheticMenu() {
    return {makeOption(1, 1.0, 100.0), makeOption(2, 1.8, 200.0), makeOption(3, 2.4, 300.0)};
}

// Per slot: the option index the run trains with (-1 when it does not train in that slot).
QList<int> optionPerHour(const RunResult& run, const SimulationInput& input, int hours) {
    QList<int> out(hours, -1);
    for (const IntervalRecord& record : run.series) {
        if (record.activity != IntervalActivity::Training)
            continue;
        const auto hour = static_cast<qsizetype>((record.start - input.startUtc) / 3600);
        for (int k = 0; k < static_cast<int>(input.menu.size()); ++k)
            if (input.menu[static_cast<std::size_t>(k)].gpusActive == record.gpusActive)
                out[hour] = k;
    }
    return out;
}

} // namespace

class TestCarbonScaler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ladderKeepsOnlyGrowingThroughput() {
        ExecutionMenu menu = syntheticMenu();
        // A 4-GPU option no faster than 3 GPUs is never worth its power: dropped from the ladder.
        menu.push_back(makeOption(4, 2.4, 400.0));
        const std::vector<int> ladder = scaleLadder(menu);
        QCOMPARE(ladder, (std::vector<int>{0, 1, 2}));
    }

    // Slots equal but for round-off (a regression's forecast of a flat price) tie, and a tie goes to the
    // earlier slot: work for every slot's first step and one second step puts the second step first,
    // not in the slot that round-off made 2 ulps cheaper.
    void roundOffIsATie() {
        const double below = 100.0 * (1.0 - 4e-16);
        const SimulationInput input = makeInput(makeTrace({100, below, 100, 100}), syntheticMenu(),
                                                4 * 3600.0 + 2880.0, kJune1, kJune1 + 4 * kSecondsPerHour);
        CarbonScalerPolicy policy;
        QCOMPARE(optionPerHour(simulate(input, policy), input, 4), (QList<int>{1, 0, 0, 0}));
    }

    void syntheticGreedy() {
        // CI 100, 200, 50, 400 g/kWh. Item values (marginal units/s per marginal W x CI), x 1e-4:
        //   slot 2 (50): 2.0, 1.6, 1.2   slot 0 (100): 1.0, 0.8, 0.6   slot 1 (200): 0.5, ...
        // Work per item over an hour: 3600, 2880, 2160 units. Work 15120 = slot 2 to the top
        // (3600 + 2880 + 2160 = 8640) + slot 0 steps 0 and 1 (3600 + 2880): the plan runs size 2 in
        // slot 0, pauses in slot 1, runs size 3 in slot 2 and finishes at its end (6480 + 8640).
        const SimulationInput input = makeInput(makeTrace({100, 200, 50, 400}), syntheticMenu(), 15120.0,
                                                kJune1, kJune1 + 4 * kSecondsPerHour);
        CarbonScalerPolicy policy;
        const RunResult run = simulate(input, policy);
        QCOMPARE(optionPerHour(run, input, 4), (QList<int>{1, -1, 2, -1}));
        QVERIFY(run.metrics.deadlineMet);
        // 0.2 kWh x 100 + 0.3 kWh x 50 = 20 + 15 = 35 g; 1e-9 relative: sums of exact products only.
        QVERIFY(qAbs(run.metrics.totalG - 35.0) <= 35.0 * 1e-9);
        QVERIFY(run.warnings.empty());
    }

    // The plan's surplus comes off the slot of most carbon per unit of work, as the paper's code does it.
    // Same slots as syntheticGreedy with 1000 units less work: the plan is the same (size 2 in slot 0, size
    // 3 in slot 2; 15,120 units) and 1000 units too many. Carbon per unit: slot 0 at size 2, 200 W x 100
    // g/kWh / 1.8 units/s = 3.09e-3 g; slot 2 at size 3, 300 W x 50 / 2.4 = 1.74e-3 g. So slot 0 runs
    // 3600 - 1000 / 1.8 = 3044.4 s (3045, up to the engine's second), then pauses; slot 2 runs the
    // 14120 - 1.8 x 3045 = 8639 units left in 3599.58 s. 0.2 kW x 3045 s x 100 g/kWh = 16.917 g, + 0.3 kW x
    // 3599.58 s x 50 = 14.998 g: 31.915 g. Finishing early instead runs slot 0 whole (20 g) and slot 2 for
    // 7640 / 2.4 = 3183.3 s (13.264 g): 33.264 g.
    void theSurplusComesOffTheDirtiestSlot() {
        const SimulationInput input = makeInput(makeTrace({100, 200, 50, 400}), syntheticMenu(), 14120.0,
                                                kJune1, kJune1 + 4 * kSecondsPerHour);
        CarbonScalerPolicy trimming;
        const RunResult trimmed = simulate(input, trimming);
        QCOMPARE(optionPerHour(trimmed, input, 4), (QList<int>{1, -1, 2, -1}));
        QCOMPARE(trimmed.series.front().end - trimmed.series.front().start, std::int64_t{3045});
        // 1e-9 relative: sums of exact products; the 3045 s are the engine's rounding, computed above.
        const double slot2S = (14120.0 - 1.8 * 3045.0) / 2.4;
        QVERIFY(qAbs(trimmed.metrics.totalG -
                     (0.2 * 3045.0 / 3600.0 * 100.0 + 0.3 * slot2S / 3600.0 * 50.0)) <= 32.0 * 1e-9);
        CarbonScalerPolicy finishingEarly(CarbonScalerPolicy::Overshoot::FinishEarly);
        const RunResult early = simulate(input, finishingEarly);
        QVERIFY(qAbs(early.metrics.totalG - (20.0 + 0.3 * (7640.0 / 2.4) / 3600.0 * 50.0)) <= 34.0 * 1e-9);
        QCOMPARE(trimming.options().at("overshoot"), std::string("trim-dirtiest"));
    }

    // A surplus larger than the dirtiest piece's whole work (a short piece: the agent would give it a
    // negative share) takes all of that piece and the rest from the next dirtiest. Pieces: 3600 s at 100
    // g/kWh and 600 s at 400 g/kWh, each at size 1 (1 unit/s, 100 W): 4200 units planned for 3400, so the
    // 600 s piece (1.11e-2 g a unit against 2.78e-3) gives all its 600 units and the first 200 more.
    void aSurplusBeyondOnePieceTakesTheNext() {
        const SimulationInput input =
            makeInput(makeTrace({100, 400}), syntheticMenu(), 3400.0, kJune1, kJune1 + 2 * kSecondsPerHour);
        const CostModel costs(input);
        const std::vector<ForecastPiece> pieces{{static_cast<double>(kJune1), 3600.0, 100.0, false},
                                                {static_cast<double>(kJune1) + 3600.0, 600.0, 400.0, false}};
        ScalePlan plan;
        plan.feasible = true;
        plan.steps = {0, 0};
        plan.plannedWork = 4200.0;
        const std::vector<OvershootTrim> trims =
            overshootTrims(costs, scaleLadder(input.menu), pieces, plan, 3400.0);
        QCOMPARE(trims.size(), std::size_t{2});
        QCOMPARE(trims[0].piece, std::size_t{1});
        QCOMPARE(trims[0].runSeconds, 0.0);
        QCOMPARE(trims[1].piece, std::size_t{0});
        QCOMPARE(trims[1].runSeconds, 3400.0);
    }

    void measuredScaleProfile() {
        // tests/data/policies/scale_profile.csv: dp 1, 2, 4 at 100, 180, 300 units/s and 300, 600,
        // 1200 W (nodes without overhead here). Marginal values per CI: 100/300 = 0.333, 80/300 = 0.267,
        // 120/600 = 0.2. CI 300, 100, 200 -> order: slot 1 steps 0, 1, 2 (3.33e-3, 2.67e-3, 2e-3 per
        // g/kWh), then slot 2 steps 0, 1 (1.67e-3, 1.33e-3), then slot 0 step 0 (1.11e-3).
        // Work 1,728,000 = slot 1 at dp 4 (300 x 3600 = 1,080,000) + slot 2 at dp 2 (180 x 3600 =
        // 648,000). Emissions: 1.2 kWh x 100 + 0.6 kWh x 200 = 120 + 120 = 240 g.
        const OperatingPointTable table =
            loadOperatingPoints(std::string(CARBON3D_SOURCE_DIR) + "/tests/data/policies/scale_profile.csv");
        ClusterProfile cluster;
        cluster.gpusPerNode = 8;
        cluster.nodeOverheadW = 0.0;
        cluster.gpusAvailable = 4;
        const ExecutionMenu menu = buildExecutionMenu(table, cluster);
        const SimulationInput input =
            makeInput(makeTrace({300, 100, 200}), menu, 1728000.0, kJune1, kJune1 + 3 * kSecondsPerHour);
        CarbonScalerPolicy policy;
        const RunResult run = simulate(input, policy);
        QList<int> gpus(3, 0);
        for (const IntervalRecord& record : run.series)
            if (record.activity == IntervalActivity::Training)
                gpus[static_cast<qsizetype>((record.start - kJune1) / 3600)] = record.gpusActive;
        QCOMPARE(gpus, (QList<int>{0, 4, 2}));
        QVERIFY(run.metrics.deadlineMet);
        QVERIFY(qAbs(run.metrics.totalG - 240.0) <= 240.0 * 1e-9); // exact products, rounding only
    }

    // Issue 40 item 6: the plan over pieces grouped beyond the horizon (a slot of day's days as one piece)
    // gives the current slot the same steps as the plan over every slot of the window, over randomised ridge
    // forecasts of every bundled trace, random work and both ends of the parked GPUs' attribution.
    void carbonScalerDecidesTheSameOnGroupedPieces() {
        ExecutionMenu menu;
        for (int gpus : {128, 256, 512, 1024})
            menu.push_back(makeOption(gpus, 1000.0 * std::pow(gpus, 0.85), gpus * 525.0));
        std::mt19937_64 random(407);
        int paused = 0;
        int cases = 0;
        forEachRidgeForecast(407, 12, [&](const Forecast& forecast, UtcSeconds now, double end) {
            const auto start = static_cast<double>(now);
            const double capacity = menu.back().workPerSecond * (end - start);
            for (int k = 0; k < 4; ++k, ++cases) {
                SimulationInput input = makeInput(makeTrace({100.0}, now), menu, 1.0, now, now + 3600);
                input.idlePowerPerGpuW = 50.0;
                input.embodiedGPerGpuSecond = 150e3 / (5 * 365.25 * 86400);
                input.modelling.backfill = k % 2 == 0 ? 0.0 : 1.0;
                const CostModel costs(input);
                const double work = std::uniform_real_distribution<double>(0.05, 0.95)(random) * capacity;
                const std::vector<int> ladder = scaleLadder(menu);
                const ScalePlan slots =
                    planCarbonScaler(costs, ladder, forecast.pieces(start, end, false), work);
                const ScalePlan grouped =
                    planCarbonScaler(costs, ladder, windowPieces(forecast, start, end), work);
                QCOMPARE(grouped.feasible, slots.feasible);
                QCOMPARE(grouped.steps.front(), slots.steps.front());
                paused += slots.steps.front() < 0 ? 1 : 0;
            }
        });
        QVERIFY(paused > 0 && paused < cases); // pauses and runs both occur
    }

    void onTheTruthDecidesAsThePlan() {
        // Under a forecast that is the truth to the deadline the policy reads the trace's slots
        // (CheaperSlots) instead of planning the window at every decision; a forecast equal to the truth that
        // it does not recognise (noisy, no error, a year's horizon) takes the plan. Whole runs must be
        // identical.
        std::mt19937_64 random(5150);
        int resized = 0;
        int read = 0;
        for (const std::string& file : bundledTraceFiles()) {
            const CarbonTrace trace = loadCarbonTrace(bundledTrace(file));
            for (int k = 0; k < 4; ++k) {
                ExecutionMenu menu;
                const double exponent = std::uniform_real_distribution<double>(0.7, 0.95)(random);
                for (int gpus : {128, 256, 512, 1024})
                    menu.push_back(makeOption(gpus, 1000.0 * std::pow(gpus, exponent), gpus * 525.0));
                SimulationInput input = randomWindowInput(trace, menu, random);
                input.idlePowerPerGpuW = 50.0;
                input.embodiedGPerGpuSecond = 150e3 / (5 * 365.25 * 86400);
                input.modelling.backfill = k % 2 == 0 ? 0.0 : 1.0;
                input.modelling.reconfigurationSeconds = k < 2 ? 0.0 : 600.0;
                input.modelling.preemptionSeconds = k < 2 ? 0.0 : 300.0;
                input.modelling.resizeSeconds = k < 2 ? 0.0 : 120.0;
                input.forecast.kind = "oracle";
                CarbonScalerPolicy onTheTruth;
                const RunResult truth = simulate(input, onTheTruth);
                read += onTheTruth.readsTheTruth() ? 1 : 0;
                forecastTheTruthUnannounced(input);
                CarbonScalerPolicy planned;
                const RunResult plan = simulate(input, planned);
                QVERIFY(!planned.readsTheTruth());
                QVERIFY2(truth.metrics.totalG == plan.metrics.totalG,
                         qPrintable(QStringLiteral("%1 #%2: %3 g against %4 g")
                                        .arg(QString::fromStdString(file))
                                        .arg(k)
                                        .arg(truth.metrics.totalG)
                                        .arg(plan.metrics.totalG)));
                QCOMPARE(truth.series.size(), plan.series.size());
                std::set<int> sizes;
                for (const IntervalRecord& interval : truth.series)
                    if (interval.gpusActive > 0)
                        sizes.insert(interval.gpusActive);
                resized += sizes.size() > 1 ? 1 : 0;
            }
        }
        QVERIFY(resized > 0); // the plans changed size somewhere, not only ran at one
        QVERIFY(read > 20);   // and the truth's slots answered in most of the 28 cases
    }

    void tooTightDeadlineFailsClearly() {
        // 3 h at the largest size cover 2.4 x 10800 = 25920 units; one more cannot be done.
        const SimulationInput input = makeInput(makeTrace({100, 200, 50, 400}), syntheticMenu(), 25921.0,
                                                kJune1, kJune1 + 3 * kSecondsPerHour);
        const CostModel costs(input);
        Forecast forecast;
        forecast.firstSlotUtc = kJune1;
        forecast.horizon = {100, 200, 50};
        const ScalePlan plan =
            planCarbonScaler(costs, scaleLadder(input.menu),
                             forecast.pieces(kJune1, kJune1 + 3 * kSecondsPerHour, false), 25921.0);
        QVERIFY(!plan.feasible);
        CarbonScalerPolicy policy;
        QVERIFY_THROWS_EXCEPTION(InputError, simulate(input, policy));
    }
};

QTEST_GUILESS_MAIN(TestCarbonScaler)
#include "tst_carbonscaler.moc"
