// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FigureKinds.h"
#include "plots/PlotTheme.h"
#include "storage/StoredRun.h"
#include "storage/StoredStudy.h"

#include <QMainWindow>
#include <QTimer>

class QCustomPlot;
class QSplitter;
class QTabWidget;

namespace carbon3d {
struct Scenario;
}

namespace carbon3d::ui {

class ComparePage;
class ConfigurationsPage;
class FileTasks;
class LearnPage;
class RecentFilesMenu;
class ResultsPage;
class ResultsStoreWorker;
class ScenarioPage;
class SimulationController;
class StudyController;
class StudyPage;
struct SimulationOutcome;

// Composes the pages and wires their signals; every piece of work goes to a page, the simulation
// controller or a core function (docs/ARCHITECTURE.md, "UI conventions").
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // dataDir holds sample_data (traces/, scenarios/); docsDir the Markdown docs linked from Learn;
    // databasePath the results store, chosen by the caller (app/main_gui.cpp: --db, else the user's data
    // directory); empty: runs are not saved.
    explicit MainWindow(QString dataDir, QString docsDir = {}, const QString& databasePath = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a scenario file without blocking the GUI thread; scenarioLoaded() reports the outcome.
    void openScenario(const QString& path);
    void runCurrentScenario();
    // "results", "compare", "configurations", "learn"
    bool showPage(const QString& name);
    // Selects the runs of the last batch on the Compare page and compares them (baseline: the first).
    void compareLastRuns();

    ScenarioPage* scenarioPage() const { return m_scenarioPage; }
    ResultsPage* resultsPage() const { return m_resultsPage; }
    ComparePage* comparePage() const { return m_comparePage; }
    ConfigurationsPage* configurationsPage() const { return m_configurationsPage; }
    LearnPage* learnPage() const { return m_learnPage; }
    StudyPage* studyPage() const { return m_studyPage; }
    StudyController* studies() const { return m_studies; }
    ResultsStoreWorker* store() const { return m_store; }
    SimulationController* controller() const { return m_controller; }

    // Where exports start: the last export's folder, else the user's documents folder (never the
    // program's sample data, where scenarios are often opened from).
    static QString exportDirectory();

Q_SIGNALS:
    void scenarioLoaded(bool ok, const QString& message);
    void runsShown(int runCount);
    void runFailed(const QString& message);
    void runsSaved(int count);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildPages();
    void buildMenus();
    void connectScenarioPage();
    void connectController();
    void connectResultsStore(); // MainWindowStore.cpp
    void restoreWindow();
    void connectFileTasks();
    // The Study page's requests to the study controller and the store (MainWindowStudy.cpp).
    void connectStudyPage();
    void connectStudyLoading(); // estimating the form's study, or a study file (MainWindowStudy.cpp)
    void connectStudyRun();     // running, saving and cancelling the loaded study (MainWindowStudy.cpp)
    void connectSavedStudies(); // listing and reopening saved studies and their cells (MainWindowStudy.cpp)
    void applyScenario(const QString& path, const Scenario& scenario);
    // The scenario in the form (from `path`, or none), the title and the form's estimates following it.
    void putScenarioInForm(const QString& path, const Scenario& scenario);
    void showOpenedCell(const SimulationOutcome& outcome);
    void showOutcome(const SimulationOutcome& outcome);
    void saveScenarioAs();
    QString proposedScenarioPath() const; // where "Save scenario as" opens
    void exportFigure(QCustomPlot* plot, FigureKind kind);
    void importTrace(const QString& path);
    // Refuses (with a message) to read the open results database as a scenario or trace; true if refused.
    bool refuseDatabaseFile(const QString& path);
    // The banner over results that no longer match the form: what changed and what comes next, promising a
    // re-run only when one will come (live what-if on, the form valid, no cancel since the last edit).
    void showStaleNotice();
    // The form takes edits once a scenario is in it (or none could be loaded); a Run asked for before then
    // runs now.
    void enableScenarioForm();
    // Live what-if's re-run after edits (or after a run the form changed under), when it may run.
    void rerunLive();
    // Re-enables the form after a run that failed or was cancelled.
    void endRun(const QString& status);
    void setPresentationTheme(bool on);
    void openDatabase(const QString& path);
    void exportSeries();

    QString m_dataDir;
    QString m_docsDir;
    QString m_scenarioPath;
    bool m_scenarioRequested = false; // any scenario asked for (then the default is not loaded at start)
    ScenarioPage* m_scenarioPage = nullptr;
    ResultsPage* m_resultsPage = nullptr;
    LearnPage* m_learnPage = nullptr;
    ComparePage* m_comparePage = nullptr;
    ConfigurationsPage* m_configurationsPage = nullptr;
    StudyPage* m_studyPage = nullptr;
    StudyController* m_studies = nullptr;
    StudyId m_studyId = 0;             // the running study's row in the store (0: not saved)
    std::size_t m_studySavedCells = 0; // the running study's cells in the store, resumed ones included
    StudyId m_studyFileToReload = 0;   // a reopened study whose file is read again with its first view
    QString m_studySaveError;          // why the running study stopped saving (empty: it did not)
    QString m_chosenStudyFile; // the study file last opened on the Study page (not one the form wrote)
    ResultsStoreWorker* m_store = nullptr;
    std::vector<RunId> m_lastRunIds; // results-store ids of the runs on the Results page
    QTabWidget* m_tabs = nullptr;
    QSplitter* m_splitter = nullptr;
    RecentFilesMenu* m_recentMenu = nullptr;
    SimulationController* m_controller = nullptr;
    FileTasks* m_files = nullptr; // the studio's file reads and writes, off the GUI thread
    QTimer m_liveTimer;           // debounces live what-if re-runs
    // Which state of the form the results belong to: each edit (or scenario applied) is a new revision; a
    // run records the one it started from, and results showing an older one than the form's are stale.
    int m_formRevision = 0;
    int m_runRevision = 0;
    // What a failure's message calls the run's scenario instead of its file ("FILE: "), when the form was
    // edited past what the file's scenario name says: empty when the file is still what ran.
    QString m_runFilePrefix;
    QString m_runEditedName;
    int m_shownRevision = 0;
    bool m_runWhenLoaded = false; // Run asked for before the first scenario was in the form
    bool m_rerunHeld = false; // cancelled since the last edit: live what-if waits for the next edit or Run
    bool m_live = true;
    PlotTheme m_theme;
};

} // namespace carbon3d::ui
