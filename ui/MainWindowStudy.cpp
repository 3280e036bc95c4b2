// SPDX-License-Identifier: MIT
// The Study page's wiring (docs/STUDIES.md): the page asks, StudyController computes off the GUI thread,
// the store worker saves and lists; finished cells go both to the store and to the page's figures.
#include "FileDialogs.h"
#include "MainWindow.h"
#include "Settings.h"
#include "engine/PolicyRegistry.h"
#include "pages/ResultsPage.h"
#include "pages/ScenarioPage.h"
#include "pages/StudyPage.h"
#include "study/StudyCells.h"
#include "study/StudyRecords.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/StudyController.h"

#include <QDateTime>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStatusBar>

namespace carbon3d::ui {

namespace {

// Where a study made on the page is written: beside the results database, so that it can be opened
// again from the database's list; without a database, in the user's data folder.
QString studyDirectory(const QString& databasePath) {
    const QString base = databasePath.isEmpty()
                             ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                             : QFileInfo(databasePath).absolutePath();
    return base + QStringLiteral("/studies");
}

} // namespace

void MainWindow::connectStudyPage() {
    connect(m_studyPage, &StudyPage::exportRequested, this, &MainWindow::exportFigure);
    connectStudyLoading();
    connectStudyRun();
    connectSavedStudies();
}

// Estimate (the form written to a study file) and Open study file: both read the study and time a cell of
// each policy; the page shows the estimate, or why the study could not be read.
void MainWindow::connectStudyLoading() {
    connect(m_studyPage, &StudyPage::estimateRequested, this, [this] {
        m_studyPage->setBaseScenario(m_scenarioPage->scenario());
        const QString directory = studyDirectory(m_store->path());
        const QString file =
            directory +
            QStringLiteral("/study-%1.json")
                .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
        m_studyPage->showMessage(tr("Reading the study and timing one cell of each policy\u2026"));
        const JsonValue study =
            studyPlanJson(m_studyPage->plan(), m_studyPage->baseScenario(), directory.toStdString());
        m_studies->loadNew(file, QString::fromStdString(study.dump(2)));
    });
    connect(m_studyPage, &StudyPage::openFileRequested, this, [this] {
        // The bundled studies first: the scenarios folder holds lessons, which are not study files.
        const QString path = chooseOpenFile(this, tr("Open study"), m_dataDir + QStringLiteral("/studies"),
                                            tr("Studies (*.json)"));
        if (path.isEmpty())
            return;
        m_studyPage->showMessage(tr("Reading %1 and timing one cell of each policy\u2026").arg(path));
        m_chosenStudyFile = path;
        m_studies->load(path, true);
    });
    connect(m_studies, &StudyController::loaded, this, [this](int cells, double seconds, bool estimated) {
        if (!estimated)
            return; // a saved study read again so that its cells can be opened: nothing to start
        m_studyPage->showEstimate(cells, seconds);
        const QString file = QString::fromStdString(m_studies->study().sourceFile);
        m_studyPage->showMessage(
            QFileInfo(file) == QFileInfo(m_chosenStudyFile)
                ? tr("%1, with its own axes: Run study runs the file, not the form above").arg(file)
                : file);
    });
    connect(m_studies, &StudyController::failed, this, [this](const QString& message) {
        m_studyPage->showMessage(message);
        m_studyPage->setRunning(m_studies->isRunning());
    });
}

// Run study: the study registered in the store (unless there is none), its cells run and saved as they
// finish, and Cancel.
void MainWindow::connectStudyRun() {
    connect(m_studyPage, &StudyPage::runRequested, this, [this] {
        if (!m_studies->isLoaded() || m_studies->isRunning())
            return;
        m_studyPage->setRunning(true);
        m_studyPage->startTable(axisColumns(m_studies->study()));
        m_studySaveError.clear();
        if (m_store->path().isEmpty()) { // nothing to resume from, nothing saved
            m_studyId = 0;
            m_studies->run({}, false);
            return;
        }
        m_store->registerStudy(storedStudyOf(m_studies->study()));
    });
    connect(m_store, &ResultsStoreWorker::studyRegistered, this,
            [this](StudyId id, const std::vector<std::int64_t>& saved) {
                m_studyId = id;
                m_studySavedCells = saved.size();
                m_studies->run(saved, true); // a study run before resumes where it stopped
            });
    connect(m_store, &ResultsStoreWorker::studyCellsSaved, this, [this](int count) {
        m_studySavedCells += static_cast<std::size_t>(count);
        m_studies->cellsSaved(static_cast<std::size_t>(count));
    });
    // The first failed save stops the study (issue 40): what is computed after it could not be saved either.
    connect(m_store, &ResultsStoreWorker::studyCellsFailed, this, [this](const QString& message) {
        if (!m_studies->isRunning() || !m_studySaveError.isEmpty())
            return;
        m_studySaveError = message;
        m_studies->cancel();
    });
    connect(m_studies, &StudyController::cellsFinished, this,
            [this](const std::vector<StoredCell>& cells, const std::vector<StudyRow>& rows) {
                if (m_studyId != 0)
                    m_store->saveStudyCells(m_studyId, cells);
                m_studyPage->addRows(rows);
            });
    connect(m_studies, &StudyController::progressChanged, m_studyPage, &StudyPage::setProgress);
    connect(m_studies, &StudyController::finished, this, [this](bool cancelled) {
        m_studyPage->setRunning(false);
        if (!m_studySaveError.isEmpty())
            m_studyPage->showMessage(
                tr("Saving the study's cells failed (%1), so the study stopped. %2 of %3 cells are "
                   "saved; once that is fixed, run the same study again to resume.")
                    .arg(m_studySaveError)
                    .arg(m_studySavedCells)
                    .arg(cellCount(m_studies->study())));
        else
            m_studyPage->showMessage(cancelled
                                         ? tr("Cancelled: the cells finished so far are saved; run the same "
                                              "study again to carry on.")
                                         : tr("The study is done."));
        m_store->listStudies();
    });
    connect(m_studyPage, &StudyPage::cancelRequested, m_studies, &StudyController::cancel);
}

// The store's list of studies on the page; one reopened shows its table, and a cell of it clicked opens in
// Results.
void MainWindow::connectSavedStudies() {
    connect(m_store, &ResultsStoreWorker::studiesListed, m_studyPage, &StudyPage::setStudies);
    connect(m_studyPage, &StudyPage::openStudyRequested, this, [this](StudyId id) {
        m_studyFileToReload = id;
        m_studyPage->openSavedStudy(id);
    });
    connect(m_studyPage, &StudyPage::studyViewRequested, this,
            [this](StudyId id, const StudyViewChoice& choice, int request) {
                m_store->loadStudyView(id, QString::fromStdString(defaultBaselinePolicy().name), choice,
                                       request);
            });
    connect(m_store, &ResultsStoreWorker::studyViewLoaded, this,
            [this](const StoredStudy& study, const StudyView& view, int request) {
                m_studyPage->showView(study, view, request);
                // Its file, read again once (without running anything), lets a click open one of its cells.
                if (m_studyFileToReload != study.id)
                    return;
                m_studyFileToReload = 0;
                if (!m_studies->isRunning() && QFileInfo::exists(QString::fromStdString(study.sourceFile)))
                    m_studies->load(QString::fromStdString(study.sourceFile), false);
            });
    connect(m_studyPage, &StudyPage::openCellRequested, this, [this](std::size_t index) {
        m_studyPage->showMessage(
            tr("Simulating cell %1 again, beside its baseline, with their series\u2026").arg(index));
        m_studies->openCell(index, m_studyPage->view().header.baselinePolicy);
    });
    connect(m_studies, &StudyController::cellOpened, this, [this](const SimulationOutcome& outcome) {
        showOpenedCell(outcome);
        m_studyPage->showMessage(QString());
    });
}

} // namespace carbon3d::ui
