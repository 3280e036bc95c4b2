// SPDX-License-Identifier: MIT
// The studio's workers on their own threads, driven from the test's thread as the window drives them: the
// simulation controller (runs, a cancel, an estimate and a configuration search overlapping a run), the
// results store worker (saves queued behind each other, listed and compared while saves are in flight) and
// the file tasks (loads, an import, a save and an export at once).
// Run in the sanitized build and under ThreadSanitizer by scripts/tsan (docs/RELIABILITY.md says what TSan
// can see of Qt's own synchronisation).
#include "config/ScenarioJson.h"
#include "workers/FileTasks.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/SimulationController.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace carbon3d;
using namespace carbon3d::ui;

namespace {

// An ASan or TSan build of a whole batch on a loaded 2-core CI machine.
constexpr int kWaitMs = 120000;

Scenario teachingScenario() {
    Scenario scenario =
        loadScenario(CARBON3D_SOURCE_DIR "/sample_data/scenarios/learn-solar-california.json");
    scenario.policies = {PolicySpec{"static-max", {}}, PolicySpec{"suspend-resume", {}},
                         PolicySpec{"dynamic-3d", {}}, PolicySpec{"oracle", {}}};
    return scenario;
}

} // namespace

class TstStudioWorkers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        qRegisterMetaType<SimulationOutcome>();
        qRegisterMetaType<std::vector<RunId>>();
        qRegisterMetaType<std::vector<RunSummary>>();
        qRegisterMetaType<std::vector<StoredRun>>();
        qRegisterMetaType<std::vector<RunComparison>>();
        qRegisterMetaType<ConfigurationLandscape>();
    }

    void controllerRunsEstimatesAndSearchesAtOnce() {
        SimulationController controller;
        QSignalSpy finished(&controller, &SimulationController::finished);
        QSignalSpy estimated(&controller, &SimulationController::staticMaxHoursEstimated);
        QSignalSpy found(&controller, &SimulationController::configurationsFound);
        const Scenario scenario = teachingScenario();
        controller.start(scenario);
        // What each edit of the form asks for, while the batch runs; only the newest of each is answered.
        for (int edit = 0; edit < 3; ++edit) {
            controller.estimateStaticMaxHours(scenario);
            controller.searchConfigurations(scenario);
        }
        QVERIFY(finished.wait(kWaitMs));
        QTRY_COMPARE_WITH_TIMEOUT(estimated.count(), 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(found.count(), 1, kWaitMs);
        const auto outcome = finished.takeFirst().at(0).value<SimulationOutcome>();
        QCOMPARE(outcome.runs.size(), scenario.policies.size());
        QVERIFY(estimated.takeFirst().at(0).toDouble() > 0.0);
    }

    void cancelStopsABatchAndTheNextOneRuns() {
        SimulationController controller;
        QSignalSpy cancelled(&controller, &SimulationController::cancelled);
        QSignalSpy finished(&controller, &SimulationController::finished);
        const Scenario scenario = teachingScenario();
        controller.start(scenario);
        controller.cancel();
        QVERIFY(cancelled.wait(kWaitMs));
        QCOMPARE(finished.count(), 0);
        controller.start(scenario);
        QVERIFY(finished.wait(kWaitMs));
    }

    // The controller's outcome goes to the store worker, as the window passes it on; saves queue behind each
    // other on the worker's one thread while lists and a comparison are asked for.
    void storeWorkerSavesListsAndComparesInOrder() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SimulationController controller;
        QSignalSpy finished(&controller, &SimulationController::finished);
        const Scenario scenario = teachingScenario();
        controller.start(scenario);
        QVERIFY(finished.wait(kWaitMs));
        const auto outcome = finished.takeFirst().at(0).value<SimulationOutcome>();

        ResultsStoreWorker store;
        QSignalSpy opened(&store, &ResultsStoreWorker::opened);
        QSignalSpy saved(&store, &ResultsStoreWorker::saved);
        QSignalSpy listed(&store, &ResultsStoreWorker::listed);
        QSignalSpy compared(&store, &ResultsStoreWorker::compared);
        QSignalSpy failed(&store, &ResultsStoreWorker::failed);
        store.open(dir.filePath(QStringLiteral("results.sqlite")));
        constexpr int kBatches = 3;
        for (int batch = 0; batch < kBatches; ++batch) {
            // Each batch a scenario of its own (another start): the studio stores an identical re-run
            // once (SaveOptions::reuseIdentical), and this test counts distinct runs.
            Scenario moved = scenario;
            moved.startUtc += batch * kSecondsPerHour;
            std::vector<RunResult> runs = outcome.runs;
            for (RunResult& run : runs)
                run.startUtc = moved.startUtc;
            store.saveRuns(moved, runs);
            store.listRuns();
        }
        // The first batch again: recognised, nothing new.
        store.saveRuns(scenario, outcome.runs);
        store.listRuns();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), kBatches + 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(listed.count(), kBatches + 1, kWaitMs);
        QCOMPARE(failed.count(), 0);
        QVERIFY(opened.first().at(0).toBool());
        // Queued on one thread: each list sees every save queued before it.
        for (int batch = 0; batch < kBatches; ++batch)
            QCOMPARE(listed.at(batch).at(0).value<std::vector<RunSummary>>().size(),
                     outcome.runs.size() * static_cast<std::size_t>(batch + 1));
        QCOMPARE(listed.at(kBatches).at(0).value<std::vector<RunSummary>>().size(),
                 outcome.runs.size() * static_cast<std::size_t>(kBatches));
        QCOMPARE(saved.at(kBatches).at(0).value<std::vector<RunId>>(),
                 saved.at(0).at(0).value<std::vector<RunId>>());
        const auto ids = saved.first().at(0).value<std::vector<RunId>>();
        store.compareRuns(ids, ComparisonBaseline{ids.front(), {}});
        QVERIFY(compared.wait(kWaitMs));
        QCOMPARE(compared.first().at(1).value<std::vector<RunComparison>>().size(), ids.size());
    }

    void fileTasksLoadImportSaveAndExportAtOnce() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        FileTasks files;
        QSignalSpy scanned(&files, &FileTasks::dataDirectoryScanned);
        QSignalSpy loaded(&files, &FileTasks::scenarioLoaded);
        QSignalSpy imported(&files, &FileTasks::traceImported);
        QSignalSpy saved(&files, &FileTasks::scenarioSaved);
        QSignalSpy exported(&files, &FileTasks::seriesExported);
        const Scenario scenario = teachingScenario();
        files.scanDataDirectory(QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data"));
        files.loadScenario(QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data/scenarios/default.json"));
        files.importTrace(QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data/traces/DE_2022.csv"));
        files.saveScenario(scenario, dir.filePath(QStringLiteral("saved.json")));
        const PreparedScenario prepared = prepareScenario(scenario);
        files.exportSeries({runPolicy(prepared, PolicySpec{"static-max", {}})}, {"US-CAL-CISO"}, dir.path());
        QTRY_COMPARE_WITH_TIMEOUT(scanned.count() + loaded.count() + imported.count() + saved.count() +
                                      exported.count(),
                                  5, kWaitMs);
    }
};

QTEST_GUILESS_MAIN(TstStudioWorkers)
#include "tst_studioworkers.moc"
