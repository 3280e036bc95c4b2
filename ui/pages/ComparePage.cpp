// SPDX-License-Identifier: MIT
#include "pages/ComparePage.h"

#include "engine/PolicyRegistry.h"
#include "models/RunsTableModel.h"
#include "plots/TimelinePlot.h"
#include "plots/TradeoffPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace carbon3d::ui {

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("compare"));
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    addFilterAndBaseline(controls);
    m_compare = new QPushButton(tr("Compare selected"), this);
    m_rename = new QPushButton(tr("Rename\u2026"), this);
    m_delete = new QPushButton(tr("Delete"), this);
    auto* refresh = new QPushButton(tr("Refresh"), this);
    auto* exportPlot = new QPushButton(tr("Export figure\u2026"), this);
    for (QPushButton* button : {m_compare, m_rename, m_delete, refresh, exportPlot})
        controls->addWidget(button);
    addAlignAtStart(controls);
    layout->addLayout(controls);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(buildRunsTable(splitter));
    QTabWidget* views = buildFigureTabs(splitter);
    splitter->addWidget(views);
    splitter->addWidget(buildDeltaTable(splitter));
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    layout->addWidget(splitter, 1);

    connectSignals(refresh, exportPlot, views);
    m_compare->setEnabled(false);
    m_rename->setEnabled(false);
    m_delete->setEnabled(false);
}

void ComparePage::addFilterAndBaseline(QHBoxLayout* controls) {
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setPlaceholderText(tr("Filter runs (name, scenario, policy, region)\u2026"));
    m_filterEdit->setClearButtonEnabled(true);
    controls->addWidget(m_filterEdit, 1);
    controls->addWidget(new QLabel(tr("Baseline:"), this));
    m_baseline = new QComboBox(this);
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baseline->setToolTip(
        tr("What deltas are measured against: one policy's run in each run's own scenario (runs of "
           "different regions or starts then compare like with like), or one run for all"));
    controls->addWidget(m_baseline);
}

void ComparePage::addAlignAtStart(QHBoxLayout* controls) {
    m_alignAtStart = new QCheckBox(tr("Align at start"), this);
    m_alignAtStart->setToolTip(
        tr("Overlay the selected runs by time since each one's start (days and hours) rather than by date, "
           "so runs that started on different days line up"));
    controls->addWidget(m_alignAtStart);
}

QTableView* ComparePage::buildRunsTable(QSplitter* splitter) {
    m_runs = new RunsTableModel(this);
    m_filter = new QSortFilterProxyModel(this);
    m_filter->setSourceModel(m_runs);
    m_filter->setSortRole(Qt::UserRole);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_runsView = new QTableView(splitter);
    m_runsView->setModel(m_filter);
    m_runsView->setSortingEnabled(true);
    m_runsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runsView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runsView->verticalHeader()->setVisible(false);
    m_runsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runsView->horizontalHeader()->setStretchLastSection(true);
    return m_runsView;
}

QTabWidget* ComparePage::buildFigureTabs(QSplitter* splitter) {
    auto* views = new QTabWidget(splitter);
    m_tradeoff = new TradeoffPlot(views);
    views->addTab(m_tradeoff, tr("Emissions vs completion"));
    m_costTradeoff = new TradeoffPlot(views, TradeoffPlot::Across::Cost);
    views->addTab(m_costTradeoff, tr("Emissions vs cost"));
    m_overlay = new TimelinePlot(views);
    views->addTab(m_overlay, tr("Overlay of selected runs"));
    return views;
}

QTableView* ComparePage::buildDeltaTable(QSplitter* splitter) {
    m_deltas = new DeltaTableModel(this);
    m_deltaView = new QTableView(splitter);
    m_deltaView->setModel(m_deltas);
    m_deltaView->verticalHeader()->setVisible(false);
    m_deltaView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Room for a header and five rows before the splitter is touched (it showed two and a half).
    m_deltaView->setMinimumHeight(m_deltaView->horizontalHeader()->sizeHint().height() +
                                  5 * m_deltaView->verticalHeader()->defaultSectionSize() +
                                  m_deltaView->horizontalScrollBar()->sizeHint().height() +
                                  2 * m_deltaView->frameWidth());
    return m_deltaView;
}

void ComparePage::connectSignals(QPushButton* refresh, QPushButton* exportPlot, QTabWidget* views) {
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setFilterFixedString(text);
        plotListedRuns();
    });
    connect(refresh, &QPushButton::clicked, this, &ComparePage::refreshRequested);
    connect(m_runsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ComparePage::followSelection);
    connect(m_compare, &QPushButton::clicked, this, &ComparePage::compareSelected);
    connect(m_rename, &QPushButton::clicked, this, &ComparePage::renameSelected);
    connect(m_delete, &QPushButton::clicked, this, &ComparePage::deleteSelected);
    connect(exportPlot, &QPushButton::clicked, this, [this, views] { exportShownFigure(views); });
    connect(m_alignAtStart, &QCheckBox::toggled, this, [this] { drawOverlay(); });
}

void ComparePage::followSelection() {
    const std::vector<RunId> ids = selectedIds();
    offerBaselines(ids);
    m_tradeoff->setHighlighted(ids);
    m_costTradeoff->setHighlighted(ids);
    m_compare->setEnabled(ids.size() >= 2);
    m_rename->setEnabled(ids.size() == 1);
    m_delete->setEnabled(!ids.empty());
}

void ComparePage::compareSelected() {
    const std::vector<RunId> ids = selectedIds();
    if (ids.size() >= 2)
        Q_EMIT compareRequested(ids, chosenBaseline());
}

void ComparePage::renameSelected() {
    const std::vector<RunId> ids = selectedIds();
    if (ids.size() != 1)
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Rename run"), tr("New name of run #%1:").arg(ids.front()),
                              QLineEdit::Normal, QString(), &ok);
    if (ok && !name.trimmed().isEmpty())
        Q_EMIT renameRequested(ids.front(), name.trimmed());
}

void ComparePage::deleteSelected() {
    const std::vector<RunId> ids = selectedIds();
    if (ids.empty() || QMessageBox::question(this, tr("Delete runs"),
                                             tr("Delete %n run(s) from the results database?", nullptr,
                                                static_cast<int>(ids.size()))) != QMessageBox::Yes)
        return;
    for (const RunId id : ids)
        Q_EMIT deleteRequested(id);
}

void ComparePage::exportShownFigure(const QTabWidget* views) {
    if (views->currentWidget() == m_tradeoff)
        Q_EMIT exportRequested(m_tradeoff, FigureKind::Compare);
    else if (views->currentWidget() == m_costTradeoff)
        Q_EMIT exportRequested(m_costTradeoff, FigureKind::Cost);
    else
        Q_EMIT exportRequested(m_overlay, FigureKind::Timeline); // runs overlaid over time
}

void ComparePage::setRuns(std::vector<RunSummary> runs) {
    m_runs->setRuns(std::move(runs));
    plotListedRuns();
    if (m_compareWhenListed.size() >= 2) {
        selectRuns(m_compareWhenListed);
        m_compare->click();
    }
    m_compareWhenListed.clear();
}

void ComparePage::plotListedRuns() {
    std::vector<RunSummary> listed;
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        if (const RunSummary* run = m_runs->runAt(m_filter->mapToSource(m_filter->index(row, 0)).row()))
            listed.push_back(*run);
    }
    m_tradeoff->setRuns(listed);
    m_costTradeoff->setRuns(listed);
}

// Baseline choices: each policy of the selection "in each run's own scenario" (the catalogue's default
// baseline first, the carbon-agnostic reference), then each selected run. When the selection spans several
// scenarios the per-scenario choice is the default, so a CAISO run is not measured against a DE one.
void ComparePage::offerBaselines(const std::vector<RunId>& ids) {
    m_baseline->clear();
    std::vector<std::string> policies;
    std::vector<std::string> scenarios;
    for (const RunId id : ids) {
        for (const RunSummary& run : m_runs->runs()) {
            if (run.id != id)
                continue;
            if (std::find(policies.begin(), policies.end(), run.policy) == policies.end())
                policies.push_back(run.policy);
            if (std::find(scenarios.begin(), scenarios.end(), run.scenarioHash) == scenarios.end())
                scenarios.push_back(run.scenarioHash);
        }
    }
    const std::string& reference = defaultBaselinePolicy().name;
    std::stable_partition(policies.begin(), policies.end(),
                          [&reference](const std::string& policy) { return policy == reference; });
    for (const std::string& policy : policies)
        m_baseline->addItem(tr("%1 in each run's scenario").arg(QString::fromStdString(policy)),
                            QString::fromStdString(policy));
    const int firstRun = m_baseline->count();
    for (const RunId id : ids)
        m_baseline->addItem(tr("run #%1").arg(id), QVariant::fromValue<qlonglong>(id));
    m_baseline->setCurrentIndex(scenarios.size() > 1 || policies.empty() ? 0 : firstRun);
}

ComparisonBaseline ComparePage::chosenBaseline() const {
    const QVariant choice = m_baseline->currentData();
    ComparisonBaseline baseline;
    if (choice.typeId() == QMetaType::QString)
        baseline.policyPerScenario = choice.toString().toStdString();
    else if (choice.isValid())
        baseline.run = choice.toLongLong();
    return baseline;
}

void ComparePage::compareWhenListed(const std::vector<RunId>& ids) {
    m_compareWhenListed = ids;
}

std::vector<RunId> ComparePage::selectedIds() const {
    std::vector<RunId> ids;
    const QModelIndexList rows = m_runsView->selectionModel()->selectedRows();
    for (const QModelIndex& index : rows) {
        if (const RunSummary* run = m_runs->runAt(m_filter->mapToSource(index).row()))
            ids.push_back(run->id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

void ComparePage::selectRuns(const std::vector<RunId>& ids) {
    QItemSelection selection;
    for (int row = 0; row < m_runs->rowCount(); ++row) {
        if (std::find(ids.begin(), ids.end(), m_runs->runAt(row)->id) != ids.end()) {
            const QModelIndex index = m_filter->mapFromSource(m_runs->index(row, 0));
            selection.select(index, index);
        }
    }
    m_runsView->selectionModel()->select(selection,
                                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void ComparePage::showComparison(const std::vector<StoredRun>& runs,
                                 const std::vector<RunComparison>& deltas) {
    m_deltas->setRows(deltas);
    m_compared = runs;
    drawOverlay();
}

void ComparePage::drawOverlay() {
    const bool aligned = m_alignAtStart->isChecked();
    std::vector<PlottedRun> plotted;
    UtcSeconds from = 0;
    UtcSeconds deadline = 0; // the latest; also where the window ends
    for (const StoredRun& run : m_compared) {
        RunResult result = run.result;
        // Aligned: every run's clock starts at 0 (its intervals shifted by its own start).
        const UtcSeconds shift = aligned ? run.summary.startUtc : 0;
        for (IntervalRecord& record : result.series) {
            record.start -= shift;
            record.end -= shift;
        }
        plotted.push_back(
            {QStringLiteral("#%1 %2").arg(run.summary.id).arg(QString::fromStdString(result.policy)),
             std::move(result)});
        const UtcSeconds start = run.summary.startUtc - shift;
        from = plotted.size() == 1 ? start : std::min(from, start);
        deadline = std::max(deadline, run.summary.deadlineUtc - shift);
    }
    m_overlay->setElapsedTime(aligned);
    // Runs may come from different regions: the carbon panel then shows each run's own intensity.
    m_overlay->setData(CarbonTrace{}, from, deadline, std::move(plotted), deadline);
}

void ComparePage::setTheme(const PlotTheme& theme) {
    m_tradeoff->setTheme(theme);
    m_costTradeoff->setTheme(theme);
    m_overlay->setTheme(theme);
}

} // namespace carbon3d::ui
