// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "FileDialogs.h"
#include "RecentFilesMenu.h"
#include "Settings.h"
#include "WindowGeometry.h"
#include "models/MetricsTableModel.h"
#include "pages/ComparePage.h"
#include "pages/ConfigurationsPage.h"
#include "pages/LearnPage.h"
#include "pages/ResultsPage.h"
#include "pages/ScenarioPage.h"
#include "pages/StudyPage.h"
#include "workers/FileTasks.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/SimulationController.h"
#include "workers/StudyController.h"

#include <QCloseEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSplitter>
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
    buildPages();
    m_resultsPage->setTheme(m_theme);
    m_live = settings::liveWhatIf.get();
    buildMenus();

    m_scenarioPage->setPolicyChoices(policyChoicesFromCatalogue());
    connectFileTasks();
    connectStudyPage();
    // The default scenario is opened once the data directory is listed, so that its region matches a
    // bundled trace entry (see dataDirectoryScanned). Until a scenario is in the form, the form takes no
    // edits (issue 43: on a loaded machine a region picked while the default loaded was overwritten by it,
    // and Ctrl+R then ran California); a Run asked for meanwhile runs once it is there.
    m_scenarioPage->setEnabled(false);
    m_files->scanDataDirectory(m_dataDir);

    m_liveTimer.setSingleShot(true);
    m_liveTimer.setInterval(700);
    connect(&m_liveTimer, &QTimer::timeout, this, &MainWindow::rerunLive);
    connectScenarioPage();
    connectController();
    connectResultsStore();
    // The caller chooses the file (app/main_gui.cpp: --db, else app::defaultDatabasePath()); without one the
    // studio runs but saves nothing (the store worker answers "no results database is open").
    if (databasePath.isEmpty())
        statusBar()->showMessage(tr("Runs are not being saved: no results database was given"));
    else
        openDatabase(databasePath);
    restoreWindow();
}

// The workers and pages, and how they sit: the scenario form beside the tabs of the other pages.
void MainWindow::buildPages() {
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
}

// The scenario form's requests: run, cancel, import; an edit marks the results stale (and re-runs them
// when live what-if is on) and a job or cluster edit re-estimates the runtime and the configurations.
void MainWindow::connectScenarioPage() {
    connect(m_scenarioPage, &ScenarioPage::runRequested, this, &MainWindow::runCurrentScenario);
    connect(m_scenarioPage, &ScenarioPage::cancelRequested, m_controller, &SimulationController::cancel);
    connect(m_scenarioPage, &ScenarioPage::importTraceRequested, this, &MainWindow::importTrace);
    connect(m_scenarioPage, &ScenarioPage::scenarioEdited, this, [this] {
        ++m_formRevision;
        m_rerunHeld = false; // an edit after a cancel is a new request
        if (m_controller->isRunning()) {
            // What this run brings back is for the settings it started from: said at once, re-run at its end.
            showStaleNotice();
            return;
        }
        if (!m_resultsPage->hasResults()) {
            // No results yet: the preview follows the region and start (issue 15, item 11).
            const QString unloaded = m_scenarioPage->unloadedTracePath();
            if (unloaded.isEmpty())
                m_resultsPage->preview(m_scenarioPage->scenario());
            else
                m_files->loadPreviewTrace(unloaded);
            return;
        }
        showStaleNotice();
        if (m_live)
            m_liveTimer.start(); // restart: only the last edit of a burst re-runs
    });
    connect(m_scenarioPage, &ScenarioPage::jobOrClusterChanged, this, [this] {
        const Scenario scenario = m_scenarioPage->scenario();
        m_controller->estimateStaticMaxHours(scenario);
        m_controller->searchConfigurations(scenario);
    });
}

// The simulation controller's answers reach the pages; the pages' exports and links come back here.
void MainWindow::connectController() {
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
    // The answer above the results: the policy in focus and the baseline at both ends of the attribution.
    connect(m_resultsPage, &ResultsPage::answerRequested, m_controller,
            &SimulationController::answerAtBothEnds);
    connect(m_controller, &SimulationController::answerFound, m_resultsPage, &ResultsPage::showAnswer);
    connect(m_controller, &SimulationController::answerFailed, m_resultsPage, &ResultsPage::showAnswerFailed);
    connect(m_controller, &SimulationController::failed, this, [this](const QString& reported) {
        // An error about the scenario names its file; an edited form is not that file's scenario any more
        // (a job too long for its trace read "default.json: ..." after the tokens were raised).
        const QString message =
            !m_runFilePrefix.isEmpty() && reported.startsWith(m_runFilePrefix)
                ? tr("the edited scenario \u201c%1\u201d (from %2): %3")
                      .arg(m_runEditedName, m_runFilePrefix.chopped(2), reported.mid(m_runFilePrefix.size()))
                : reported;
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
    connect(m_controller, &SimulationController::cancelled, this, [this] {
        endRun(tr("Run cancelled"));
        // A cancel is an answer: no re-run comes until the next edit or Run, and the banner says so.
        m_liveTimer.stop();
        m_rerunHeld = true;
        if (m_resultsPage->hasResults() && m_shownRevision != m_formRevision)
            showStaleNotice();
    });
    connect(m_resultsPage, &ResultsPage::exportRequested, this, &MainWindow::exportFigure);
    connect(m_resultsPage, &ResultsPage::seriesExportRequested, this, &MainWindow::exportSeries);
    connect(m_learnPage, &LearnPage::openScenarioRequested, this, &MainWindow::openScenario);
}

// The window's geometry, state and splitter as the last session left them (a first start: 1600 x 1000),
// fitted to the screen it opens on (issue 43: on 1280 x 800 the Run button and the results table were off
// screen).
void MainWindow::restoreWindow() {
    restoreGeometry(settings::windowGeometry.get());
    restoreState(settings::windowState.get());
    if (!settings::splitterState.get().isEmpty())
        m_splitter->restoreState(settings::splitterState.get());
    else
        m_splitter->setSizes({440, 1160});
    if (settings::windowGeometry.get().isEmpty())
        resize(kPreferredWindowSize);
    const QScreen* screen = this->screen() != nullptr ? this->screen() : QGuiApplication::primaryScreen();
    if (screen != nullptr)
        setGeometry(fittedWindowGeometry(geometry(), screen->availableGeometry()));
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
                    [this] { exportFigure(m_resultsPage->timeline(), FigureKind::Timeline); });
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

void MainWindow::applyScenario(const QString& path, const Scenario& scenario) {
    putScenarioInForm(path, scenario);
    m_resultsPage->preview(scenario);
    m_studyPage->setScenario(scenario);
    m_recentMenu->add(path);
    settings::lastDirectory.set(QFileInfo(path).absolutePath());
    const QString message = tr("Loaded %1").arg(describeScenario(scenario));
    statusBar()->showMessage(message);
    enableScenarioForm();
    Q_EMIT scenarioLoaded(true, message);
}

void MainWindow::putScenarioInForm(const QString& path, const Scenario& scenario) {
    ++m_formRevision; // another scenario: a run going on now brings back the one before's results
    if (m_controller->isRunning())
        showStaleNotice();
    m_scenarioPath = path;
    m_scenarioPage->setScenario(scenario);
    m_controller->estimateStaticMaxHours(scenario);
    m_controller->searchConfigurations(scenario);
    setWindowTitle(tr("%1 \u2013 Carbon3D").arg(QString::fromStdString(scenario.name)));
}

// A study's cell opened (issue 43): its scenario in the form, as one read from no file, and its run beside
// its baseline's shown as the form's results, so that an edit re-runs exactly that cell.
void MainWindow::showOpenedCell(const SimulationOutcome& outcome) {
    putScenarioInForm(QString(), outcome.prepared.scenario);
    m_resultsPage->showBatch(outcome);
    m_shownRevision = m_formRevision;
    m_tabs->setCurrentWidget(m_resultsPage);
    statusBar()->showMessage(tr("Opened %1").arg(QString::fromStdString(outcome.prepared.scenario.name)));
}

void MainWindow::enableScenarioForm() {
    if (m_scenarioPage->isEnabled())
        return;
    m_scenarioPage->setEnabled(true);
    if (std::exchange(m_runWhenLoaded, false))
        runCurrentScenario();
}

void MainWindow::runCurrentScenario() {
    if (m_controller->isRunning())
        return;
    if (!m_scenarioPage->isEnabled()) {
        m_runWhenLoaded = true;
        statusBar()->showMessage(tr("Runs once the scenario has loaded"));
        return;
    }
    const QStringList errors = m_scenarioPage->validationErrors();
    if (!errors.isEmpty()) {
        statusBar()->showMessage(errors.join(QStringLiteral("; ")));
        return;
    }
    m_scenarioPage->setRunning(true);
    m_runRevision = m_formRevision;
    m_rerunHeld = false;
    statusBar()->showMessage(tr("Running\u2026"));
    const Scenario scenario = m_scenarioPage->scenario();
    const bool editedPastItsFile =
        !scenario.sourceFile.empty() && scenario.name != m_scenarioPage->loadedScenarioName();
    m_runFilePrefix =
        editedPastItsFile ? QString::fromStdString(scenario.sourceFile) + QStringLiteral(": ") : QString();
    m_runEditedName = QString::fromStdString(scenario.name);
    // The name follows the form (a region or start changed since loading it): the title says what runs.
    setWindowTitle(tr("%1 \u2013 Carbon3D").arg(QString::fromStdString(scenario.name)));
    m_controller->start(scenario);
}

void MainWindow::showOutcome(const SimulationOutcome& outcome) {
    m_scenarioPage->setRunning(false);
    m_scenarioPage->setStaticMaxHours(outcome.prepared.staticMaxHours, mostActiveGpus(outcome.prepared.menu));
    m_resultsPage->showBatch(outcome);
    m_shownRevision = m_runRevision;
    if (m_shownRevision != m_formRevision) {
        // The form changed while these ran (issue 43): marked at once, and re-run with the new settings.
        showStaleNotice();
        if (m_live)
            QTimer::singleShot(0, this, &MainWindow::rerunLive);
    }
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

void MainWindow::rerunLive() {
    if (m_controller->isRunning() || m_rerunHeld)
        return; // a running batch's outcome re-runs it (showOutcome); a cancel waits for the next edit
    if (m_scenarioPage->validationErrors().isEmpty())
        runCurrentScenario();
    else
        showStaleNotice(); // says what to fix, and no longer that a re-run is coming
}

void MainWindow::showStaleNotice() {
    const bool running = m_controller->isRunning();
    const QString what =
        running ? tr("The scenario changed while it ran: the results it brings are for the previous "
                     "settings.")
                : tr("The scenario changed: these results are for the previous settings.");
    QString next;
    if (const QStringList errors = m_scenarioPage->validationErrors(); !errors.isEmpty())
        next = tr("Fix the form to run it: %1").arg(errors.join(QStringLiteral("; ")));
    else if (m_rerunHeld)
        next = tr("The run was cancelled: Run (Ctrl+R) to update them.");
    else if (!m_live)
        next = tr("Run (Ctrl+R) to update them.");
    else if (running)
        next = tr("Live what-if re-runs it with the new settings when this run ends.");
    else
        next = tr("Live what-if re-runs it in a moment.");
    m_resultsPage->showNotice(ResultsPage::Notice::Stale, what + QLatin1Char(' ') + next);
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

void MainWindow::closeEvent(QCloseEvent* event) {
    m_controller->cancel();
    settings::windowGeometry.set(saveGeometry());
    settings::windowState.set(saveState());
    settings::splitterState.set(m_splitter->saveState());
    event->accept();
}

} // namespace carbon3d::ui
