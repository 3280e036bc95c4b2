// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "workers/BackgroundLoads.h"
#include "workers/LatestRequest.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <string>
#include <vector>

namespace carbon3d::ui {

// The studio's file reads and writes, off the GUI thread on a pool of their own: the simulation
// controller's pool is busy (and reniced) for as long as a batch runs, and an import or an export queued
// behind a months-long simulation would wait for it to finish. Each call copies its inputs, and its
// outcome comes back by signal as plain values, a failure as the message of the error. No dialogs: the
// window decides what to tell the user.
class FileTasks : public QObject {
    Q_OBJECT
public:
    explicit FileTasks(QObject* parent = nullptr);

    void importTrace(const QString& path);
    // One pair of CSV files (intervals, metrics) per run, as `carbon3d-cli simulate --series-out`.
    void exportSeries(const std::vector<RunResult>& runs, const std::vector<std::string>& regionIds,
                      const QString& directory);
    // The newest request wins: a load still running when another is asked for reports nothing (neither
    // its scenario nor its error), so a slower, earlier load (the default scenario's at start) cannot
    // replace the one asked for last.
    void loadScenario(const QString& path);
    // A trace for the Results page's preview; a failure is left to the run, which reports it whole.
    void loadPreviewTrace(const QString& path);
    void scanDataDirectory(const QString& dataDir);
    // Writes the scenario as JSON (trace paths relative to the file's directory), atomically.
    void saveScenario(const Scenario& scenario, const QString& path);

Q_SIGNALS:
    void traceImported(const QString& path, const carbon3d::CarbonTrace& trace);
    void traceImportFailed(const QString& path, const QString& message);
    void previewTraceLoaded(const QString& path, const carbon3d::CarbonTrace& trace);
    void seriesExported(const QString& directory, int runCount);
    void seriesExportFailed(const QString& directory, const QString& message);
    void scenarioLoaded(const QString& path, const carbon3d::Scenario& scenario);
    void scenarioLoadFailed(const QString& path, const QString& message);
    void dataDirectoryScanned(const carbon3d::ui::DataDirectoryContents& contents);
    void scenarioSaved(const QString& path);
    void scenarioSaveFailed(const QString& path, const QString& message);

private:
    QThreadPool m_pool; // its destructor waits for the tasks still running
    LatestRequest m_scenarioLoad;
};

} // namespace carbon3d::ui
