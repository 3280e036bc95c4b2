// SPDX-License-Identifier: MIT
// The results store's wiring: every finished batch is saved, the Compare page reads and edits through the
// store worker, and a database that cannot be used is reported, never changed.
#include "MainWindow.h"
#include "Settings.h"
#include "pages/ComparePage.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/SimulationController.h"

#include <QMessageBox>
#include <QStatusBar>
#include <qcustomplot.h> // the Compare page's export hands a plot

namespace carbon3d::ui {

void MainWindow::connectResultsStore() {
    connect(m_controller, &SimulationController::finished, this, [this](const SimulationOutcome& outcome) {
        m_store->saveRuns(outcome.prepared.scenario, outcome.runs);
    });
    connect(m_store, &ResultsStoreWorker::opened, this, [this](bool ok, const QString& message) {
        if (ok) {
            m_store->listRuns();
            m_store->listStudies();
            return;
        }
        // A corrupt or foreign file is reported and left untouched; offer a new database beside it.
        const QString fresh = m_store->freshDatabasePath();
        const auto answer = QMessageBox::warning(
            this, tr("Results database cannot be used"),
            tr("%1\n\nThe file was not changed. Start a new database at %2?").arg(message, fresh),
            QMessageBox::Yes | QMessageBox::No);
        if (answer == QMessageBox::Yes)
            openDatabase(fresh);
        else
            statusBar()->showMessage(tr("Runs are not being saved: %1").arg(message));
    });
    connect(m_store, &ResultsStoreWorker::saved, this, [this](const std::vector<RunId>& ids) {
        m_lastRunIds = ids;
        m_store->listRuns();
        Q_EMIT runsSaved(static_cast<int>(ids.size()));
    });
    connect(m_store, &ResultsStoreWorker::listed, m_comparePage, &ComparePage::setRuns);
    connect(m_store, &ResultsStoreWorker::compared, m_comparePage, &ComparePage::showComparison);
    connect(m_store, &ResultsStoreWorker::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Results database: %1").arg(message));
    });
    connect(m_comparePage, &ComparePage::refreshRequested, m_store, &ResultsStoreWorker::listRuns);
    connect(m_comparePage, &ComparePage::compareRequested, m_store, &ResultsStoreWorker::compareRuns);
    connect(m_comparePage, &ComparePage::renameRequested, m_store, &ResultsStoreWorker::renameRun);
    connect(m_comparePage, &ComparePage::deleteRequested, m_store, &ResultsStoreWorker::deleteRun);
    connect(m_comparePage, &ComparePage::exportRequested, this, &MainWindow::exportFigure);
}

bool MainWindow::refuseDatabaseFile(const QString& path) {
    if (!m_store->isDatabaseFile(path))
        return false;
    const QString message = tr("%1 is the results database this window has open; it is not a scenario or a "
                               "trace, and reading it here would release the database's locks.")
                                .arg(path);
    statusBar()->showMessage(message);
    QMessageBox::warning(this, tr("Results database"), message);
    return true;
}

void MainWindow::openDatabase(const QString& path) {
    settings::databasePath.set(path);
    m_store->open(path);
}

} // namespace carbon3d::ui
