// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"
#include "domain/Scenario.h"
#include "plots/FigureKinds.h"
#include "plots/StudyPlot.h"
#include "storage/StoredStudy.h"
#include "study/StudyFigures.h"
#include "study/StudyPlan.h"
#include "study/StudyTable.h"
#include "study/StudyView.h"

#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QGridLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;

namespace carbon3d::ui {

// The Study page (docs/STUDIES.md): the current scenario swept over axes picked by point and click (start
// range and step, a region checklist, a slack list, policies, who pays for parked GPUs, forecast error
// levels and seeds), its cell count and estimated time before it starts, progress and cancel while it runs,
// and the heatmap and CDF of savings filling in as cells finish; or a study file from disk, with any of
// the file's axes, estimated and run the same way. A click on a heatmap cell opens that cell in Results.
// Studies saved in the database are listed and reopen without running again. The page holds no simulation and
// no database: it asks by signal (MainWindow wires it to StudyController and the store).
class StudyPage : public QWidget {
    Q_OBJECT
public:
    explicit StudyPage(QWidget* parent = nullptr);

    // A newly opened scenario: the form's defaults follow it (its start, a month of daily starts, its
    // region).
    void setScenario(const Scenario& scenario);
    // The scenario the study is made of, as the form now shows it; the axes keep their values.
    void setBaseScenario(const Scenario& scenario) { m_scenario = scenario; }
    void setRegions(const std::vector<TraceChoice>& regions);
    // The study the form describes (core/study/StudyPlan.h writes its file and counts its cells).
    StudyPlan plan() const;
    // The scenario the study is made of (setBaseScenario).
    const Scenario& baseScenario() const { return m_scenario; }

    void showEstimate(int cells, double seconds);
    void setRunning(bool running);
    void setProgress(int done, int total);
    // A new study's table starts empty; finished cells are added as they come.
    void startTable(const std::vector<std::string>& columns);
    void addRows(const std::vector<StudyRow>& rows);
    // A saved study, reopened: the page holds none of its cells; it asks for each view of it
    // (studyViewRequested) and draws what comes back (showView), however large the study.
    void openSavedStudy(StudyId id);
    void showView(const StoredStudy& study, const StudyView& view, int request);
    void setStudies(const std::vector<StoredStudy>& studies);
    void showMessage(const QString& text);

    QPushButton* runButton() const { return m_run; }
    QPushButton* estimateButton() const { return m_estimate; }
    QPushButton* openFileButton() const { return m_openFile; }
    QListWidget* regionList() const { return m_regions; }
    QListWidget* policyList() const { return m_policies; }
    QLineEdit* slackEdit() const { return m_slack; }
    QDateTimeEdit* fromEdit() const { return m_from; }
    QDateTimeEdit* toEdit() const { return m_to; }
    QComboBox* studiesBox() const { return m_studies; }
    QComboBox* heatmapPolicyBox() const { return m_heatmapPolicy; }
    // The choice of the heatmap's value for an axis other than start, region and policy (by its first
    // column); null when the study shown has no such axis.
    QComboBox* facetBox(const std::string& axis) const;
    StudyPlot* heatmap() const { return m_heatmap; }
    StudyPlot* cdf() const { return m_cdf; }
    QPushButton* exportHeatmapButton() const { return m_exportHeatmap; }
    QPushButton* exportCdfButton() const { return m_exportCdf; }
    const StudyView& view() const { return m_view; } // what the figures show
    QLabel* estimateLabel() const { return m_estimateText; }
    QLabel* messageLabel() const { return m_message; }

Q_SIGNALS:
    void estimateRequested(); // load the form's study and time one cell per policy
    void openFileRequested(); // choose a study file, load it and time one cell per policy
    void runRequested();      // run the loaded (estimated) study
    void cancelRequested();
    void openStudyRequested(carbon3d::StudyId id);
    void openCellRequested(std::size_t index);
    // The view of saved study `id` under `choice`; `request` numbers it, so that only the newest is shown.
    void studyViewRequested(carbon3d::StudyId id, const carbon3d::StudyViewChoice& choice, int request);
    void exportRequested(QCustomPlot* plot, carbon3d::ui::FigureKind kind); // a figure to export, as chosen

private:
    // The form's groups, one above the other; it is scrolled in the left column.
    QWidget* buildForm();
    // From, to and every how many hours the study's runs start.
    QGroupBox* buildStartTimesGroup(QWidget* form);
    // The region checklist (filled by setRegions).
    QGroupBox* buildRegionsGroup(QWidget* form);
    // Slack, policies, who pays for parked GPUs, forecast error levels and seeds.
    QGroupBox* buildJobGroup(QWidget* form);
    // Who pays for the GPUs a policy parks: idle (charged to the job), released, or both.
    QWidget* buildParkedChoice(QWidget* job);
    // The studies saved in the database, to reopen without running again.
    QGroupBox* buildSavedStudiesGroup(QWidget* form);
    // The scrolled form above the controls that stay in view.
    QWidget* buildLeftColumn(QSplitter* splitter, QWidget* form);
    // Cell count, estimate, buttons, progress and message: always in view below the form.
    QWidget* buildPinnedControls(QWidget* left);
    // Estimate, Open study file, Run study and Cancel, in a row.
    QHBoxLayout* buildButtons(QWidget* pinned);
    // The heatmap's policy choice above the heatmap and the CDF of savings.
    QWidget* buildFigures(QSplitter* splitter);
    // Every field to formChanged, the buttons and the saved-study list to the page's signals.
    void connectSignals();
    void formChanged();
    void redraw();
    // The view's choices, figures and export buttons on screen.
    void applyView();
    void enableExports();
    void heatmapClicked(QMouseEvent* event);
    // The heatmap's policy choice and one choice per other axis of the study shown, from the view: the
    // values rebuilt when they changed (a value each, and "all (mean)"), the view's choice current.
    void refreshHeatmapChoices();
    void refreshFacets();
    StudyViewChoice choice() const;

    QDateTimeEdit* m_from = nullptr;
    QDateTimeEdit* m_to = nullptr;
    QSpinBox* m_everyHours = nullptr;
    QListWidget* m_regions = nullptr;
    QLineEdit* m_slack = nullptr;
    QListWidget* m_policies = nullptr;
    QCheckBox* m_idle = nullptr;
    QCheckBox* m_released = nullptr;
    QCheckBox* m_splitSavings = nullptr;
    QLineEdit* m_errors = nullptr;
    QSpinBox* m_seeds = nullptr;
    QLabel* m_cells = nullptr;
    QLabel* m_estimateText = nullptr;
    QPushButton* m_estimate = nullptr;
    QPushButton* m_openFile = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_studies = nullptr;
    QComboBox* m_heatmapPolicy = nullptr;
    QGridLayout* m_facetGrid = nullptr;
    struct Facet {
        StudyAxisGroup axis; // its columns (the forecast's three are one axis)
        QLabel* label = nullptr;
        QComboBox* values = nullptr; // the axis's values, then "all (mean)" (no data)
    };
    std::vector<Facet> m_facets;
    StudyPlot* m_heatmap = nullptr;
    StudyPlot* m_cdf = nullptr;
    QPushButton* m_exportHeatmap = nullptr;
    QPushButton* m_exportCdf = nullptr;
    QLabel* m_message = nullptr;
    Scenario m_scenario;
    // A study running on the page: its columns and rows. A saved one: its id, and the number of the newest
    // view asked for.
    std::vector<std::string> m_columns;
    std::vector<StudyRow> m_rows;
    std::optional<StudyId> m_savedStudy;
    int m_viewRequest = 0;
    StudyView m_view;
    bool m_redrawPending = false;
};

} // namespace carbon3d::ui
