// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredRun.h"

#include <QAbstractTableModel>
#include <vector>

namespace carbon3d::ui {

// Every run in the results database, one row each (newest first), in display units. Reset wholesale.
class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id = 0, Name, Scenario, Policy, Region, Start, Emissions, Completion, Status, ColumnCount };

    explicit RunsTableModel(QObject* parent = nullptr);
    void setRuns(std::vector<RunSummary> runs);
    const std::vector<RunSummary>& runs() const { return m_runs; }
    const RunSummary* runAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunSummary> m_runs;
};

// The selected runs against a baseline, one row each: savings, extra energy and extra time.
class DeltaTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Run = 0,
        Region,
        Emissions,
        Saved,
        SavedFraction,
        SavedAtBothEnds, // with parked GPUs charged whole (dedicated) and free (shared)
        SavingSource,    // where the saving against static-max comes from (runner/SavingSplit.h)
        ExtraEnergy,
        ExtraTime,
        ExtraCost, // thousand USD against the baseline (docs/ENGINE.md "Cost")
        SameScenario,
        ColumnCount
    };

    explicit DeltaTableModel(QObject* parent = nullptr);
    void setRows(std::vector<RunComparison> rows);
    const std::vector<RunComparison>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunComparison> m_rows;
};

} // namespace carbon3d::ui
