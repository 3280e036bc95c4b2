// SPDX-License-Identifier: MIT
// The studio's files: opening and saving scenarios, importing traces, exporting figures and series. The
// reading and writing run on FileTasks' pool; this wiring asks and shows the answers.
#include "ExportDialog.h"
#include "FileDialogs.h"
#include "MainWindow.h"
#include "RecentFilesMenu.h"
#include "Settings.h"
#include "pages/LearnPage.h"
#include "pages/ResultsPage.h"
#include "pages/ScenarioPage.h"
#include "pages/StudyPage.h"
#include "plots/FigureExporter.h"
#include "workers/FileTasks.h"
#include "workers/StudyController.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>

namespace carbon3d::ui {

void MainWindow::connectFileTasks() {
    connect(m_files, &FileTasks::dataDirectoryScanned, this, [this](const DataDirectoryContents& contents) {
        m_scenarioPage->setTraceChoices(contents.traces);
        m_studyPage->setRegions(contents.traces);
        m_learnPage->setLessons(contents.lessons);
        m_learnPage->setDocsDirectory(m_docsDir);
        // The default scenario only when none was asked for before the scan finished (--scenario, a
        // recent file or a lesson opened at once).
        if (m_scenarioRequested)
            return;
        const QString defaultScenario = QDir(m_dataDir).filePath(QStringLiteral("scenarios/default.json"));
        statusBar()->showMessage(tr("Loading %1\u2026").arg(defaultScenario));
        openScenario(defaultScenario);
    });
    connect(m_files, &FileTasks::scenarioLoaded, this, &MainWindow::applyScenario);
    connect(m_files, &FileTasks::scenarioLoadFailed, this, [this](const QString& path, const QString& error) {
        statusBar()->showMessage(tr("Could not open %1").arg(path));
        m_runWhenLoaded = false; // not the scenario that was asked to run
        enableScenarioForm();    // the form as it was, to edit by hand
        QMessageBox::warning(this, tr("Cannot open scenario"), error);
        Q_EMIT scenarioLoaded(false, error);
    });
    connect(m_files, &FileTasks::traceImported, this, [this](const QString& path, const CarbonTrace& trace) {
        m_scenarioPage->acceptImportedTrace(path, trace);
        statusBar()->showMessage(tr("Imported %1: %2 slots").arg(path).arg(trace.size()));
    });
    connect(m_files, &FileTasks::previewTraceLoaded, this,
            [this](const QString& path, const CarbonTrace& trace) {
                m_scenarioPage->cacheTrace(path, trace);
                if (!m_resultsPage->hasResults() && m_scenarioPage->unloadedTracePath().isEmpty())
                    m_resultsPage->preview(m_scenarioPage->scenario());
            });
    connect(m_files, &FileTasks::traceImportFailed, this, [this](const QString& path, const QString& error) {
        m_scenarioPage->rejectImportedTrace(error);
        statusBar()->showMessage(tr("Import failed: %1").arg(path));
    });
    connect(m_files, &FileTasks::scenarioSaved, this, [this](const QString& path) {
        m_scenarioPath = path;
        m_recentMenu->add(path);
        statusBar()->showMessage(tr("Saved %1").arg(path));
    });
    connect(m_files, &FileTasks::scenarioSaveFailed, this, [this](const QString& path, const QString& error) {
        QMessageBox::warning(this, tr("Cannot save scenario"), tr("%1: %2").arg(path, error));
    });
    connect(m_files, &FileTasks::seriesExported, this, [this](const QString& directory, int runCount) {
        statusBar()->showMessage(tr("Exported %n run(s) to %1", nullptr, runCount).arg(directory));
    });
    connect(m_files, &FileTasks::seriesExportFailed, this, [this](const QString&, const QString& error) {
        statusBar()->showMessage(tr("Export failed: %1").arg(error));
    });
}

void MainWindow::openScenario(const QString& path) {
    if (refuseDatabaseFile(path)) {
        Q_EMIT scenarioLoaded(false, tr("%1 is the open results database").arg(path));
        return;
    }
    m_scenarioRequested = true;
    m_files->loadScenario(path); // the newest request wins (FileTasks::loadScenario)
}

void MainWindow::saveScenarioAs() {
    const QString path =
        chooseSaveFile(this, tr("Save scenario"), proposedScenarioPath(), tr("Scenarios (*.json)"));
    if (!path.isEmpty())
        m_files->saveScenario(m_scenarioPage->scenario(), path);
}

QString MainWindow::proposedScenarioPath() const {
    if (m_scenarioPath.isEmpty())
        return settings::lastDirectory.get();
    // The bundled scenarios are the program's (a lesson, the default): saving proposes the same name in the
    // user's own folder rather than writing over them (issue 43).
    const QString bundled = QDir(m_dataDir).canonicalPath();
    const QString current = QFileInfo(m_scenarioPath).canonicalFilePath();
    if (bundled.isEmpty() || !current.startsWith(bundled + QLatin1Char('/')))
        return m_scenarioPath;
    const QString remembered = settings::lastDirectory.get();
    const bool ownFolder = !remembered.isEmpty() && QDir(remembered).exists() &&
                           !QDir(remembered).canonicalPath().startsWith(bundled);
    return QDir(ownFolder ? remembered : exportDirectory()).filePath(QFileInfo(m_scenarioPath).fileName());
}

void MainWindow::exportFigure(QCustomPlot* plot, FigureKind kind) {
    // Named as `carbon3d-cli plot --kind` names the figure, titled by the same table.
    const FigureKindInfo& info = figureKindInfo(kind);
    const QString title = QString::fromUtf8(info.title);
    const QString suggested =
        QDir(exportDirectory()).filePath(QString::fromLatin1(info.id) + QStringLiteral(".png"));
    ExportDialog dialog(suggested, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QStringList runIds;
    if (plot == m_resultsPage->timeline()) // only the timeline draws the runs of the last batch
        for (const RunId id : m_lastRunIds)
            runIds << QString::number(id);
    // A study's figure names the study; the others the scenario on the Results page.
    const QString source = isStudyFigure(kind) && m_studies->isLoaded()
                               ? QString::fromStdString(m_studies->study().name)
                               : m_resultsPage->scenarioName();
    const FigureMetadata metadata{title, source, runIds};
    const QString problem = dialog.exportPlot(*plot, metadata, m_theme);
    if (!problem.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), problem);
    else {
        settings::exportDirectory.set(QFileInfo(dialog.path()).absolutePath());
        statusBar()->showMessage(tr("Exported %1").arg(dialog.path()));
    }
}

QString MainWindow::exportDirectory() {
    QString remembered = settings::exportDirectory.get();
    if (!remembered.isEmpty() && QDir(remembered).exists())
        return remembered;
    // A fresh account may have no Documents folder: a dialog opened on a missing folder answers every
    // choice with "directory not found".
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return documents.isEmpty() || !QDir(documents).exists() ? QDir::homePath() : documents;
}

void MainWindow::exportSeries() {
    const std::vector<RunResult> runs = m_resultsPage->shownRuns();
    if (runs.empty()) {
        statusBar()->showMessage(tr("Nothing to export: run a scenario first"));
        return;
    }
    const QString directory = chooseDirectory(this, tr("Export series CSV into"), exportDirectory());
    if (directory.isEmpty())
        return;
    settings::exportDirectory.set(directory);
    std::vector<std::string> regionIds;
    for (const RegionSpec& region : m_scenarioPage->scenario().regions)
        regionIds.push_back(region.regionId);
    m_files->exportSeries(runs, regionIds, directory);
}

void MainWindow::importTrace(const QString& path) {
    if (refuseDatabaseFile(path))
        return;
    statusBar()->showMessage(tr("Importing %1\u2026").arg(path));
    m_files->importTrace(path);
}

} // namespace carbon3d::ui
