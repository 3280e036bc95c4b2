// SPDX-License-Identifier: MIT
#include "workers/FileTasks.h"

#include "config/ScenarioJson.h"
#include "storage/RunCsv.h"
#include "traces/TraceLoader.h"
#include "workers/PoolTask.h"

#include <QFileInfo>
#include <QSaveFile>

namespace carbon3d::ui {

FileTasks::FileTasks(QObject* parent)
    : QObject(parent) {}

void FileTasks::importTrace(const QString& path) {
    runThen(
        m_pool, this,
        [path] { return loadCatching<CarbonTrace>([&] { return loadCarbonTrace(path.toStdString()); }); },
        [this, path](const Loaded<CarbonTrace>& loaded) {
            if (loaded.value)
                Q_EMIT traceImported(path, *loaded.value);
            else
                Q_EMIT traceImportFailed(path, loaded.error);
        });
}

void FileTasks::loadPreviewTrace(const QString& path) {
    runThen(
        m_pool, this,
        [path] { return loadCatching<CarbonTrace>([&] { return loadCarbonTrace(path.toStdString()); }); },
        [this, path](const Loaded<CarbonTrace>& loaded) {
            if (loaded.value)
                Q_EMIT previewTraceLoaded(path, *loaded.value);
        });
}

void FileTasks::exportSeries(const std::vector<RunResult>& runs, const std::vector<std::string>& regionIds,
                             const QString& directory) {
    runThen(
        m_pool, this,
        [runs, regionIds, dir = directory.toStdString()] {
            return loadCatching<int>([&] {
                // Numbered by position: two runs of the same policy must not overwrite each other's files.
                for (std::size_t i = 0; i < runs.size(); ++i)
                    writeRunCsvFiles(runs[i], regionIds, dir,
                                     std::to_string(i + 1) + "-" + runs[i].policy + "-");
                return static_cast<int>(runs.size());
            });
        },
        [this, directory](const Loaded<int>& written) {
            if (written.value)
                Q_EMIT seriesExported(directory, *written.value);
            else
                Q_EMIT seriesExportFailed(directory, written.error);
        });
}

void FileTasks::loadScenario(const QString& path) {
    const LatestRequest::Ticket ticket = m_scenarioLoad.begin();
    runThen(
        m_pool, this,
        [path] { return loadCatching<Scenario>([&] { return carbon3d::loadScenario(path.toStdString()); }); },
        [this, path, ticket](const Loaded<Scenario>& loaded) {
            if (!m_scenarioLoad.isCurrent(ticket))
                return;
            if (loaded.value)
                Q_EMIT scenarioLoaded(path, *loaded.value);
            else
                Q_EMIT scenarioLoadFailed(path, loaded.error);
        });
}

void FileTasks::saveScenario(const Scenario& scenario, const QString& path) {
    runThen(
        m_pool, this,
        [scenario, path] {
            const Loaded<std::string> text = loadCatching<std::string>([&] {
                return toJson(scenario, QFileInfo(path).absolutePath().toStdString()).dump(2) + "\n";
            });
            if (!text.value)
                return text.error;
            // Written beside the target and renamed over it: a failed save leaves the old file whole.
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) ||
                file.write(text.value->data(), static_cast<qint64>(text.value->size())) < 0 || !file.commit())
                return file.errorString();
            return QString();
        },
        [this, path](const QString& error) {
            if (error.isEmpty())
                Q_EMIT scenarioSaved(path);
            else
                Q_EMIT scenarioSaveFailed(path, error);
        });
}

void FileTasks::scanDataDirectory(const QString& dataDir) {
    runThen(
        m_pool, this, [dataDir] { return ui::scanDataDirectory(dataDir); },
        [this](const DataDirectoryContents& contents) { Q_EMIT dataDirectoryScanned(contents); });
}

} // namespace carbon3d::ui
