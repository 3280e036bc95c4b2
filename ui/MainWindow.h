// SPDX-License-Identifier: MIT
#pragma once

#include "plots/PlotTheme.h"

#include <QMainWindow>
#include <QTimer>

class QCustomPlot;
class QMenu;
class QSplitter;
class QTabWidget;

namespace carbon3d {
struct Scenario;
}

namespace carbon3d::ui {

class LearnPage;
class ResultsPage;
class ScenarioPage;
class SimulationController;
struct SimulationOutcome;

// Composes the pages and wires their signals; every piece of work goes to a page, the simulation
// controller or a core function (STYLE.md "Small windows").
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // dataDir holds sample_data (traces/, scenarios/); docsDir the Markdown docs linked from Learn.
    explicit MainWindow(const QString& dataDir, const QString& docsDir = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a scenario file without blocking the GUI thread; scenarioLoaded() reports the outcome.
    void openScenario(const QString& path);
    void runCurrentScenario();
    // "results", "compare", "configurations", "learn"
    bool showPage(const QString& name);

    ScenarioPage* scenarioPage() const { return m_scenarioPage; }
    ResultsPage* resultsPage() const { return m_resultsPage; }
    SimulationController* controller() const { return m_controller; }

Q_SIGNALS:
    void scenarioLoaded(bool ok, const QString& message);
    void runsShown(int runCount);
    void runFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void loadDataDirectory();
    void applyScenario(const Scenario& scenario, const QString& path);
    void showOutcome(const SimulationOutcome& outcome);
    void saveScenarioAs();
    void exportFigure(QCustomPlot* plot, const QString& title);
    void importTrace(const QString& path);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void setPresentationTheme(bool on);

    QString m_dataDir;
    QString m_docsDir;
    QString m_scenarioPath;
    ScenarioPage* m_scenarioPage = nullptr;
    ResultsPage* m_resultsPage = nullptr;
    LearnPage* m_learnPage = nullptr;
    QTabWidget* m_tabs = nullptr;
    QSplitter* m_splitter = nullptr;
    QMenu* m_recentMenu = nullptr;
    SimulationController* m_controller = nullptr;
    QTimer m_liveTimer; // debounces live what-if re-runs
    bool m_live = true;
    PlotTheme m_theme;
};

} // namespace carbon3d::ui
