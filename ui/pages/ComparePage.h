// SPDX-License-Identifier: MIT
#pragma once

#include "plots/PlotTheme.h"
#include "storage/StoredRun.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
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
    void exportRequested(QCustomPlot* plot, const QString& title);

private:
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
