// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace carbon3d::ui {

// The headline metrics of a set of runs, one row per run, in display units with the savings of each run
// against a baseline row the user picks. A thin adapter: reset wholesale. The answer comes first (savings,
// cost and completion against the baseline), so that it is on screen without scrolling; emissions, energy
// and power are shown in the unit their largest value reads best in (kg below a tonne, kWh below a MWh).
class MetricsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name = 0,
        Savings,
        CostChange, // against the baseline row: positive = this run costs more
        Completion,
        TotalEmissions,
        SavingSource,      // where the saving against static-max comes from (runner/SavingSplit.h)
        SavingsAtBothEnds, // the saving if parked GPUs were charged whole (dedicated) or not at all (shared)
        OperationalEmissions,
        EmbodiedEmissions,
        DedicatedEmissions,
        SharedEmissions,
        Energy,
        Cost, // cost_usd, in USD or thousand USD (docs/ENGINE.md "Cost")
        DeadlineMet,
        Reconfigurations,
        Preemptions,
        Migrations,
        AveragePower,
        TokensPerGram,
        ColumnCount
    };

    struct Row {
        QString name; // policy, or "policy #id" for stored runs
        RunMetrics metrics;
        double chargedParkedShare = 1.0; // 1 - the scenario's backfill: the attribution totalG charges
    };

    explicit MetricsTableModel(QObject* parent = nullptr);

    void setRows(std::vector<Row> rows);
    void setBaselineRow(int row); // -1: none
    int baselineRow() const { return m_baseline; }
    const std::vector<Row>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Raw value for sorting and tests, in the column's display unit (headerData names it; fractions as such).
    double numericValue(int row, Column column) const;

    // How a quantity is shown: a unit and what an SI value is divided by.
    struct Unit {
        const char* name;
        double divisor;
    };

private:
    // The unit a column is shown in for the current rows (the quantity's largest value decides).
    Unit unitOf(Column column) const;

    std::vector<Row> m_rows;
    int m_baseline = -1;
};

} // namespace carbon3d::ui
