// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"
#include "domain/CarbonTrace.h"
#include "plots/FigureKinds.h"
#include "plots/TimelinePlot.h"
#include "runner/ScenarioRunner.h"
#include "workers/SimulationController.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QToolButton;
class QVBoxLayout;

namespace carbon3d::ui {

class AnswerBar;
class FrozenColumnTable;
class MetricsTableModel;

// The results of the last run: the four linked timeline panels, the metrics table with savings
// against a baseline the user picks, and the run's progress.
class ResultsPage : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPage(QWidget* parent = nullptr);

    // A finished batch: its runs over the scenario's trace, from the start to a little past the
    // deadline, and the policies that failed; the answer for the policy in focus is asked for.
    void showBatch(const SimulationOutcome& outcome);
    // Policies of the shown batch that failed, and what its runs warn (each warning once, with the runs
    // that gave it: "every run" when all did); hidden when there is nothing to say.
    void showWarnings(const std::vector<PolicyWarning>& warnings, const std::vector<RunResult>& runs = {});
    void clear();
    // No runs yet: the plots show the scenario's carbon trace from its start (two weeks, or up to an
    // absolute deadline).
    void preview(const Scenario& scenario);
    // A banner above the plots: the results are stale, or the last run failed (the whole message).
    enum class Notice { None, Stale, Error };
    void showNotice(Notice kind, const QString& text);
    QLabel* notice() const { return m_notice; }
    bool showsStale() const; // the plots and table greyed out under a stale notice
    // "Does reshaping pay for this job?": what decides it and where the batch's dynamic-3d saving came from.
    QLabel* outlook() const { return m_outlook; }
    QToolButton* outlookToggle() const { return m_outlookToggle; } // unfolds the outlook
    bool hasResults() const;
    // The answer to the newest question the page asked (answerRequested); older ones are ignored.
    void showAnswer(quint64 question, const AnswerAtBothEnds& answer);
    void showAnswerFailed(quint64 question, const QString& message);
    AnswerBar* answer() const { return m_answer; }
    void setProgress(double fraction, const QString& text);
    void setTheme(const PlotTheme& theme);

    TimelinePlot* timeline() const { return m_plot; }
    MetricsTableModel* metrics() const { return m_metrics; }
    QPlainTextEdit* whyPanel() const { return m_why; }
    FrozenColumnTable* metricsView() const { return m_table; }
    QPushButton* exportSeriesButton() const { return m_exportSeries; }
    QComboBox* focusBox() const { return m_focus; }
    QComboBox* baselineBox() const { return m_baseline; }
    QPushButton* exportFigureButton() const { return m_export; }
    QString scenarioName() const { return m_scenarioName; }
    std::vector<RunResult> shownRuns() const; // the runs on the timeline, in the order they were run

Q_SIGNALS:
    void exportRequested(QCustomPlot* plot, FigureKind kind);
    void seriesExportRequested();
    // The policy in focus against the baseline, to be run at both ends of the attribution.
    void answerRequested(const carbon3d::ui::AnswerRequest& request);

private:
    // Baseline and focused-run choices, the UTC box and the export buttons, above the plots.
    QHBoxLayout* buildControls();
    // The stale-or-error notice and the failed policies' and runs' warnings, hidden until needed.
    void addNotices(QVBoxLayout* layout);
    // The outlook for a batch just run (ReshapingOutlook.h).
    void showOutlook(const PreparedScenario& prepared, const std::vector<RunResult>& runs);
    // The answer and the reshaping outlook above the timeline, the metrics table and the "why" panel: what
    // a stale notice greys.
    QWidget* buildResults();
    // The timeline above the metrics table and the "why" panel.
    QSplitter* buildPlotsAndTable();
    // The metrics model, sorted, in a table whose Run column stays put.
    void buildMetricsTable(QSplitter* splitter);
    // The metrics table beside the "why" panel.
    QSplitter* buildTableAndWhy(QSplitter* splitter);
    // The run's progress text and bar, at the bottom right.
    QHBoxLayout* buildStatusRow();
    // The choices to the table and the timeline, the timeline's hover text to the "why" panel, the exports.
    void connectSignals();
    // The runs in the table, the baseline and focus choices and the timeline.
    void fillRuns(const QString& scenarioName, const CarbonTrace& trace, UtcSeconds from, UtcSeconds to,
                  std::vector<PlottedRun> runs, UtcSeconds deadline);
    // The answer bar for the policy in focus against the baseline, asked for at both ends.
    void updateAnswer();

    TimelinePlot* m_plot = nullptr;
    MetricsTableModel* m_metrics = nullptr;
    FrozenColumnTable* m_table = nullptr;
    QComboBox* m_baseline = nullptr;
    QComboBox* m_focus = nullptr;
    QCheckBox* m_utc = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_exportSeries = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QLabel* m_notice = nullptr;
    QWidget* m_plotsAndTable = nullptr; // the answer, timeline, table and why panel: greyed out while stale
    AnswerBar* m_answer = nullptr;
    // The shown batch's scenario and what each run was asked for, to run the answer's other end.
    std::shared_ptr<const PreparedScenario> m_prepared;
    std::vector<PolicySpec> m_askedFor;
    quint64 m_question = 0; // the newest answer asked for
    QPlainTextEdit* m_why = nullptr;
    QLabel* m_warnings = nullptr;    // policies that failed
    QLabel* m_runWarnings = nullptr; // what the shown runs warn
    QLabel* m_outlook = nullptr;
    QToolButton* m_outlookToggle = nullptr;
    QString m_scenarioName;
};

} // namespace carbon3d::ui
