// SPDX-License-Identifier: MIT
// Cost (issue 18): what a run's GPUs, energy and emissions cost under each kind of capacity, checked by hand,
// and the spot strikes that reclaim capacity.
#include "EngineTestSupport.h"
#include "engine/Simulator.h"
#include "engine/SpotStrikes.h"
#include "traces/TraceLoader.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <fstream>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

using Capacity = ModellingOptions::GpuCapacity;

// Hand-checked values are sums of a few products: 1e-9 relative absorbs the rounding of the divisions by
// 3600 and 3.6e6 and nothing else.
bool near(double actual, double expected, double relative = 1e-9) {
    return std::abs(actual - expected) <= relative * std::max(1.0, std::abs(expected));
}

// A: 2 of 4 GPUs, 1 work unit/s at 500 W; B: 4 GPUs, 1.5 units/s at 1200 W.
ExecutionMenu twoOptions() {
    return {makeOption(2, 1.0, 500.0), makeOption(4, 1.5, 1200.0)};
}

// Four GPUs on two 2-GPU nodes: idle 50 W per GPU and 300 W per node, PUE 1.5, 0.001 g embodied per
// GPU-second, 600 s to restore from a checkpoint at the training power. Prices: $0.10/kWh, $50/t.
SimulationInput pricedInput(const std::vector<double>& trace, double work) {
    SimulationInput input = makeInput(makeTrace(trace), twoOptions(), work, kJune1,
                                      kJune1 + static_cast<std::int64_t>(trace.size()) * 3600);
    input.idlePowerPerGpuW = 50.0;
    input.gpusPerNode = 2;
    input.idlePowerPerNodeW = 300.0;
    input.pue = 1.5;
    input.embodiedGPerGpuSecond = 0.001;
    input.modelling.preemptionSeconds = 600.0;
    input.modelling.electricityUsdPerKwh = 0.10;
    input.modelling.carbonPriceUsdPerT = 50.0;
    return input;
}

void checkCostSums(const RunResult& run) {
    double gpu = 0.0;
    double energy = 0.0;
    double carbon = 0.0;
    for (const IntervalRecord& r : run.series) {
        gpu += r.gpuCostUsd;
        energy += r.energyCostUsd;
        carbon += r.carbonCostUsd;
        QVERIFY(near(r.costUsd(), r.gpuCostUsd + r.energyCostUsd + r.carbonCostUsd));
    }
    QVERIFY(near(gpu, run.metrics.gpuCostUsd));
    QVERIFY(near(energy, run.metrics.energyCostUsd));
    QVERIFY(near(carbon, run.metrics.carbonCostUsd));
    QVERIFY(near(run.metrics.costUsd, gpu + energy + carbon));
}

} // namespace

class TestCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The done-when of issue 18: one schedule with a wait and a pause, priced by hand under each capacity.
    void pausedRunUnderEachCapacity_data() {
        QTest::addColumn<int>("capacity");
        QTest::addColumn<double>("price");
        QTest::addColumn<double>("backfill");
        QTest::addColumn<double>("gpuHoursPaid");
        // The job holds its 4 GPUs from its start (1 h) to its completion (4 h 10 min): 3 h 10 min, the
        // paused hour included. A reservation is paid from the scenario's start, the waiting hour too.
        const double held = 4.0 * (15000.0 - 3600.0) / 3600.0;
        const double reserved = 4.0 * 15000.0 / 3600.0;
        QTest::newRow("on demand") << static_cast<int>(Capacity::OnDemand) << 2.0 << 0.0 << held;
        QTest::newRow("on demand, parked GPUs used by others (backfill 1): the paused hour is free")
            << static_cast<int>(Capacity::OnDemand) << 2.0 << 1.0 << held - 4.0;
        QTest::newRow("reserved") << static_cast<int>(Capacity::Reserved) << 1.2 << 0.0 << reserved;
        QTest::newRow("reserved is paid through the pause whoever uses the GPUs (backfill 1)")
            << static_cast<int>(Capacity::Reserved) << 1.2 << 1.0 << reserved;
        QTest::newRow("spot (no strike)") << static_cast<int>(Capacity::Spot) << 0.8 << 0.0 << held;
    }
    void pausedRunUnderEachCapacity() {
        QFETCH(int, capacity);
        QFETCH(double, price);
        QFETCH(double, backfill);
        QFETCH(double, gpuHoursPaid);
        // Trace 300, 100, 400, 200, 100, 100 g/kWh. The script waits in hour 0, trains B (all 4 GPUs) in hour
        // 1, pauses through hour 2 and trains B from hour 3 until done.
        SimulationInput input = pricedInput({300, 100, 400, 200, 100, 100}, 2 * 3600 * 1.5);
        input.modelling.gpuCapacity = static_cast<Capacity>(capacity);
        input.modelling.gpuPriceUsdPerHour = price;
        input.modelling.spotPreemptionsPerGpuHour = 0.0;
        input.modelling.backfill = backfill;
        ScriptedPolicy policy({kPaused, 1, kPaused, 1});
        const RunResult run = simulate(input, policy);
        QVERIFY(run.metrics.finished);
        // Hour 1: B at 1200 W x 1.5 = 1.8 kWh at 100 g/kWh = 180 g; embodied 4 x 0.001 x 3600 = 14.4 g.
        // Hour 2, paused: (4 x 50 W + 2 x 300 W) x 1.5 = 1.2 kWh at 400 = 480 g, embodied 14.4 g, both
        //   charged by the share 1 - backfill.
        // Hour 3: the restore, 600 s at 1.8 kW = 0.3 kWh at 200 = 60 g (embodied 2.4 g), then B for 3000 s,
        //   1.5 kWh at 200 = 300 g (embodied 12 g), 4500 of the 10800 units.
        // Hour 4: the last 900 units in 600 s, 0.3 kWh at 100 = 30 g (embodied 2.4 g). Done at 4 h 10 min.
        const double charged = 1.0 - backfill;
        const double energyKwh = 1.8 + charged * 1.2 + 0.3 + 1.5 + 0.3;
        const double totalG =
            180.0 + 14.4 + charged * (480.0 + 14.4) + 60.0 + 2.4 + 300.0 + 12.0 + 30.0 + 2.4;
        QVERIFY(near(run.metrics.completionSeconds, 15000.0));
        QVERIFY(near(run.metrics.energyJ, energyKwh * 3.6e6));
        QVERIFY(near(run.metrics.totalG, totalG));
        QVERIFY(near(run.metrics.gpuCostUsd, gpuHoursPaid * price));
        QVERIFY(near(run.metrics.energyCostUsd, energyKwh * 0.10));
        QVERIFY(near(run.metrics.carbonCostUsd, totalG / 1e6 * 50.0));
        QVERIFY(near(run.metrics.costUsd, gpuHoursPaid * price + energyKwh * 0.10 + totalG / 1e6 * 50.0));
        QCOMPARE(run.metrics.spotPreemptions, 0);
        // The waiting hour holds nothing, so only a reservation pays for it.
        QVERIFY(near(run.series.front().gpuCostUsd,
                     static_cast<Capacity>(capacity) == Capacity::Reserved ? 4.0 * price : 0.0));
        QVERIFY(run.warnings.empty());
        checkCostSums(run);
    }

    // A strike on spot capacity stops the job for a restore (600 s at the training power here) and then it
    // trains on: on a flat grid every second after the start costs the same, so the bill follows from the
    // completion time, and the completion from the number of strikes.
    void spotStrikesCostARestoreEach() {
        SimulationInput input =
            pricedInput(std::vector<double>(std::size_t{24} * 7, 200.0), 3.0 * 86400.0 * 1.5);
        input.modelling.gpuCapacity = Capacity::Spot;
        input.modelling.gpuPriceUsdPerHour = 0.8;
        input.modelling.spotPreemptionsPerGpuHour = 0.01; // one strike per 25 job-hours on 4 GPUs
        input.modelling.spotSeed = 3;
        ScriptedPolicy policy({1});
        const RunResult run = simulate(input, policy);
        QVERIFY(run.metrics.finished);
        const int strikes = run.metrics.spotPreemptions;
        QVERIFY2(strikes >= 1, "the seed was chosen to strike at least once in three days");
        int restores = 0;
        for (const IntervalRecord& r : run.series) {
            if (r.activity == IntervalActivity::Preempting) {
                ++restores;
                QCOMPARE(r.workDone, 0.0);
            }
        }
        QCOMPARE(restores, strikes); // each restore is one interval: the flat trace's slots are hours, and
                                     // no strike lands within 600 s of an hour's end with this seed
        QCOMPARE(run.metrics.preemptions, 0); // the policy's own pauses are counted apart
        QVERIFY(near(run.metrics.spotPreemptionSeconds, 600.0 * strikes));
        const double seconds = 3.0 * 86400.0 + 600.0 * strikes;
        QVERIFY(near(run.metrics.completionSeconds, seconds));
        QVERIFY(near(run.metrics.gpuCostUsd, 4.0 * 0.8 * seconds / 3600.0));
        QVERIFY(near(run.metrics.energyCostUsd, 1.8 * seconds / 3600.0 * 0.10));
        checkCostSums(run);
        // The same seed strikes at the same seconds; another seed elsewhere.
        ScriptedPolicy again({1});
        QCOMPARE(simulate(input, again).metrics.completionSeconds, run.metrics.completionSeconds);
        input.modelling.spotSeed = 4;
        ScriptedPolicy other({1});
        const RunResult otherRun = simulate(input, other);
        QVERIFY(otherRun.series.size() != run.series.size() ||
                otherRun.metrics.completionSeconds != run.metrics.completionSeconds);
    }

    // A restore may run past a decision point (here, an hour's end): the point is skipped and the job trains
    // on to the next one, so the series has no hole and every strike still costs exactly its restore. Seeds
    // 1 to 20 give dozens of strikes, some of them within 600 s of an hour's end (checked, so the case is
    // exercised).
    void aRestorePastADecisionPointLeavesNoHole() {
        SimulationInput input =
            pricedInput(std::vector<double>(std::size_t{24} * 7, 200.0), 3.0 * 86400.0 * 1.5);
        input.modelling.gpuCapacity = Capacity::Spot;
        input.modelling.gpuPriceUsdPerHour = 0.8;
        input.modelling.spotPreemptionsPerGpuHour = 0.01;
        int crossings = 0;
        for (int seed = 1; seed <= 20; ++seed) {
            input.modelling.spotSeed = seed;
            ScriptedPolicy policy({1});
            const RunResult run = simulate(input, policy);
            QVERIFY(run.metrics.finished);
            for (std::size_t i = 1; i < run.series.size(); ++i)
                QCOMPARE(run.series[i].start, run.series[i - 1].end);
            int restoreIntervals = 0;
            for (const IntervalRecord& r : run.series)
                restoreIntervals += r.activity == IntervalActivity::Preempting ? 1 : 0;
            crossings += restoreIntervals - run.metrics.spotPreemptions; // a restore split at an hour's end
            const double seconds = 3.0 * 86400.0 + 600.0 * run.metrics.spotPreemptions;
            QVERIFY(near(run.metrics.completionSeconds, seconds));
            QVERIFY(near(run.metrics.gpuCostUsd, 4.0 * 0.8 * seconds / 3600.0));
        }
        QVERIFY2(crossings > 0, "no restore crossed an hour's end: the case is not exercised");
    }

    // The strike process itself: Poisson at the rate of the held GPUs, thinned to the training ones. Over
    // 100,000 GPU-hours at 1e-3 per GPU-hour, 100 strikes are expected on all GPUs and 50 on half of them;
    // 4 standard deviations of a Poisson count (40 and 28) keep the test from failing by chance.
    void spotStrikeRate() {
        const UtcSeconds hours = 25000;
        const auto count = [&](int active) {
            SpotStrikes strikes(1e-3, 4, 11, kJune1);
            int n = 0;
            UtcSeconds from = kJune1;
            while (const std::optional<UtcSeconds> at =
                       strikes.firstIn(from, kJune1 + hours * 3600, active)) {
                ++n;
                from = *at + 1;
            }
            return n;
        };
        QVERIFY2(std::abs(count(4) - 100) <= 40, std::to_string(count(4)).c_str());
        QVERIFY2(std::abs(count(2) - 50) <= 28, std::to_string(count(2)).c_str());
        QCOMPARE(count(0), 0);
        // No rate, no strike.
        SpotStrikes none(0.0, 4, 11, kJune1);
        QVERIFY(!none.firstIn(kJune1, kJune1 + hours * 3600, 4));
    }

    // The bundled German day-ahead price, loaded with the carbon traces' rules, prices each interval's energy
    // at its own hour; a malformed file is refused with its file and line.
    void priceTraceSetsEachHoursEnergyPrice() {
        const PriceTrace prices =
            loadPriceTrace(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/prices/DE_2022.csv");
        QCOMPARE(prices.size(), std::size_t(8760));
        QCOMPARE(prices.stepSeconds, std::int64_t(3600));
        QCOMPARE(prices.usdPerMwh.front(), 43.5205); // SMARD's 41.33 EUR/MWh x 1.0530, as the file says
        const CarbonTrace carbon = loadCarbonTrace(bundledTrace("DE_2022.csv"));
        QCOMPARE(carbon.startUtc, prices.startUtc);
        SimulationInput input = pricedInput({0.0}, 1.0);
        input.regions = {carbon};
        const UtcSeconds start = kJune1;
        input.startUtc = start;
        input.deadlineUtc = start + 6 * kSecondsPerHour;
        input.totalWork = 3.0 * 3600.0 * 1.5;
        input.electricityUsdPerKwh = {
            pricesOnGrid(prices, carbon.startUtc, carbon.stepSeconds, carbon.size(), 0.1)};
        ScriptedPolicy policy({1});
        const RunResult run = simulate(input, policy);
        // Three hours of B at 1.8 kWh each, at the hour's price / 1000 per kWh.
        const auto hour = static_cast<std::size_t>((start - prices.startUtc) / 3600);
        double expected = 0.0;
        for (std::size_t h = hour; h < hour + 3; ++h)
            expected += 1.8 * prices.usdPerMwh[h] / 1000.0;
        QVERIFY(near(run.metrics.energyCostUsd, expected));
        QCOMPARE(run.series.front().electricityUsdPerKwh, prices.usdPerMwh[hour] / 1000.0);
        checkCostSums(run);

        QTemporaryDir dir;
        const std::string bad = dir.filePath(QStringLiteral("bad.csv")).toStdString();
        std::ofstream(bad)
            << "timestamp,price_usd_per_mwh\n2022-01-01T00:00:00Z,40\n2022-01-01T01:00:00Z,4e7\n";
        try {
            loadPriceTrace(bad);
            QFAIL("an absurd price was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.file(), bad);
            QCOMPARE(error.line(), 3);
        }
        const std::string euros = dir.filePath(QStringLiteral("euros.csv")).toStdString();
        std::ofstream(euros) << "timestamp,price_eur_per_mwh\n2022-01-01T00:00:00Z,40\n";
        QVERIFY_THROWS_EXCEPTION(InputError, loadPriceTrace(euros));
    }

    // A cluster without a GPU-hour price is not priced silently: the run says so.
    void unpricedGpusAreNamed() {
        SimulationInput input = pricedInput({100, 100}, 3600 * 1.5);
        input.modelling.gpuPriceUsdPerHour = std::numeric_limits<double>::quiet_NaN();
        ScriptedPolicy policy({1});
        const RunResult run = simulate(input, policy);
        QCOMPARE(run.metrics.gpuCostUsd, 0.0);
        QCOMPARE(run.warnings.size(), std::size_t(1));
        QVERIFY(run.warnings.front().find("gpu_price_usd_per_hour") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
