// SPDX-License-Identifier: MIT
#include "models/MetricsTableModel.h"

#include "domain/MetricFields.h"
#include "domain/Savings.h"
#include "models/SavingsText.h"

#include <algorithm>
#include <cmath>

namespace carbon3d::ui {

namespace {

// What a column shows, for its unit: each quantity has a larger unit and a smaller one, and its largest value
// over the rows (of `deciding`, a metric) picks the larger when it reaches one of it.
enum class Quantity { None, Mass, Energy, Power, Duration, Money };

struct UnitLadder {
    MetricsTableModel::Unit larger;
    MetricsTableModel::Unit smaller;
    const char* deciding; // MetricField::name whose largest value decides; null: always the larger
};

UnitLadder ladderOf(Quantity quantity) {
    switch (quantity) {
    case Quantity::Mass:
        return {{"tCO\u2082e", 1e6}, {"kgCO\u2082e", 1e3}, "total_g"};
    case Quantity::Energy:
        return {{"MWh", 3.6e9}, {"kWh", 3.6e6}, "energy_j"};
    case Quantity::Power:
        return {{"MW", 1e6}, {"kW", 1e3}, "average_power_w"};
    case Quantity::Duration: // hours at any size: nothing to decide
        return {{"h", 3600.0}, {"h", 3600.0}, nullptr};
    case Quantity::Money:
        return {{"k USD", 1e3}, {"USD", 1.0}, "cost_usd"};
    case Quantity::None:
        break;
    }
    return {{"", 1.0}, {"", 1.0}, nullptr};
}

// Each column's title (%1: its unit) and tooltip, and where its value comes from: a run metric of the
// metrics table (core/domain/MetricFields, by its SI name) shown in its quantity's unit, or (no metric) a
// value computed here against the baseline row.
struct ColumnSpec {
    const char* title;
    const char* tooltip;
    const char* metric; // MetricField::name; null for the name and the columns against the baseline
    Quantity quantity;
};

const ColumnSpec kColumns[MetricsTableModel::ColumnCount] = {
    {"Run", "Policy (and results-store id)", nullptr, Quantity::None},
    {"Savings", "Total emissions saved against the baseline row (positive = less carbon)", nullptr,
     Quantity::None},
    {"Cost change", "Cost against the baseline row (positive = this run costs more)", nullptr,
     Quantity::None},
    {"Completion (%1)", "Hours from the scenario start to the last token", "completion_s",
     Quantity::Duration},
    {"Total (%1)", "Operational + embodied emissions, CO\u2082-equivalent", "total_g", Quantity::Mass},
    {"Saving from (config. + timing + beyond)",
     "Where the saving against static-max comes from, in % of its emissions (whatever the baseline row): "
     "configuration (the best single configuration held throughout: best-static) + timing (what pausing "
     "and shifting add beyond it: the best of suspend-resume and the wait-awhiles) + beyond (what this "
     "run adds beyond the strongest of those simpler plans; for dynamic-3d, what reshaping adds; negative "
     "when it emits more). Each part is measured by running the simpler plans on the same job and forecast.",
     nullptr, Quantity::None},
    {"Dedicated / shared",
     "The same schedule's savings re-priced with parked GPUs charged whole (backfill 0: a dedicated "
     "reservation, they idle) and not at all (backfill 1: a shared cluster or cloud, other work uses them). "
     "The answer above the plots runs each end instead, since a policy may decide otherwise at the other end",
     nullptr, Quantity::None},
    {"Operational (%1)", "Facility energy x grid carbon intensity, integrated exactly over trace slots",
     "operational_g", Quantity::Mass},
    {"Embodied (%1)", "Manufacturing emissions of the GPUs held, amortised over their service life",
     "embodied_g", Quantity::Mass},
    {"Dedicated (%1)", "Total emissions of the same schedule with parked GPUs charged whole (backfill 0)",
     "dedicated_g", Quantity::Mass},
    {"Shared (%1)", "Total emissions of the same schedule with parked GPUs free (backfill 1)", "shared_g",
     Quantity::Mass},
    {"Energy (%1)", "Facility energy (IT power x PUE)", "energy_j", Quantity::Energy},
    {"Cost (%1)",
     "GPU-hours under the scenario's capacity, energy at its electricity price and emissions at its carbon "
     "price (Scenario page, Prices)",
     "cost_usd", Quantity::Money},
    {"Deadline", "Whether the job finished by its deadline", "deadline_met", Quantity::None},
    {"Reconfig.", "Configuration changes (each pays checkpoint + reshard + reload)", "reconfigurations",
     Quantity::None},
    {"Preempt.", "Pause/resume events (each pays checkpoint + restart)", "preemptions", Quantity::None},
    {"Migrations", "Moves of the job between regions (each pays checkpoint transfer + restart)", "migrations",
     Quantity::None},
    {"Avg power (%1)", "Facility energy divided by the time GPUs were held", "average_power_w",
     Quantity::Power},
    {"Tokens/gCO\u2082e", "Training tokens per gram of total emissions", "work_per_g", Quantity::None},
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

MetricsTableModel::Unit MetricsTableModel::unitOf(Column column) const {
    const UnitLadder ladder = ladderOf(kColumns[column].quantity);
    if (ladder.deciding == nullptr)
        return ladder.larger;
    const MetricField& deciding = metricField(ladder.deciding);
    double largest = 0.0;
    for (const Row& row : m_rows) {
        const double value = std::abs(metricValue(deciding, row.metrics));
        if (!std::isnan(value))
            largest = std::max(largest, value);
    }
    // No rows yet: the larger unit, which the default job's results are in.
    return m_rows.empty() || largest >= ladder.larger.divisor ? ladder.larger : ladder.smaller;
}

double MetricsTableModel::numericValue(int row, Column column) const {
    const RunMetrics& m = m_rows[static_cast<std::size_t>(row)].metrics;
    if (const char* metric = kColumns[column].metric)
        return metricValue(metricField(metric), m) / unitOf(column).divisor;
    const RunMetrics* base = m_baseline < 0 ? nullptr : &m_rows[static_cast<std::size_t>(m_baseline)].metrics;
    switch (column) {
    case Savings: // NaN (shown as a dash) without a baseline or for a zero one
        return base ? savingsFraction(base->totalG, m.totalG) : std::nan("");
    case SavingsAtBothEnds: // sorted by the shared end, the larger
        return base ? savingsFraction(base->sharedG, m.sharedG) : std::nan("");
    case SavingSource: { // sorted by what the run adds beyond the simpler plans, in grams
        return m.splitCharging(m_rows[static_cast<std::size_t>(row)].chargedParkedShare).beyondG;
    }
    case CostChange:
        return base && base->costUsd > 0.0 ? m.costUsd / base->costUsd - 1.0 : std::nan("");
    default: // the name
        return 0.0;
    }
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
    if (role == Qt::ToolTipRole && column == Name)
        return row.name; // whole: a long variant's name may be cut short in its column
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
    case SavingSource:
        return savingSplitText(row.metrics, row.chargedParkedShare);
    case SavingsAtBothEnds:
        return m_baseline < 0
                   ? QStringLiteral("\u2013")
                   : savingsAtBothEnds(m_rows[static_cast<std::size_t>(m_baseline)].metrics, row.metrics);
    case DeadlineMet:
        return !row.metrics.finished ? tr("unfinished")
                                     : (row.metrics.deadlineMet ? tr("met") : tr("missed"));
    case Reconfigurations:
    case Preemptions:
    case Migrations:
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
    if (role == Qt::DisplayRole) {
        const QString title = QString::fromUtf8(kColumns[section].title);
        return title.contains(QLatin1String("%1"))
                   ? title.arg(QString::fromUtf8(unitOf(static_cast<Column>(section)).name))
                   : title;
    }
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(kColumns[section].tooltip);
    return {};
}

} // namespace carbon3d::ui
