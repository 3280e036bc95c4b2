// SPDX-License-Identifier: MIT
#include "models/MetricsTableModel.h"

#include "domain/Savings.h"
#include "models/SavingsText.h"

#include <cmath>

namespace carbon3d::ui {

namespace {

struct ColumnInfo {
    const char* title;
    const char* tooltip;
};

const ColumnInfo kColumns[MetricsTableModel::ColumnCount] = {
    {"Run", "Policy (and results-store id)"},
    {"Total (tCO\u2082e)", "Operational + embodied emissions, tonnes CO\u2082-equivalent"},
    {"Operational (tCO\u2082e)",
     "Facility energy x grid carbon intensity, integrated exactly over trace slots"},
    {"Embodied (tCO\u2082e)", "Manufacturing emissions of the GPUs held, amortised over their service life"},
    {"Savings", "Total emissions saved against the baseline row (positive = less carbon)"},
    {"Dedicated / shared",
     "The same savings with parked GPUs charged whole (backfill 0: a dedicated reservation, they idle) and "
     "not at all (backfill 1: a shared cluster or cloud, other work uses them): how much of a saving rests "
     "on who pays for parked GPUs"},
    {"Dedicated (tCO\u2082e)",
     "Total emissions of the same schedule with parked GPUs charged whole (backfill 0)"},
    {"Shared (tCO\u2082e)", "Total emissions of the same schedule with parked GPUs free (backfill 1)"},
    {"Energy (MWh)", "Facility energy (IT power x PUE)"},
    {"Cost (k USD)",
     "GPU-hours under the scenario's capacity, energy at its electricity price and emissions at its carbon "
     "price, thousand USD (Scenario page, Prices)"},
    {"Cost change", "Cost against the baseline row (positive = this run costs more)"},
    {"Completion (h)", "Hours from the scenario start to the last token"},
    {"Deadline", "Whether the job finished by its deadline"},
    {"Reconfig.", "Configuration changes (each pays checkpoint + reshard + reload)"},
    {"Preempt.", "Pause/resume events (each pays checkpoint + restart)"},
    {"Avg power (MW)", "Facility energy divided by the time GPUs were held"},
    {"Tokens/gCO\u2082e", "Training tokens per gram of total emissions"},
};

} // namespace

MetricsTableModel::MetricsTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void MetricsTableModel::setRows(std::vector<Row> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    if (m_baseline >= static_cast<int>(m_rows.size()))
        m_baseline = m_rows.empty() ? -1 : 0;
    endResetModel();
}

void MetricsTableModel::setBaselineRow(int row) {
    if (row >= static_cast<int>(m_rows.size()))
        row = -1;
    m_baseline = row;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int MetricsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MetricsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double MetricsTableModel::numericValue(int row, Column column) const {
    const RunMetrics& m = m_rows[static_cast<std::size_t>(row)].metrics;
    switch (column) {
    case Name:
        return 0.0;
    case TotalEmissions:
        return m.totalG / 1e6;
    case OperationalEmissions:
        return m.operationalG / 1e6;
    case EmbodiedEmissions:
        return m.embodiedG / 1e6;
    case Savings: {
        if (m_baseline < 0)
            return std::nan("");
        const double base = m_rows[static_cast<std::size_t>(m_baseline)].metrics.totalG;
        return savingsFraction(base, m.totalG); // NaN (shown as a dash) for a zero baseline
    }
    case SavingsAtBothEnds: // sorted by the shared end, the larger
        return m_baseline < 0
                   ? std::nan("")
                   : savingsFraction(m_rows[static_cast<std::size_t>(m_baseline)].metrics.sharedG, m.sharedG);
    case DedicatedEmissions:
        return m.dedicatedG / 1e6;
    case SharedEmissions:
        return m.sharedG / 1e6;
    case Energy:
        return m.energyJ / 3.6e9; // J -> MWh
    case Cost:
        return m.costUsd / 1e3;
    case CostChange: {
        if (m_baseline < 0)
            return std::nan("");
        const double base = m_rows[static_cast<std::size_t>(m_baseline)].metrics.costUsd;
        return base > 0.0 ? m.costUsd / base - 1.0 : std::nan("");
    }
    case Completion:
        return m.completionSeconds / 3600.0;
    case DeadlineMet:
        return m.deadlineMet ? 1.0 : 0.0;
    case Reconfigurations:
        return m.reconfigurations;
    case Preemptions:
        return m.preemptions;
    case AveragePower:
        return m.averagePowerW / 1e6;
    case TokensPerGram:
        return m.workPerGram;
    case ColumnCount:
        break;
    }
    return 0.0;
}

QVariant MetricsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto column = static_cast<Column>(index.column());
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return column == Name ? int(Qt::AlignLeft | Qt::AlignVCenter)
                              : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == DeadlineMet && !row.metrics.finished)
        return tr("The job did not finish within the simulated window");
    if (role == Qt::UserRole)
        return column == Name ? QVariant(row.name) : QVariant(numericValue(index.row(), column));
    if (role != Qt::DisplayRole)
        return {};
    const double value = numericValue(index.row(), column);
    switch (column) {
    case Name:
        return row.name + (index.row() == m_baseline ? tr(" (baseline)") : QString());
    case Savings:
        return savingsPercent(value);
    case CostChange:
        return std::isnan(value) ? QStringLiteral("\u2013")
                                 : (value > 0.0 ? QStringLiteral("+") : QString()) +
                                       QString::number(100.0 * value, 'f', 1) + QStringLiteral(" %");
    case SavingsAtBothEnds:
        return m_baseline < 0
                   ? QStringLiteral("\u2013")
                   : savingsAtBothEnds(m_rows[static_cast<std::size_t>(m_baseline)].metrics, row.metrics);
    case DeadlineMet:
        return !row.metrics.finished ? tr("unfinished")
                                     : (row.metrics.deadlineMet ? tr("met") : tr("missed"));
    case Reconfigurations:
    case Preemptions:
        return QString::number(static_cast<int>(value));
    case TokensPerGram:
        return QString::number(value, 'f', 0);
    default: // a dash for an unknown value (a run saved before its dedicated and shared totals were kept)
        return std::isnan(value) ? QStringLiteral("\u2013")
                                 : QString::number(value, 'f', value >= 100 ? 1 : 2);
    }
}

QVariant MetricsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QString::fromUtf8(kColumns[section].title);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(kColumns[section].tooltip);
    return {};
}

} // namespace carbon3d::ui
