// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "ExportDialog.h"
#include "FileDialogs.h"
#include "RecentFilesMenu.h"
#include "Settings.h"
#include "models/MetricsTableModel.h"
#include "pages/ComparePage.h"
#include "pages/ConfigurationsPage.h"
#include "pages/LearnPage.h"
#include "pages/ResultsPage.h"
#include "pages/ScenarioPage.h"
#include "pages/StudyPage.h"
#include "plots/FigureExporter.h"
#include "workers/FileTasks.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/SimulationController.h"
#include "workers/StudyController.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <utility>

namespace carbon3d::ui {

MainWindow::MainWindow(QString dataDir, QString docsDir, const QString& databasePath, QWidget* parent)
    : QMainWindow(parent)
    , m_dataDir(std::move(dataDir))
    , m_docsDir(std::move(docsDir))
    , m_theme(settings::presentationTheme.get() ? presentationTheme() : screenTheme()) {
    setWindowTitle(tr("Carbon3D \u2013 carbon-aware training studio"));
    setWindowIcon(QIcon(QStringLiteral(":/carbon3d/icons/carbon3d.svg")));
    m_controller = new SimulationController(this);
    m_files = new FileTasks(this);
    m_scenarioPage = new ScenarioPage(this);
    m_resultsPage = new ResultsPage(this);
    m_learnPage = new LearnPage(this);
    m_comparePage = new ComparePage(this);
    m_store = new ResultsStoreWorker(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_resultsPage, tr("Results"));
    m_tabs->addTab(m_comparePage, tr("Compare"));
    m_studies = new StudyController(m_dataDir + QStringLiteral("/traces"), this);
    m_studyPage = new StudyPage(this);
    m_tabs->addTab(m_studyPage, tr("Study"));
    m_configurationsPage = new ConfigurationsPage(this);
    m_tabs->addTab(m_configurationsPage, tr("Configurations"));
    m_tabs->addTab(m_learnPage, tr("Learn"));
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(m_scenarioPage);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_scenarioPage->setMinimumWidth(380);
    m_scenarioPage->setMaximumWidth(560);
    setCentralWidget(m_splitter);
    m_resultsPage->setTheme(m_theme);
    m_live = settings::liveWhatIf.get();
    buildMenus();

    m_scenarioPage->setPolicyChoices(policyChoicesFromCatalogue());
    connectFileTasks();
    connectStudyPage();
    // The default scenario is opened once the data directory is listed, so that its region matches a
    // bundled trace entry (see dataDirectoryScanned).
    m_files->scanDataDirectory(m_dataDir);

    m_liveTimer.setSingleShot(true);
    m_liveTimer.setInterval(700);
    connect(&m_liveTimer, &QTimer::timeout, this, [this] {
        if (!m_controller->isRunning() && m_scenarioPage->validationErrors().isEmpty())
            runCurrentScenario();
    });
    connect(m_scenarioPage, &ScenarioPage::runRequested, this, &MainWindow::runCurrentScenario);
    connect(m_scenarioPage, &ScenarioPage::cancelRequested, m_controller, &SimulationController::cancel);
    connect(m_scenarioPage, &ScenarioPage::importTraceRequested, this, &MainWindow::importTrace);
    connect(m_scenarioPage, &ScenarioPage::scenarioEdited, this, [this] {
        if (!m_resultsPage->hasResults()) {
            // No results yet: the preview follows the region and start (issue 15, item 11).
            const QString unloaded = m_scenarioPage->unloadedTracePath();
            if (unloaded.isEmpty())
                m_resultsPage->preview(m_scenarioPage->scenario());
            else
                m_files->loadPreviewTrace(unloaded);
            return;
        }
        m_resultsPage->showNotice(
            ResultsPage::Notice::Stale,
            m_live ? tr("The scenario changed: these results are for the previous settings. Live what-if "
                        "re-runs it in a moment.")
                   : tr("The scenario changed: these results are for the previous settings. Run (Ctrl+R) to "
                        "update them."));
        if (m_live)
            m_liveTimer.start(); // restart: only the last edit of a burst re-runs
    });
    connect(m_scenarioPage, &ScenarioPage::jobOrClusterChanged, this, [this] {
        const Scenario scenario = m_scenarioPage->scenario();
        m_controller->estimateStaticMaxHours(scenario);
        m_controller->searchConfigurations(scenario);
    });
    connect(m_configurationsPage, &ConfigurationsPage::exportRequested, this, &MainWindow::exportFigure);
    connect(m_controller, &SimulationController::staticMaxHoursEstimated, m_scenarioPage,
            &ScenarioPage::setStaticMaxHours);
    connect(m_controller, &SimulationController::progressChanged, m_resultsPage, &ResultsPage::setProgress);
    connect(m_controller, &SimulationController::configurationsFound, m_configurationsPage,
            &ConfigurationsPage::showLandscape);
    connect(m_controller, &SimulationController::configurationSearchFailed, this,
            [this](const QString& message) {
                statusBar()->showMessage(tr("Configuration search failed: %1").arg(message));
            });
    connect(m_controller, &SimulationController::finished, this, &MainWindow::showOutcome);
    connect(m_controller, &SimulationController::failed, this, [this](const QString& message) {
        endRun(tr("Run failed: %1").arg(message));
        // Whole, above the plots (the status bar cut it off); any results shown are the previous run's.
        m_resultsPage->showNotice(
            ResultsPage::Notice::Error,
            m_resultsPage->hasResults()
                ? tr("The run failed; the results below are from the run before.\n%1").arg(message)
                : tr("The run failed.\n%1").arg(message));
        m_tabs->setCurrentWidget(m_resultsPage);
        Q_EMIT runFailed(message);
    });
    connect(m_controller, &SimulationController::cancelled, this, [this] { endRun(tr("Run cancelled")); });
    connect(m_resultsPage, &ResultsPage::exportRequested, this, &MainWindow::exportFigure);
    connect(m_resultsPage, &ResultsPage::seriesExportRequested, this, &MainWindow::exportSeries);
    connect(m_learnPage, &LearnPage::openScenarioRequested, this, &MainWindow::openScenario);

    // Results store: every finished batch is saved; the Compare page reads and edits through the worker.
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
    // The caller chooses the file (app/main_gui.cpp: --db, else app::defaultDatabasePath()); without one the
    // studio runs but saves nothing (the store worker answers "no results database is open").
    if (databasePath.isEmpty())
        statusBar()->showMessage(tr("Runs are not being saved: no results database was given"));
    else
        openDatabase(databasePath);

    restoreGeometry(settings::windowGeometry.get());
    restoreState(settings::windowState.get());
    if (!settings::splitterState.get().isEmpty())
        m_splitter->restoreState(settings::splitterState.get());
    else
        m_splitter->setSizes({440, 1160});
    if (settings::windowGeometry.get().isEmpty())
        resize(1600, 1000);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open scenario\u2026"), QKeySequence::Open, this, [this] {
        const QString path = chooseOpenFile(this, tr("Open scenario"), settings::lastDirectory.get(),
                                            tr("Scenarios (*.json)"));
        if (!path.isEmpty())
            openScenario(path);
    });
    m_recentMenu = new RecentFilesMenu(tr("Open &recent"), file);
    file->addMenu(m_recentMenu);
    connect(m_recentMenu, &RecentFilesMenu::openRequested, this, &MainWindow::openScenario);
    file->addAction(tr("&Save scenario as\u2026"), QKeySequence::SaveAs, this, &MainWindow::saveScenarioAs);
    file->addSeparator();
    file->addAction(tr("&Export timeline figure\u2026"), this,
                    [this] { exportFigure(m_resultsPage->timeline(), tr("Timeline")); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run scenario"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                   &MainWindow::runCurrentScenario);
    run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), m_controller, &SimulationController::cancel);
    QAction* live = run->addAction(tr("&Live what-if (re-run after edits)"));
    live->setCheckable(true);
    live->setChecked(m_live);
    connect(live, &QAction::toggled, this, [this](bool on) {
        m_live = on;
        settings::liveWhatIf.set(on);
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* presentation = view->addAction(tr("&Presentation theme"));
    presentation->setCheckable(true);
    presentation->setChecked(m_theme.name == QLatin1String("presentation"));
    connect(presentation, &QAction::toggled, this, &MainWindow::setPresentationTheme);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About the model"), this, [this] { showPage(QStringLiteral("learn")); });
    help->addAction(tr("About &Carbon3D"), this, [this] {
        QMessageBox::about(
            this, tr("About Carbon3D"),
            tr("<p><b>Carbon3D %1</b>: a what-if studio for carbon-aware training of large models.</p>"
               "<p>Carbon-intensity data: contains information from the Electricity Maps Data Portal "
               "(ODbL 1.0). Validation data: Megatron-LM SC21 Table 1; vTrain (MIT).</p>")
                .arg(QStringLiteral(CARBON3D_VERSION)));
    });
}

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

void MainWindow::openScenario(const QString& path) {
    if (refuseDatabaseFile(path)) {
        Q_EMIT scenarioLoaded(false, tr("%1 is the open results database").arg(path));
        return;
    }
    m_scenarioRequested = true;
    m_files->loadScenario(path); // the newest request wins (FileTasks::loadScenario)
}

void MainWindow::applyScenario(const QString& path, const Scenario& scenario) {
    m_scenarioPath = path;
    m_scenarioPage->setScenario(scenario);
    m_resultsPage->preview(scenario);
    m_studyPage->setScenario(scenario);
    m_controller->estimateStaticMaxHours(scenario);
    m_controller->searchConfigurations(scenario);
    m_recentMenu->add(path);
    settings::lastDirectory.set(QFileInfo(path).absolutePath());
    const QString message = tr("Loaded %1").arg(describeScenario(scenario));
    statusBar()->showMessage(message);
    setWindowTitle(tr("%1 \u2013 Carbon3D").arg(QString::fromStdString(scenario.name)));
    Q_EMIT scenarioLoaded(true, message);
}

void MainWindow::runCurrentScenario() {
    if (m_controller->isRunning())
        return;
    const QStringList errors = m_scenarioPage->validationErrors();
    if (!errors.isEmpty()) {
        statusBar()->showMessage(errors.join(QStringLiteral("; ")));
        return;
    }
    m_scenarioPage->setRunning(true);
    statusBar()->showMessage(tr("Running\u2026"));
    const Scenario scenario = m_scenarioPage->scenario();
    // The name follows the form (a region or start changed since loading it): the title says what runs.
    setWindowTitle(tr("%1 \u2013 Carbon3D").arg(QString::fromStdString(scenario.name)));
    m_controller->start(scenario);
}

void MainWindow::showOutcome(const SimulationOutcome& outcome) {
    m_scenarioPage->setRunning(false);
    m_scenarioPage->setStaticMaxHours(outcome.prepared.staticMaxHours, mostActiveGpus(outcome.prepared.menu));
    m_resultsPage->showBatch(outcome.prepared, outcome.runs, outcome.warnings);
    m_tabs->setCurrentWidget(m_resultsPage);
    statusBar()->showMessage(
        tr("%n policies simulated in %1 s", nullptr, static_cast<int>(outcome.runs.size()))
            .arg(outcome.elapsedSeconds, 0, 'f', 2));
    Q_EMIT runsShown(static_cast<int>(outcome.runs.size()));
}

bool MainWindow::showPage(const QString& name) {
    // Every page names itself ("results", "compare", ...): a new tab is reachable without code here.
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->objectName() == name) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void MainWindow::compareLastRuns() {
    m_comparePage->compareWhenListed(m_lastRunIds);
    m_store->listRuns();
}

void MainWindow::saveScenarioAs() {
    const QString path = chooseSaveFile(
        this, tr("Save scenario"), m_scenarioPath.isEmpty() ? settings::lastDirectory.get() : m_scenarioPath,
        tr("Scenarios (*.json)"));
    if (!path.isEmpty())
        m_files->saveScenario(m_scenarioPage->scenario(), path);
}

void MainWindow::exportFigure(QCustomPlot* plot, const QString& title) {
    const QString suggested =
        QDir(exportDirectory())
            .filePath(title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".png"));
    ExportDialog dialog(suggested, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QStringList runIds;
    if (plot == m_resultsPage->timeline()) // only the timeline draws the runs of the last batch
        for (const RunId id : m_lastRunIds)
            runIds << QString::number(id);
    const FigureMetadata metadata{title, m_resultsPage->scenarioName(), runIds};
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

void MainWindow::endRun(const QString& status) {
    m_scenarioPage->setRunning(false);
    m_resultsPage->setProgress(1.0, QString());
    statusBar()->showMessage(status);
}

void MainWindow::setPresentationTheme(bool on) {
    m_theme = on ? presentationTheme() : screenTheme();
    settings::presentationTheme.set(on);
    m_resultsPage->setTheme(m_theme);
    m_comparePage->setTheme(m_theme);
    m_configurationsPage->setTheme(m_theme);
}

void MainWindow::openDatabase(const QString& path) {
    settings::databasePath.set(path);
    m_store->open(path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_controller->cancel();
    settings::windowGeometry.set(saveGeometry());
    settings::windowState.set(saveState());
    settings::splitterState.set(m_splitter->saveState());
    event->accept();
}

} // namespace carbon3d::ui
