// SPDX-License-Identifier: MIT
#include "SqliteProbe.h"
#include "StorageSamples.h"
#include "domain/InputError.h"
#include "domain/ModellingFields.h"
#include "storage/ResultsStore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

std::int64_t nowSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Runs `call` and returns the InputError's message, or "" when nothing was thrown.
template <typename Call> std::string inputErrorOf(Call&& call) {
    try {
        call();
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestResultsStore : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_counter = 0;
    std::string freshPath() {
        return m_dir.filePath(QStringLiteral("db%1.sqlite").arg(++m_counter)).toStdString();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void roundTripKeepsEveryField_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("seed");
        QTest::newRow("no series, no warnings") << 0 << 3; // seed % 3 == 0: met deadline, 0 warnings
        QTest::newRow("one interval, one warning") << 1 << 4;
        QTest::newRow("one year hourly, two warnings, unfinished") << 8760 << 5;
    }
    void roundTripKeepsEveryField() {
        QFETCH(int, rows);
        QFETCH(int, seed);
        const std::string path = freshPath();
        ResultsStore store(path);
        const StoredScenario scenario = sampleScenario("June CAISO");
        const std::vector<StoredTrace> traces = sampleTraces();
        const RunResult run = sampleRun(static_cast<std::size_t>(rows), static_cast<std::uint64_t>(seed));
        const std::int64_t before = nowSeconds();
        const RunId id = store.saveRun(scenario, run, traces);
        const std::int64_t after = nowSeconds();

        const StoredRun loaded = store.loadRun(id);
        QCOMPARE(QString::fromStdString(firstDifference(run, loaded.result)), QString());
        QCOMPARE(loaded.scenario.name, scenario.name);
        QCOMPARE(loaded.scenario.canonicalJson, scenario.canonicalJson);
        QCOMPARE(loaded.scenario.contentHash, scenario.contentHash);
        QVERIFY(loaded.traces == traces);
        QCOMPARE(loaded.programVersion, std::string(CARBON3D_VERSION));
        QCOMPARE(loaded.summary.id, id);
        QCOMPARE(loaded.summary.name, std::string("June CAISO / dynamic-3d")); // the default label
        QCOMPARE(loaded.summary.regionId, std::string("US-CAL-CISO"));
        QCOMPARE(loaded.summary.status, std::string(runStatusName(runStatusOf(run.metrics))));
        QVERIFY(loaded.summary.createdUtc >= before && loaded.summary.createdUtc <= after);

        // loadSeries alone returns the same intervals.
        RunResult seriesOnly = run;
        seriesOnly.series = store.loadSeries(id);
        QCOMPARE(QString::fromStdString(firstDifference(run, seriesOnly)), QString());
    }

    void nanAndInfinityComeBack() {
        // SQLite stores NaN as NULL; the store reads NULL REALs back as NaN, infinities are kept as they are.
        ResultsStore store(freshPath());
        RunResult run = sampleRun(2, 1);
        run.metrics.workPerGram = std::numeric_limits<double>::quiet_NaN();
        run.metrics.marginalG = std::numeric_limits<double>::infinity();
        run.series[1].forecastCiGPerKwh = -std::numeric_limits<double>::infinity();
        run.series[0].marginalCiGPerKwh = std::numeric_limits<double>::quiet_NaN();
        run.forecastMape = std::numeric_limits<double>::quiet_NaN();
        const RunId id = store.saveRun(sampleScenario("nan"), run, sampleTraces());
        QCOMPARE(QString::fromStdString(firstDifference(run, store.loadRun(id).result)), QString());
    }

    void newDatabaseIsMarkedAndInWalMode() {
        const std::string path = freshPath();
        { ResultsStore store(path); }
        QCOMPARE(queryInt(path, "PRAGMA application_id"), std::int64_t(ResultsStore::kApplicationId));
        QCOMPARE(queryInt(path, "PRAGMA user_version"), std::int64_t(ResultsStore::kSchemaVersion));
        QCOMPARE(queryRows(path, "PRAGMA journal_mode").at(0).at(0), std::string("wal"));
    }

    void createsMissingDirectoryButMustExistRefuses() {
        const std::string nested = m_dir.filePath(QStringLiteral("a/b/results.sqlite")).toStdString();
        const std::string message = inputErrorOf([&] {
            ResultsStore store(nested, {ResultsStore::OpenMode::MustExist, ResultsStore::OpenCheck::Quick});
        });
        QVERIFY2(contains(message, nested) && contains(message, "no results database"), message.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(nested)));
        { ResultsStore store(nested); }
        QVERIFY(QFile::exists(QString::fromStdString(nested)));
    }

    void scenarioAndTraceRowsAreShared() {
        const std::string path = freshPath();
        ResultsStore store(path);
        store.saveRun(sampleScenario("A"), sampleRun(3, 1, "static-max"), sampleTraces());
        store.saveRun(sampleScenario("A"), sampleRun(3, 2, "dynamic-3d"), sampleTraces());
        store.saveRun(sampleScenario("B"), sampleRun(3, 3, "static-max"), {sampleTraces().front()});
        QCOMPARE(queryInt(path, "SELECT count(*) FROM scenarios"), std::int64_t(2));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM traces"), std::int64_t(2));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM run_traces"), std::int64_t(5)); // 2 + 2 + 1
    }

    // Issue 15, item 2: the studio saves with reuseIdentical, so an identical re-run is recognised (the
    // same id, nothing new) while a run that differs in anything the run records is saved anew.
    void identicalReRunIsRecognised() {
        const std::string path = freshPath();
        ResultsStore store(path);
        SaveOptions reuse;
        reuse.reuseIdentical = true;
        const RunResult run = sampleRun(3, 1, "static-max");
        const RunId first = store.saveRun(sampleScenario("A"), run, sampleTraces(), reuse);
        QCOMPARE(store.saveRun(sampleScenario("A"), run, sampleTraces(), reuse), first);
        QCOMPARE(queryInt(path, "SELECT count(*) FROM runs"), std::int64_t(1));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM series"), std::int64_t(3));
        // Another scenario, other traces, another option, another window: each a run of its own.
        QVERIFY(store.saveRun(sampleScenario("B"), run, sampleTraces(), reuse) != first);
        QVERIFY(store.saveRun(sampleScenario("A"), run, {sampleTraces().front()}, reuse) != first);
        RunResult optioned = run;
        optioned.options["hysteresis_hours"] = "6";
        QVERIFY(store.saveRun(sampleScenario("A"), optioned, sampleTraces(), reuse) != first);
        RunResult later = run;
        later.startUtc += 3600;
        QVERIFY(store.saveRun(sampleScenario("A"), later, sampleTraces(), reuse) != first);
        QCOMPARE(queryInt(path, "SELECT count(*) FROM runs"), std::int64_t(5));
        // Without the option (the CLI's default) every save is a run.
        QVERIFY(store.saveRun(sampleScenario("A"), run, sampleTraces()) != first);
        QCOMPARE(queryInt(path, "SELECT count(*) FROM runs"), std::int64_t(6));
    }

    void listRunsFiltersAndOrdersNewestFirst() {
        ResultsStore store(freshPath());
        const RunId a = store.saveRun(sampleScenario("June"), sampleRun(2, 1, "static-max"), sampleTraces());
        const RunId b = store.saveRun(sampleScenario("June"), sampleRun(2, 2, "dynamic-3d"), sampleTraces());
        std::vector<StoredTrace> germanyFirst = sampleTraces();
        std::swap(germanyFirst[0], germanyFirst[1]);
        const RunId c =
            store.saveRun(sampleScenario("December"), sampleRun(2, 3, "static-max"), germanyFirst);

        const auto ids = [](const std::vector<RunSummary>& runs) {
            std::vector<RunId> out;
            out.reserve(runs.size());
            for (const RunSummary& r : runs)
                out.push_back(r.id);
            return out;
        };
        QCOMPARE(ids(store.listRuns()), (std::vector<RunId>{c, b, a}));
        RunFilter byPolicy;
        byPolicy.policy = "static-max";
        QCOMPARE(ids(store.listRuns(byPolicy)), (std::vector<RunId>{c, a}));
        RunFilter byScenario;
        byScenario.scenarioName = "June";
        QCOMPARE(ids(store.listRuns(byScenario)), (std::vector<RunId>{b, a}));
        RunFilter byHash;
        byHash.scenarioHash = sampleScenario("December").contentHash;
        QCOMPARE(ids(store.listRuns(byHash)), (std::vector<RunId>{c}));
        RunFilter byRegion;
        byRegion.regionId = "DE";
        QCOMPARE(ids(store.listRuns(byRegion)), (std::vector<RunId>{c}));
        RunFilter limited;
        limited.limit = 2;
        QCOMPARE(ids(store.listRuns(limited)), (std::vector<RunId>{c, b}));

        const RunSummary first = store.listRuns(byScenario).back();
        QCOMPARE(first.scenarioName, std::string("June"));
        QCOMPARE(first.policy, std::string("static-max"));
        const RunResult original = sampleRun(2, 1, "static-max");
        QVERIFY(sameDouble(first.metrics.totalG, original.metrics.totalG)); // exact: IEEE binary64 both ways
        QCOMPARE(first.startUtc, original.startUtc);
        QCOMPARE(first.deadlineUtc, original.deadlineUtc);
    }

    void renameRun() {
        ResultsStore store(freshPath());
        const RunId id =
            store.saveRun(sampleScenario("A"), sampleRun(1, 1), sampleTraces(), {"first name", false, {}});
        QCOMPARE(store.loadRun(id).summary.name, std::string("first name"));
        store.renameRun(id, "June, cleaner");
        QCOMPARE(store.listRuns().front().name, std::string("June, cleaner"));
        QVERIFY(contains(inputErrorOf([&] { store.renameRun(id + 100, "x"); }), "no run with id"));
        QVERIFY(contains(inputErrorOf([&] { store.renameRun(id, ""); }), "non-empty name"));
    }

    void deleteRunRemovesEverythingItOwned() {
        const std::string path = freshPath();
        ResultsStore store(path);
        const RunId keep = store.saveRun(sampleScenario("A"), sampleRun(10, 1), sampleTraces());
        const RunId sameScenario = store.saveRun(sampleScenario("A"), sampleRun(20, 2), sampleTraces());
        std::vector<StoredTrace> ownTrace = {sampleTraces().front()};
        ownTrace[0].contentSha256 = "only-used-by-the-deleted-run";
        RunResult single = sampleRun(30, 2); // seed 2: two warnings
        for (IntervalRecord& r : single.series)
            r.regionIndex = 0;
        const RunId own = store.saveRun(sampleScenario("B"), single, ownTrace);

        store.deleteRun(own);
        QCOMPARE(queryInt(path, "SELECT count(*) FROM runs"), std::int64_t(2));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM series"), std::int64_t(30)); // 10 + 20 left
        QCOMPARE(queryInt(path, "SELECT count(*) FROM metrics"), std::int64_t(2));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM warnings WHERE run_id = " + std::to_string(own)),
                 std::int64_t(0));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM run_traces WHERE run_id = " + std::to_string(own)),
                 std::int64_t(0));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM scenarios"),
                 std::int64_t(1));                                                // B went with its last run
        QCOMPARE(queryInt(path, "SELECT count(*) FROM traces"), std::int64_t(2)); // its own trace went too

        store.deleteRun(sameScenario);
        QCOMPARE(queryInt(path, "SELECT count(*) FROM scenarios"), std::int64_t(1)); // A still has a run
        QCOMPARE(store.loadRun(keep).result.series.size(), std::size_t(10));
        QVERIFY(contains(inputErrorOf([&] { store.deleteRun(own); }), "no run with id"));
        QVERIFY(contains(inputErrorOf([&] { store.loadRun(own); }), "no run with id"));
        QVERIFY(contains(inputErrorOf([&] { store.loadSeries(own); }), "no run with id"));
    }

    void compareRunsAgainstBaseline() {
        ResultsStore store(freshPath());
        const auto runWith = [](double operationalG, double embodiedG, double energyJ, double completionS,
                                double costUsd) {
            RunResult run = sampleRun(1, 1);
            run.metrics.costUsd = costUsd;
            run.metrics.operationalG = operationalG;
            run.metrics.embodiedG = embodiedG;
            run.metrics.totalG = operationalG + embodiedG;
            run.metrics.energyJ = energyJ;
            run.metrics.completionSeconds = completionS;
            return run;
        };
        const RunId base =
            store.saveRun(sampleScenario("A"), runWith(900.0, 100.0, 7.2e6, 36000.0, 4000.0), sampleTraces());
        const RunId better =
            store.saveRun(sampleScenario("A"), runWith(700.0, 100.0, 9.0e6, 43200.0, 4800.0), sampleTraces());
        const RunId other =
            store.saveRun(sampleScenario("B"), runWith(1200.0, 50.0, 3.6e6, 18000.0, 2000.0), sampleTraces());

        const std::vector<RunComparison> c = store.compareRuns({better, other}, base);
        QCOMPARE(c.size(), std::size_t(2));
        // better: saved = 1000 - 800 = 200 g, 200 / 1000 = 0.2; operational 900 - 700 = 200 g;
        // extra energy 9.0e6 - 7.2e6 = 1.8e6 J; extra time 43200 - 36000 = 7200 s; extra cost 4800 - 4000 =
        // 800 USD.
        // Tolerance 1e-12 relative: each is one IEEE subtraction or division of exact inputs (error <= 1
        // ulp).
        QCOMPARE(c[0].runId, better);
        QCOMPARE(c[0].baselineId, base);
        QVERIFY(c[0].sameScenario);
        QVERIFY(std::abs(c[0].savedG - 200.0) <= 1e-12 * 200.0);
        QVERIFY(std::abs(c[0].savedFraction - 0.2) <= 1e-12 * 0.2);
        QVERIFY(std::abs(c[0].savedOperationalG - 200.0) <= 1e-12 * 200.0);
        QVERIFY(std::abs(c[0].extraEnergyJ - 1.8e6) <= 1e-12 * 1.8e6);
        QVERIFY(std::abs(c[0].extraCompletionSeconds - 7200.0) <= 1e-12 * 7200.0);
        QVERIFY(std::abs(c[0].extraCostUsd - 800.0) <= 1e-12 * 800.0);
        // other (a different scenario): saved = 1000 - 1250 = -250 g, -0.25.
        QVERIFY(!c[1].sameScenario);
        QVERIFY(std::abs(c[1].savedG + 250.0) <= 1e-12 * 250.0);
        QVERIFY(std::abs(c[1].savedFraction + 0.25) <= 1e-12 * 0.25);

        // Without a baseline the first id is the baseline, and its own row saves nothing.
        const std::vector<RunComparison> d = store.compareRuns({base, better});
        QCOMPARE(d[0].baselineId, base);
        QCOMPARE(d[0].savedG, 0.0); // x - x is exactly 0
        QVERIFY(contains(inputErrorOf([&] { store.compareRuns({base, 999}); }), "no run with id 999"));
    }

    // Issue 39: a run's saving split is kept at both ends and read back exactly, and Compare knows which
    // attribution the run charged (1 - its backfill) to show the split at; a damaged modelling record
    // charges parked GPUs whole rather than failing the comparison.
    void savingSplitAndAttributionReadBack() {
        const std::string path = freshPath();
        ResultsStore store(path);
        RunResult run = sampleRun(1, 1, "dynamic-3d");
        run.metrics.savingConfigurationDedicatedG = 125.0; // exact binary fractions: compared exactly
        run.metrics.savingTimingDedicatedG = 0.5;
        run.metrics.savingBeyondDedicatedG = -2.25;
        run.metrics.savingConfigurationSharedG = 0.0;
        run.metrics.savingTimingSharedG = 64.0;
        run.metrics.savingBeyondSharedG = 1.0;
        run.modelling[kBackfillKey] = "0.75";
        const RunId id = store.saveRun(sampleScenario("A"), run, sampleTraces());
        const RunMetrics back = store.loadRun(id).result.metrics;
        QCOMPARE(back.savingConfigurationDedicatedG, 125.0);
        QCOMPARE(back.savingTimingDedicatedG, 0.5);
        QCOMPARE(back.savingBeyondDedicatedG, -2.25);
        QCOMPARE(back.savingConfigurationSharedG, 0.0);
        QCOMPARE(back.savingTimingSharedG, 64.0);
        QCOMPARE(back.savingBeyondSharedG, 1.0);
        QCOMPARE(store.compareRuns({id}).front().chargedParkedShare, 0.25);
        execSql(path, "UPDATE runs SET modelling_json = '{not json' WHERE id = " + std::to_string(id));
        QCOMPARE(store.compareRuns({id}).front().chargedParkedShare, 1.0);
    }

    // Issue 15, item 9: runs of different scenarios each measured against their own scenario's run of
    // one policy, not against one run of another region.
    void compareRunsPerScenario() {
        ResultsStore store(freshPath());
        const auto runOf = [](const std::string& policy, double totalG) {
            RunResult run = sampleRun(1, 1);
            run.policy = policy;
            run.metrics.operationalG = totalG;
            run.metrics.embodiedG = 0.0;
            run.metrics.totalG = totalG;
            return run;
        };
        const RunId baseA = store.saveRun(sampleScenario("A"), runOf("static-max", 1000.0), sampleTraces());
        const RunId smartA = store.saveRun(sampleScenario("A"), runOf("dynamic-3d", 900.0), sampleTraces());
        const RunId baseB = store.saveRun(sampleScenario("B"), runOf("static-max", 2000.0), sampleTraces());
        const RunId smartB = store.saveRun(sampleScenario("B"), runOf("dynamic-3d", 1500.0), sampleTraces());
        const RunId lonelyC = store.saveRun(sampleScenario("C"), runOf("dynamic-3d", 10.0), sampleTraces());

        ComparisonBaseline perScenario;
        perScenario.policyPerScenario = "static-max";
        const std::vector<RunComparison> c =
            store.compareRuns({smartA, smartB, baseA, baseB, lonelyC}, perScenario);
        QCOMPARE(c.size(), std::size_t(5));
        QCOMPARE(c[0].baselineId, baseA);
        QCOMPARE(c[1].baselineId, baseB);
        QVERIFY(c[0].sameScenario && c[1].sameScenario);
        // 1000 - 900 = 100 g (10 %), 2000 - 1500 = 500 g (25 %); exact in binary, so exact here.
        QCOMPARE(c[0].savedG, 100.0);
        QCOMPARE(c[1].savedG, 500.0);
        QCOMPARE(c[1].savedFraction, 0.25);
        QCOMPARE(c[2].baselineId, baseA);
        QCOMPARE(c[2].savedG, 0.0);
        // No static-max run of scenario C among the compared: no baseline, and no number.
        QCOMPARE(c[4].baselineId, RunId(0));
        QVERIFY(std::isnan(c[4].savedG) && std::isnan(c[4].savedFraction));
        QCOMPARE(c[4].metrics.totalG, 10.0);
        QVERIFY(!c[0].baselineNotCompared && !c[4].baselineNotCompared);
        // Issue 43: a run compared without its scenario's static-max is measured against the one in the
        // store, and the row says so.
        const std::vector<RunComparison> alone = store.compareRuns({smartB}, perScenario);
        QCOMPARE(alone[0].baselineId, baseB);
        QVERIFY(alone[0].baselineNotCompared);
        QCOMPARE(alone[0].savedG, 500.0);
        // One run for all, as before: B against A's static-max reads as a loss that is only the region.
        const std::vector<RunComparison> one = store.compareRuns({smartB}, baseA);
        QCOMPARE(one[0].savedG, -500.0);
    }

    void viewsAnswerInDisplayUnits() {
        const std::string path = freshPath();
        ResultsStore store(path);
        RunResult run = sampleRun(1, 1, "static-max");
        run.metrics.totalG = 1234.0;
        run.metrics.energyJ = 7.2e6;
        run.metrics.completionSeconds = 5400.0;
        const RunId base = store.saveRun(sampleScenario("A"), run, sampleTraces());
        run.policy = "dynamic-3d";
        run.metrics.totalG = 987.2;
        const RunId dyn = store.saveRun(sampleScenario("A"), run, sampleTraces());
        store.saveRun(sampleScenario("B"), run, sampleTraces());

        // Tolerance 1e-12 relative: the view divides once; the probe reads SQLite's 15-significant-digit
        // text.
        const std::string summary =
            "SELECT total_kg, energy_kwh, completion_h, region, start FROM run_summary "
            "WHERE run_id = " +
            std::to_string(base);
        const auto row = queryRows(path, summary).at(0);
        QVERIFY(std::abs(std::stod(row[0]) - 1.234) <= 1e-12); // 1234 g / 1000
        QVERIFY(std::abs(std::stod(row[1]) - 2.0) <= 1e-12);   // 7.2e6 J / 3.6e6
        QVERIFY(std::abs(std::stod(row[2]) - 1.5) <= 1e-12);   // 5400 s / 3600
        QCOMPARE(row[3], std::string("US-CAL-CISO"));
        QCOMPARE(row[4], std::string("2022-06-01T00:00:00Z"));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM run_summary"), std::int64_t(3));

        // run_savings pairs the runs of one scenario both ways: A has 2 runs -> 2 rows, B has 1 -> none.
        QCOMPARE(queryInt(path, "SELECT count(*) FROM run_savings"), std::int64_t(2));
        const auto saving = queryRows(path, "SELECT run_id, saved_kg, saved_pct FROM run_savings "
                                            "WHERE baseline_policy = 'static-max'")
                                .at(0);
        QCOMPARE(std::stoll(saving[0]), dyn);
        // (1234 - 987.2) g = 246.8 g = 0.2468 kg; 100 * 246.8 / 1234 = 20 %. Tolerance 1e-9: the subtraction
        // of two non-representable decimals leaves a few ulps of 1234.
        QVERIFY(std::abs(std::stod(saving[1]) - 0.2468) <= 1e-9);
        QVERIFY(std::abs(std::stod(saving[2]) - 20.0) <= 1e-9);
    }

    void exportWritesSeriesAndMetricsCsv() {
        ResultsStore store(freshPath());
        RunResult run = sampleRun(7, 1);
        run.series[0].activity = IntervalActivity::Training;
        run.series[1].activity = IntervalActivity::Paused; // no configuration trains: dp, tp, pp, cp are 0
        run.series[0].config.dp = 4;
        run.series[0].config.tp = 8;
        run.series[0].config.pp = 2;
        run.series[0].config.cp = 2;
        run.series[0].gpusActive = 128;
        run.series[0].powerLimitW = 350.0;
        run.series[0].facilityPowerW = 61234.5;
        run.series[0].ciGPerKwh = 250.25;
        run.series[0].workDone = 1.5e9;
        run.series[0].emissionsG = 15308.625;
        const RunId id = store.saveRun(sampleScenario("A"), run, sampleTraces());
        const QString dir = m_dir.filePath(QStringLiteral("export/here"));
        const ExportedRunFiles files = store.exportRunCsv(id, dir.toStdString());

        QFile series(QString::fromStdString(files.seriesCsv));
        QVERIFY(series.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = series.readAll().split('\n');
        QCOMPARE(lines.size(), 7 + 2); // header, 7 rows, and the empty piece after the final newline
        QCOMPARE(lines[0],
                 QByteArray("start,end,region,activity,dp,tp,pp,cp,gpus_active,power_limit_w,"
                            "facility_power_w,ci_g_per_kwh,work_done,emissions_g,gpus_held,energy_j,"
                            "embodied_g,marginal_emissions_g,forecast_ci_g_per_kwh,electricity_usd_per_kwh,"
                            "gpu_cost_usd,energy_cost_usd,carbon_cost_usd,cost_usd"));
        // Numbers are the shortest text that reads back to the same double (std::to_chars): 1.5e9 ->
        // "1.5e+09".
        QVERIFY2(lines[1].startsWith(
                     "2022-06-01T00:00:00Z,2022-06-01T01:00:00Z,US-CAL-CISO,training,4,8,2,2,128,350,"
                     "61234.5,250.25,1.5e+09,15308.625,"),
                 lines[1].constData());
        QVERIFY2(lines[2].contains(",paused,0,0,0,0,"), lines[2].constData());
        QVERIFY(lines[6].contains(",DE,")); // interval 5 runs in region index 1 (sampleRun: (i / 5) % 2)
        QVERIFY(files.seriesCsv.find("run-" + std::to_string(id) + "-series.csv") != std::string::npos);

        QFile metrics(QString::fromStdString(files.metricsCsv));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        const QList<QByteArray> metricLines = metrics.readAll().split('\n');
        QVERIFY(metricLines[0].startsWith("operational_g,marginal_g,embodied_g,total_g,energy_j"));
        QCOMPARE(metricLines[1].split(',').size(), metricLines[0].split(',').size());
    }

    void invalidRunIsRefusedAndNothingSaved() {
        const std::string path = freshPath();
        ResultsStore store(path);
        RunResult run = sampleRun(12, 1);
        run.series[11].regionIndex = 2; // only 2 traces: indexes 0 and 1
        const std::string message =
            inputErrorOf([&] { store.saveRun(sampleScenario("A"), run, sampleTraces()); });
        QVERIFY2(contains(message, "interval 11 has region index 2"), message.c_str());
        QVERIFY(store.listRuns().empty());
        QCOMPARE(queryInt(path, "SELECT count(*) FROM scenarios"), std::int64_t(0));
    }

    void progressIsReportedInsideTheSave() {
        ResultsStore store(freshPath());
        std::vector<std::size_t> written;
        SaveOptions options;
        options.progress = [&](std::size_t done, std::size_t total) {
            QCOMPARE(total, std::size_t(2500));
            written.push_back(done);
        };
        store.saveRun(sampleScenario("A"), sampleRun(2500, 1), sampleTraces(), options);
        QCOMPARE(written, (std::vector<std::size_t>{1024, 2048, 2500})); // every 1024 rows, then the end
    }

    void storeBelongsToItsThread() {
        ResultsStore store(freshPath());
        bool refused = false;
        std::thread other([&] {
            try {
                store.listRuns();
            } catch (const std::logic_error&) {
                refused = true;
            }
        });
        other.join();
        QVERIFY(refused);
    }

    void storedTraceOfInMemoryTraceHashesValues() {
        CarbonTrace a;
        a.regionId = "X";
        a.gPerKwh = {100.0, 200.0};
        CarbonTrace b = a;
        b.gPerKwh[1] = 201.0;
        const StoredTrace sa = storedTraceOf(a);
        QVERIFY(sa.contentSha256.rfind("values:", 0) == 0);
        QCOMPARE(sa.contentSha256.size(), std::size_t(7 + 64)); // "values:" + 32 bytes in hex
        QVERIFY(sa.contentSha256 != storedTraceOf(b).contentSha256);
        QCOMPARE(sa.rows, std::int64_t(2));
        Scenario scenario;
        scenario.regions.resize(2);
        scenario.regions[0].regionId = "NAMED-BY-SCENARIO";
        scenario.regions[0].trace = CarbonTrace{}; // no region id in the trace itself
        scenario.regions[1].trace = b;
        const std::vector<StoredTrace> traces = storedTracesOf(scenario);
        QCOMPARE(traces.size(), std::size_t(2));
        QCOMPARE(traces[0].regionId, std::string("NAMED-BY-SCENARIO"));
        QVERIFY(traces[1] == storedTraceOf(b));
        a.provenance.contentSha256 = "abc";
        QCOMPARE(storedTraceOf(a).contentSha256, std::string("abc")); // a file's hash is kept as it is
    }
};

QTEST_GUILESS_MAIN(TestResultsStore)
#include "tst_resultsstore.moc"
