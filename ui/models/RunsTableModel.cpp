// SPDX-License-Identifier: MIT
#include "models/RunsTableModel.h"

#include "models/SavingsText.h"

#include <cmath>

namespace carbon3d::ui {

namespace {

QString isoDate(UtcSeconds t) {
    return QString::fromStdString(formatIsoUtc(t)).left(16).replace(QLatin1Char('T'), QLatin1Char(' '));
}

} // namespace

RunsTableModel::RunsTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void RunsTableModel::setRuns(std::vector<RunSummary> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

const RunSummary* RunsTableModel::runAt(int row) const {
    return row >= 0 && row < rowCount() ? &m_runs[static_cast<std::size_t>(row)] : nullptr;
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    const RunSummary* run = index.isValid() ? runAt(index.row()) : nullptr;
    if (run == nullptr || index.column() >= ColumnCount)
        return {};
    const bool sortKey = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !sortKey) {
        if (role == Qt::TextAlignmentRole && index.column() >= Emissions && index.column() <= Completion)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    switch (static_cast<Column>(index.column())) {
    case Id:
        return sortKey ? QVariant(static_cast<qlonglong>(run->id)) : QVariant(QString::number(run->id));
    case Name:
        return QString::fromStdString(run->name);
    case Scenario:
        return QString::fromStdString(run->scenarioName);
    case Policy:
        return QString::fromStdString(run->policy);
    case Region:
        return QString::fromStdString(run->regionId);
    case Start:
        return sortKey ? QVariant(static_cast<qlonglong>(run->startUtc)) : QVariant(isoDate(run->startUtc));
    case Emissions:
        return sortKey ? QVariant(run->metrics.totalG)
                       : QVariant(QString::number(run->metrics.totalG / 1e6, 'f', 2));
    case Completion:
        return sortKey ? QVariant(run->metrics.completionSeconds)
                       : QVariant(QString::number(run->metrics.completionSeconds / 3600.0, 'f', 1));
    case Status:
        return QString::fromStdString(run->status);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const titles[ColumnCount] = {
        "Id",     "Name",        "Scenario",           "Policy",
        "Region", "Start (UTC)", "Total (tCO\u2082e)", "Completion (h)",
        "Status"};
    return section >= 0 && section < ColumnCount ? QString::fromUtf8(titles[section]) : QVariant();
}

namespace {

// A delta without a baseline is NaN: a dash, not "nan".
QString fixedOrDash(double value, int decimals) {
    return std::isnan(value) ? QStringLiteral("\u2013") : QString::number(value, 'f', decimals);
}

} // namespace

DeltaTableModel::DeltaTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void DeltaTableModel::setRows(std::vector<RunComparison> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int DeltaTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DeltaTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeltaTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const RunComparison& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == Run ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                     : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(index.column())) {
    case Run:
        return QStringLiteral("#%1 %2%3")
            .arg(row.runId)
            .arg(QString::fromStdString(row.name),
                 row.runId == row.baselineId ? tr(" (baseline)")
                 : row.baselineId == 0       ? tr(" (no baseline in its scenario)")
                 : row.baselineNotCompared
                     ? tr(" (against #%1, its scenario's baseline run)").arg(row.baselineId)
                     : QString());
    case Region:
        return QString::fromStdString(row.regionId);
    case Emissions:
        return QString::number(row.metrics.totalG / 1e6, 'f', 2);
    case Saved:
        return fixedOrDash(row.savedG / 1e6, 2);
    case SavedFraction:
        return savingsPercent(row.savedFraction);
    case SavedAtBothEnds:
        return row.baselineId == 0 ? savingsPercent(row.savedFraction)
                                   : savingsAtBothEnds(row.baselineMetrics, row.metrics);
    case SavingSource:
        return savingSplitText(row.metrics, row.chargedParkedShare);
    case ExtraEnergy:
        return fixedOrDash(row.extraEnergyJ / 3.6e9, 2);
    case ExtraTime:
        return fixedOrDash(row.extraCompletionSeconds / 3600.0, 1);
    case ExtraCost: // a dash without a baseline, or for a run saved before cost was recorded (NaN)
        return row.baselineId == 0 ? QStringLiteral("\u2013") : fixedOrDash(row.extraCostUsd / 1e3, 2);
    case SameScenario:
        if (row.baselineId == 0)
            return QStringLiteral("\u2013");
        return row.sameScenario ? tr("same") : tr("different");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant DeltaTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const titles[ColumnCount] = {"Run",
                                                    "Region",
                                                    "Total (tCO\u2082e)",
                                                    "Saved (tCO\u2082e)",
                                                    "Saved",
                                                    "Saved if dedicated / shared",
                                                    "Saving from (config. + timing + beyond)",
                                                    "Extra energy (MWh)",
                                                    "Extra time (h)",
                                                    "Extra cost (k USD)",
                                                    "Scenario"};
    return section >= 0 && section < ColumnCount ? QString::fromUtf8(titles[section]) : QVariant();
}

} // namespace carbon3d::ui
