// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "ExportDialog.h"
#include "FileDialogs.h"
#include "Settings.h"
#include "config/ConfigFiles.h"
#include "config/ScenarioHash.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "models/MetricsTableModel.h"
#include "pages/ComparePage.h"
#include "pages/ConfigurationsPage.h"
#include "pages/LearnPage.h"
#include "pages/ResultsPage.h"
#include "pages/ScenarioPage.h"
#include "plots/FigureExporter.h"
#include "storage/ResultsStore.h"
#include "storage/RunCsv.h"
#include "traces/TraceLoader.h"
#include "workers/BackgroundLoads.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/SimulationController.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>
#include <optional>

namespace carbon3d::ui {

namespace {

QString describeScenario(const Scenario& s) {
    const QLocale locale;
    QString region =
        s.regions.empty() ? QStringLiteral("?") : QString::fromStdString(s.regions.front().regionId);
    QString traceText;
    if (!s.regions.empty() && !s.regions.front().trace.empty()) {
        const CarbonTrace& t = s.regions.front().trace;
        traceText = QObject::tr(", trace %1 slots of %2 min")
                        .arg(locale.toString(static_cast<qulonglong>(t.size())))
                        .arg(t.stepSeconds / 60);
    }
    return QObject::tr("%1: %2, %3 B tokens on %4 \u00d7 %5 in %6 from %7%8")
        .arg(QString::fromStdString(s.name), QString::fromStdString(s.job.model.name))
        .arg(s.job.tokens / 1e9, 0, 'f', 1)
        .arg(locale.toString(s.gpus), QString::fromStdString(s.cluster.name), region,
             QString::fromStdString(formatIsoUtc(s.startUtc)).left(10), traceText);
}

} // namespace

MainWindow::MainWindow(const QString& dataDir, const QString& docsDir, const QString& databasePath,
                       QWidget* parent)
    : QMainWindow(parent)
    , m_dataDir(dataDir)
    , m_docsDir(docsDir)
    , m_theme(settings::presentationTheme.get() ? presentationTheme() : screenTheme()) {
    setWindowTitle(tr("Carbon3D \u2013 carbon-aware training studio"));
    setWindowIcon(QIcon(QStringLiteral(":/carbon3d/icons/carbon3d.svg")));
    m_controller = new SimulationController(this);
    m_scenarioPage = new ScenarioPage(this);
    m_resultsPage = new ResultsPage(this);
    m_learnPage = new LearnPage(this);
    m_comparePage = new ComparePage(this);
    m_store = new ResultsStoreWorker(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_resultsPage, tr("Results"));
    m_tabs->addTab(m_comparePage, tr("Compare"));
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

    std::vector<PolicyChoice> policies;
    for (const PolicyInfo& info : policyCatalog()) {
        PolicyChoice choice{QString::fromStdString(info.name),
                            QString::fromStdString(info.description),
                            QString::fromStdString(info.source),
                            {}};
        for (const PolicyOptionInfo& option : info.options)
            choice.options.push_back(
                {QString::fromStdString(option.key), QString::fromStdString(option.defaultValue),
                 QString::fromStdString(option.description), QString::fromStdString(acceptedValues(option))});
        policies.push_back(std::move(choice));
    }
    m_scenarioPage->setPolicyChoices(policies);
    loadDataDirectory();

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
        if (m_live && m_resultsPage->metrics()->rowCount() > 0)
            m_liveTimer.start(); // restart: only the last edit of a burst re-runs
    });
    connect(m_scenarioPage, &ScenarioPage::jobOrClusterChanged, this, [this] {
        const Scenario scenario = m_scenarioPage->scenario();
        m_controller->estimateStaticMaxHours(scenario);
        refreshConfigurations(scenario);
    });
    connect(m_configurationsPage, &ConfigurationsPage::exportRequested, this, &MainWindow::exportFigure);
    connect(m_controller, &SimulationController::staticMaxHoursEstimated, m_scenarioPage,
            &ScenarioPage::setStaticMaxHours);
    connect(m_controller, &SimulationController::progressChanged, m_resultsPage, &ResultsPage::setProgress);
    connect(m_controller, &SimulationController::finished, this, &MainWindow::showOutcome);
    connect(m_controller, &SimulationController::failed, this, [this](const QString& message) {
        m_scenarioPage->setRunning(false);
        m_resultsPage->setProgress(1.0, QString());
        statusBar()->showMessage(tr("Run failed: %1").arg(message));
        Q_EMIT runFailed(message);
    });
    connect(m_controller, &SimulationController::cancelled, this, [this] {
        m_scenarioPage->setRunning(false);
        m_resultsPage->setProgress(1.0, QString());
        statusBar()->showMessage(tr("Run cancelled"));
    });
    connect(m_resultsPage, &ResultsPage::exportRequested, this, &MainWindow::exportFigure);
    connect(m_resultsPage, &ResultsPage::seriesExportRequested, this, &MainWindow::exportSeries);
    connect(m_learnPage, &LearnPage::openScenarioRequested, this, &MainWindow::openScenario);

    // Results store: every finished batch is saved; the Compare page reads and edits through the worker.
    connect(m_controller, &SimulationController::finished, this, &MainWindow::saveRunsToStore);
    connect(m_store, &ResultsStoreWorker::opened, this, [this](bool ok, const QString& message) {
        if (ok) {
            m_store->listRuns();
            return;
        }
        // A corrupt or foreign file is reported and left untouched; offer a new database beside it.
        const QString fresh =
            QFileInfo(m_store->path()).absolutePath() +
            QStringLiteral("/results-%1.sqlite")
                .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")));
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
        m_lastRunIds.clear();
        for (const RunId id : ids)
            m_lastRunIds << QString::number(id);
        m_store->listRuns();
        Q_EMIT runsSaved(static_cast<int>(ids.size()));
    });
    connect(m_store, &ResultsStoreWorker::listed, this, [this](const std::vector<RunSummary>& runs) {
        m_comparePage->setRuns(runs);
        if (m_pendingCompareIds.size() >= 2) { // a comparison asked for before these runs were listed
            m_comparePage->selectRuns(m_pendingCompareIds);
            m_comparePage->compareButton()->click();
        }
        m_pendingCompareIds.clear();
    });
    connect(m_store, &ResultsStoreWorker::loaded, this,
            [this](const std::vector<StoredRun>& runs) { m_loadedForCompare = runs; });
    connect(m_store, &ResultsStoreWorker::compared, this, [this](const std::vector<RunComparison>& rows) {
        m_comparePage->showComparison(m_loadedForCompare, rows);
        m_loadedForCompare.clear();
    });
    connect(m_store, &ResultsStoreWorker::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Results database: %1").arg(message));
    });
    connect(m_comparePage, &ComparePage::refreshRequested, m_store, &ResultsStoreWorker::listRuns);
    connect(m_comparePage, &ComparePage::compareRequested, this,
            [this](const std::vector<RunId>& ids, RunId baseline) {
                m_store->loadRuns(ids);
                m_store->compareRuns(ids, baseline);
            });
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
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
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

void MainWindow::loadDataDirectory() {
    // Listing and reading files is I/O: done on the pool, applied on the GUI thread. The default
    // scenario is opened afterwards so that its region matches a bundled trace entry.
    auto future =
        QtConcurrent::run(&m_controller->pool(), [dir = m_dataDir] { return scanDataDirectory(dir); });
    future.then(this, [this](const DataDirectoryContents& contents) {
        m_scenarioPage->setTraceChoices(contents.traces);
        m_learnPage->setLessons(contents.lessons);
        m_learnPage->setDocsDirectory(m_docsDir);
        const QString defaultScenario = QDir(m_dataDir).filePath(QStringLiteral("scenarios/default.json"));
        statusBar()->showMessage(tr("Loading %1\u2026").arg(defaultScenario));
        openScenario(defaultScenario);
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
    auto future = QtConcurrent::run(&m_controller->pool(), [path] {
        return loadCatching<Scenario>([&] { return loadScenario(path.toStdString()); });
    });
    future.then(this, [this, path](const Loaded<Scenario>& loaded) {
        if (!loaded.value) {
            statusBar()->showMessage(tr("Could not open %1").arg(path));
            QMessageBox::warning(this, tr("Cannot open scenario"), loaded.error);
            Q_EMIT scenarioLoaded(false, loaded.error);
            return;
        }
        applyScenario(*loaded.value, path);
    });
}

void MainWindow::applyScenario(const Scenario& scenario, const QString& path) {
    m_scenarioPath = path;
    m_scenarioPage->setScenario(scenario);
    m_resultsPage->clear();
    m_controller->estimateStaticMaxHours(scenario);
    refreshConfigurations(scenario);
    addRecentFile(path);
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
    m_controller->start(m_scenarioPage->scenario());
}

void MainWindow::showOutcome(const SimulationOutcome& outcome) {
    m_scenarioPage->setRunning(false);
    m_scenarioPage->setStaticMaxHours(outcome.prepared.staticMaxHours);
    const Scenario& scenario = outcome.prepared.scenario;
    std::vector<PlottedRun> runs;
    for (const RunResult& run : outcome.runs)
        runs.push_back({QString::fromStdString(run.policy), run});
    const CarbonTrace& trace = scenario.regions.front().trace;
    const UtcSeconds deadline = outcome.prepared.input.deadlineUtc;
    m_resultsPage->timeline()->setMenu(outcome.prepared.menu, outcome.prepared.input.pue);
    m_resultsPage->showRuns(QString::fromStdString(scenario.name), trace, scenario.startUtc,
                            deadline + (deadline - scenario.startUtc) / 20, std::move(runs), deadline);
    m_tabs->setCurrentWidget(m_resultsPage);
    statusBar()->showMessage(
        tr("%n policies simulated in %1 s", nullptr, static_cast<int>(outcome.runs.size()))
            .arg(outcome.elapsedSeconds, 0, 'f', 2));
    Q_EMIT runsShown(static_cast<int>(outcome.runs.size()));
}

bool MainWindow::showPage(const QString& name) {
    QWidget* page = nullptr;
    if (name == QLatin1String("results"))
        page = m_resultsPage;
    else if (name == QLatin1String("compare"))
        page = m_comparePage;
    else if (name == QLatin1String("configurations"))
        page = m_configurationsPage;
    else if (name == QLatin1String("learn"))
        page = m_learnPage;
    for (int i = 0; page == nullptr && i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->objectName() == name)
            page = m_tabs->widget(i);
    }
    if (page == nullptr)
        return false;
    m_tabs->setCurrentWidget(page);
    return true;
}

void MainWindow::compareLastRuns() {
    // The list of runs may not hold the batch yet: compare once the store has listed them.
    m_pendingCompareIds.clear();
    for (const QString& id : std::as_const(m_lastRunIds))
        m_pendingCompareIds.push_back(id.toLongLong());
    m_store->listRuns();
}

void MainWindow::saveScenarioAs() {
    const QString path = chooseSaveFile(
        this, tr("Save scenario"), m_scenarioPath.isEmpty() ? settings::lastDirectory.get() : m_scenarioPath,
        tr("Scenarios (*.json)"));
    if (path.isEmpty())
        return;
    const Scenario scenario = m_scenarioPage->scenario();
    const std::string text = toJson(scenario, QFileInfo(path).absolutePath().toStdString()).dump(2) + "\n";
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit()) {
        QMessageBox::warning(this, tr("Cannot save scenario"), tr("%1: %2").arg(path, file.errorString()));
        return;
    }
    m_scenarioPath = path;
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path));
}

void MainWindow::exportFigure(QCustomPlot* plot, const QString& title) {
    const QString suggested =
        QDir(settings::lastDirectory.get())
            .filePath(title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".png"));
    ExportDialog dialog(suggested, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    FigureMetadata metadata;
    metadata.title = title;
    metadata.scenarioName = m_resultsPage->scenarioName();
    if (plot == m_resultsPage->timeline())
        metadata.runIds = m_lastRunIds;
    if (dialog.presentationTheme())
        applyTheme(*plot, presentationTheme());
    const QString problem = ui::exportFigure(*plot, dialog.path(), dialog.size(), metadata);
    if (dialog.presentationTheme())
        applyTheme(*plot, m_theme);
    plot->replot(QCustomPlot::rpQueuedReplot);
    if (!problem.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), problem);
    else
        statusBar()->showMessage(tr("Exported %1").arg(dialog.path()));
}

void MainWindow::exportSeries() {
    const std::vector<PlottedRun>& shown = m_resultsPage->timeline()->runs();
    if (shown.empty()) {
        statusBar()->showMessage(tr("Nothing to export: run a scenario first"));
        return;
    }
    const QString directory =
        chooseDirectory(this, tr("Export series CSV into"), settings::lastDirectory.get());
    if (directory.isEmpty())
        return;
    std::vector<RunResult> runs;
    for (const PlottedRun& run : shown)
        runs.push_back(run.result);
    std::vector<std::string> regionIds;
    for (const RegionSpec& region : m_scenarioPage->scenario().regions)
        regionIds.push_back(region.regionId);
    // Writing files is I/O: off the GUI thread.
    auto future = QtConcurrent::run(&m_controller->pool(), [runs, regionIds, dir = directory.toStdString()] {
        return loadCatching<int>([&] {
            for (std::size_t i = 0; i < runs.size(); ++i)
                writeRunCsvFiles(runs[i], regionIds, dir, std::to_string(i + 1) + "-" + runs[i].policy + "-");
            return static_cast<int>(runs.size());
        });
    });
    future.then(this, [this, directory](const Loaded<int>& written) {
        statusBar()->showMessage(written.value
                                     ? tr("Exported %n run(s) to %1", nullptr, *written.value).arg(directory)
                                     : tr("Export failed: %1").arg(written.error));
    });
}

void MainWindow::importTrace(const QString& path) {
    if (refuseDatabaseFile(path))
        return;
    statusBar()->showMessage(tr("Importing %1\u2026").arg(path));
    auto future = QtConcurrent::run(&m_controller->pool(), [path] {
        return loadCatching<CarbonTrace>([&] { return loadCarbonTrace(path.toStdString()); });
    });
    future.then(this, [this, path](const Loaded<CarbonTrace>& loaded) {
        if (!loaded.value) {
            m_scenarioPage->rejectImportedTrace(loaded.error);
            statusBar()->showMessage(tr("Import failed: %1").arg(path));
            return;
        }
        const QString region = QString::fromStdString(loaded.value->regionId);
        m_scenarioPage->acceptImportedTrace(
            {tr("%1 (imported)").arg(region.isEmpty() ? QFileInfo(path).completeBaseName() : region), path,
             region},
            *loaded.value);
        statusBar()->showMessage(tr("Imported %1: %2 slots").arg(path).arg(loaded.value->size()));
    });
}

void MainWindow::addRecentFile(const QString& path) {
    QStringList recent = settings::recentScenarios.get();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 8)
        recent.removeLast();
    settings::recentScenarios.set(recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = settings::recentScenarios.get();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openScenario(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::setPresentationTheme(bool on) {
    m_theme = on ? presentationTheme() : screenTheme();
    settings::presentationTheme.set(on);
    m_resultsPage->setTheme(m_theme);
    m_comparePage->setTheme(m_theme);
    m_configurationsPage->setTheme(m_theme);
}

void MainWindow::refreshConfigurations(const Scenario& scenario) {
    const quint64 generation = ++m_landscapeGeneration;
    auto future = QtConcurrent::run(&m_controller->pool(),
                                    [job = scenario.job, cluster = scenario.cluster, gpus = scenario.gpus] {
                                        return loadCatching<ConfigurationLandscape>(
                                            [&] { return configurationLandscape(job, cluster, gpus); });
                                    });
    const QString title = QStringLiteral("%1 on %2 \u00d7 %3")
                              .arg(QString::fromStdString(scenario.job.model.name))
                              .arg(scenario.gpus)
                              .arg(QString::fromStdString(scenario.cluster.name));
    const double memory = scenario.cluster.accelerator.memoryBytes;
    future.then(this, [this, generation, title, memory](const Loaded<ConfigurationLandscape>& loaded) {
        if (generation != m_landscapeGeneration)
            return; // a newer edit superseded this search
        if (loaded.value)
            m_configurationsPage->showLandscape(*loaded.value, title, memory);
        else
            statusBar()->showMessage(tr("Configuration search failed: %1").arg(loaded.error));
    });
}

void MainWindow::openDatabase(const QString& path) {
    settings::databasePath.set(path);
    m_store->open(path);
}

void MainWindow::saveRunsToStore(const SimulationOutcome& outcome) {
    const Scenario& scenario = outcome.prepared.scenario;
    StoredScenario stored{scenario.name, canonicalJson(scenario), scenarioHash(scenario)};
    m_store->saveRuns(stored, outcome.runs, storedTracesOf(scenario));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_controller->cancel();
    settings::windowGeometry.set(saveGeometry());
    settings::windowState.set(saveState());
    settings::splitterState.set(m_splitter->saveState());
    event->accept();
}

} // namespace carbon3d::ui
