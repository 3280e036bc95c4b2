// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FigureKinds.h"
#include "plots/PlotTheme.h"
#include "storage/StoredRun.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QHBoxLayout;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;

namespace carbon3d::ui {

class DeltaTableModel;
class RunsTableModel;
class TimelinePlot;
class TradeoffPlot;

// Every stored run in a sortable, filterable table; select runs to overlay them and see their deltas
// against a baseline; the emissions-vs-completion scatter of all listed runs. Asks for data by signal
// (the results-store worker answers); holds no database handle.
class ComparePage : public QWidget {
    Q_OBJECT
public:
    explicit ComparePage(QWidget* parent = nullptr);

    void setRuns(std::vector<RunSummary> runs);
    void showComparison(const std::vector<StoredRun>& runs, const std::vector<RunComparison>& deltas);
    void setTheme(const PlotTheme& theme);

    // For tests and the screenshot mode.
    QTableView* runsView() const { return m_runsView; }
    RunsTableModel* runsModel() const { return m_runs; }
    DeltaTableModel* deltaModel() const { return m_deltas; }
    QPushButton* compareButton() const { return m_compare; }
    TradeoffPlot* tradeoffPlot() const { return m_tradeoff; }
    TradeoffPlot* costTradeoffPlot() const { return m_costTradeoff; }
    TimelinePlot* overlayPlot() const { return m_overlay; }
    QCheckBox* alignAtStartBox() const { return m_alignAtStart; }
    QComboBox* baselineBox() const { return m_baseline; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    void selectRuns(const std::vector<RunId>& ids);
    // Selects and compares these runs (at least two) with the next setRuns(): a batch just saved may not
    // be listed yet when its comparison is asked for.
    void compareWhenListed(const std::vector<RunId>& ids);

Q_SIGNALS:
    void refreshRequested();
    void compareRequested(const std::vector<carbon3d::RunId>& ids,
                          const carbon3d::ComparisonBaseline& baseline);
    void renameRequested(carbon3d::RunId id, const QString& name);
    void deleteRequested(carbon3d::RunId id);
    void exportRequested(QCustomPlot* plot, FigureKind kind);

private:
    // The filter line, and the baseline choice with its label, at the left of the controls.
    void addFilterAndBaseline(QHBoxLayout* controls);
    // The Align at start box at the right of the controls.
    void addAlignAtStart(QHBoxLayout* controls);
    // Every stored run, sortable and filtered by the filter line.
    QTableView* buildRunsTable(QSplitter* splitter);
    // The two trade-off scatters and the overlay of the compared runs, one tab each.
    QTabWidget* buildFigureTabs(QSplitter* splitter);
    // The deltas of the compared runs against the baseline.
    QTableView* buildDeltaTable(QSplitter* splitter);
    // The buttons the constructor keeps no member for, and the tabs the export reads, come as arguments.
    void connectSignals(QPushButton* refresh, QPushButton* exportPlot, QTabWidget* views);
    // A new selection: its baselines offered, its runs highlighted, the buttons that apply enabled.
    void followSelection();
    void compareSelected(); // asks for the comparison of two or more selected runs
    void renameSelected();  // asks the user for the one selected run's new name
    void deleteSelected();  // deletes the selected runs once the user confirms
    // Asks to export the figure of the tab in front.
    void exportShownFigure(const QTabWidget* views);
    std::vector<RunId> selectedIds() const;
    void drawOverlay();
    void offerBaselines(const std::vector<RunId>& ids);
    ComparisonBaseline chosenBaseline() const;
    void plotListedRuns(); // the scatter shows the runs the filter lets through

    RunsTableModel* m_runs = nullptr;
    QSortFilterProxyModel* m_filter = nullptr;
    DeltaTableModel* m_deltas = nullptr;
    QTableView* m_runsView = nullptr;
    QTableView* m_deltaView = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QComboBox* m_baseline = nullptr;
    QPushButton* m_compare = nullptr;
    QPushButton* m_rename = nullptr;
    QPushButton* m_delete = nullptr;
    TradeoffPlot* m_tradeoff = nullptr;
    TradeoffPlot* m_costTradeoff = nullptr; // emissions against cost_usd
    TimelinePlot* m_overlay = nullptr;
    QCheckBox* m_alignAtStart = nullptr;
    std::vector<StoredRun> m_compared; // the runs of the last comparison, redrawn when aligning
    std::vector<RunId> m_compareWhenListed;
};

} // namespace carbon3d::ui
