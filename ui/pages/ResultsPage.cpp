// SPDX-License-Identifier: MIT
#include "pages/ResultsPage.h"

#include "FrozenColumnTable.h"
#include "TextStyles.h"
#include "engine/PolicyRegistry.h"
#include "models/MetricsTableModel.h"
#include "pages/AnswerBar.h"
#include "runner/ReshapingOutlook.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsOpacityEffect>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace carbon3d::ui {

namespace {
// How much of the grid a scenario without an absolute deadline previews: two weeks, about the default
// job's deadline.
constexpr double kPreviewHours = 14.0 * 24.0;
} // namespace

ResultsPage::ResultsPage(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("results"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buildControls());
    addNotices(layout);
    m_plotsAndTable = buildResults();
    layout->addWidget(m_plotsAndTable, 1);
    layout->addLayout(buildStatusRow());
    connectSignals();
}

QHBoxLayout* ResultsPage::buildControls() {
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Baseline:"), this));
    m_baseline = new QComboBox(this);
    m_baseline->setToolTip(tr("Savings in the table are measured against this run"));
    controls->addWidget(m_baseline);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Policy in focus:"), this));
    m_focus = new QComboBox(this);
    m_focus->setToolTip(tr("The run the answer above the plots is about, and whose (d, t, p) configuration "
                           "and power limit are drawn as labelled bands"));
    controls->addWidget(m_focus);
    for (QComboBox* combo : {m_baseline, m_focus})
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    controls->addSpacing(16);
    m_utc = new QCheckBox(tr("UTC"), this);
    m_utc->setToolTip(tr("Show times in UTC instead of the region's local time"));
    controls->addWidget(m_utc);
    controls->addStretch(1);
    m_export = new QPushButton(tr("Export figure\u2026"), this);
    controls->addWidget(m_export);
    m_exportSeries = new QPushButton(tr("Export series CSV\u2026"), this);
    m_exportSeries->setToolTip(
        tr("One CSV of intervals and one of metrics per run, as `carbon3d-cli simulate --series-out`"));
    controls->addWidget(m_exportSeries);
    return controls;
}

// What the shown results are not: stale (the scenario changed since) or the last run's error, whole; and
// what the runs warn.
void ResultsPage::addNotices(QVBoxLayout* layout) {
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("resultsNotice"));
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setVisible(false);
    layout->addWidget(m_notice);
    m_warnings = new QLabel(this);
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(textStyle(TextRole::Error, palette()));
    m_warnings->setVisible(false);
    layout->addWidget(m_warnings);
    m_runWarnings = new QLabel(this);
    m_runWarnings->setObjectName(QStringLiteral("runWarnings"));
    m_runWarnings->setWordWrap(true);
    m_runWarnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runWarnings->setStyleSheet(textStyle(TextRole::Warning, palette()));
    m_runWarnings->setVisible(false);
    layout->addWidget(m_runWarnings);
}

void ResultsPage::showOutlook(const PreparedScenario& prepared, const std::vector<RunResult>& runs) {
    QStringList lines;
    for (const std::string& line : reshapingOutlookText(reshapingOutlook(prepared), runs))
        lines << QString::fromStdString(line).toHtmlEscaped();
    m_outlook->setText(QStringLiteral("\u2022 ") + lines.join(QStringLiteral("<br>\u2022 ")));
    m_outlookToggle->setVisible(true);
    m_outlook->setVisible(m_outlookToggle->isChecked());
}

QWidget* ResultsPage::buildResults() {
    auto* results = new QWidget(this);
    auto* layout = new QVBoxLayout(results);
    layout->setContentsMargins(0, 0, 0, 0);
    m_answer = new AnswerBar(results);
    layout->addWidget(m_answer);
    // Folded by default under its question: five lines of it left a 1280 x 800 screen two rows of the table
    // (issue 43); the answer line above says what most users came for.
    m_outlookToggle = new QToolButton(results);
    m_outlookToggle->setObjectName(QStringLiteral("reshapingOutlookToggle"));
    m_outlookToggle->setText(tr("Does reshaping pay for this job?"));
    m_outlookToggle->setCheckable(true);
    m_outlookToggle->setAutoRaise(true);
    m_outlookToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_outlookToggle->setArrowType(Qt::RightArrow);
    m_outlookToggle->setVisible(false);
    layout->addWidget(m_outlookToggle);
    m_outlook = new QLabel(results);
    m_outlook->setObjectName(QStringLiteral("reshapingOutlook"));
    m_outlook->setWordWrap(true);
    m_outlook->setTextFormat(Qt::RichText);
    m_outlook->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outlook->setToolTip(
        tr("Computed from the scenario's menu, its attribution of parked GPUs and its grid "
           "over the window; the last line splits the dynamic-3d run's saving by running "
           "the simpler plans on the same job (the table's \u201cSaving from\u201d column)"));
    m_outlook->setVisible(false);
    layout->addWidget(m_outlook);
    connect(m_outlookToggle, &QToolButton::toggled, this, [this](bool open) {
        m_outlookToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_outlook->setVisible(open && !m_outlook->text().isEmpty());
    });
    layout->addWidget(buildPlotsAndTable(), 1);
    return results;
}

QSplitter* ResultsPage::buildPlotsAndTable() {
    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_plot = new TimelinePlot(splitter);
    m_plot->setMinimumHeight(380);
    splitter->addWidget(m_plot);
    buildMetricsTable(splitter);
    QSplitter* bottom = buildTableAndWhy(splitter);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    bottom->setMinimumHeight(150); // four policies visible without scrolling, and the window fits 800 px
    return splitter;
}

void ResultsPage::buildMetricsTable(QSplitter* splitter) {
    m_metrics = new MetricsTableModel(this);
    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_metrics);
    sorted->setSortRole(Qt::UserRole);
    m_table = new FrozenColumnTable(splitter); // the Run column stays while the numbers scroll
    m_table->setModel(sorted);
    m_table->setSortingEnabled(true);
    sorted->sort(-1); // rows in the order the policies were ticked until the user sorts
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAlternatingRowColors(true);
}

// Beside the table, the "why" panel: the moment under the crosshair, each run's state and the reason for
// it in its policy's own terms, and what the alternatives would have cost. A fixed pane (it scrolls, it
// does not grow), so the layout never jumps as the mouse moves.
QSplitter* ResultsPage::buildTableAndWhy(QSplitter* splitter) {
    auto* bottom = new QSplitter(Qt::Horizontal, splitter);
    bottom->addWidget(m_table);
    m_why = new QPlainTextEdit(bottom);
    m_why->setObjectName(QStringLiteral("whyPanel"));
    m_why->setReadOnly(true);
    m_why->setPlaceholderText(tr("Why: move the mouse over the plots to see, for that moment, what each run "
                                 "is doing, the reason its policy gives (its threshold against the forecast, "
                                 "its price against each option's carbon per token, its hysteresis) and "
                                 "what the alternatives would have cost."));
    m_why->setToolTip(tr("The moment under the crosshair; it stays when the mouse leaves the plots"));
    bottom->addWidget(m_why);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    return bottom;
}

QHBoxLayout* ResultsPage::buildStatusRow() {
    auto* status = new QHBoxLayout;
    status->addStretch(1);
    // What is running, beside the bar rather than inside it, where a policy's name and its day count
    // were clipped.
    m_progressText = new QLabel(this);
    m_progressText->setVisible(false);
    status->addWidget(m_progressText);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setFixedWidth(140);
    m_progress->setVisible(false);
    status->addWidget(m_progress);
    return status;
}

void ResultsPage::connectSignals() {
    connect(m_baseline, &QComboBox::currentIndexChanged, m_metrics, &MetricsTableModel::setBaselineRow);
    connect(m_focus, &QComboBox::currentIndexChanged, m_plot, &TimelinePlot::setFocusedRun);
    connect(m_baseline, &QComboBox::currentIndexChanged, this, &ResultsPage::updateAnswer);
    connect(m_focus, &QComboBox::currentIndexChanged, this, &ResultsPage::updateAnswer);
    connect(m_utc, &QCheckBox::toggled, m_plot, &TimelinePlot::setShowUtc);
    connect(m_plot, &TimelinePlot::hoverTextChanged, m_why, &QPlainTextEdit::setPlainText);
    connect(m_export, &QPushButton::clicked, this,
            [this] { Q_EMIT exportRequested(m_plot, FigureKind::Timeline); });
    connect(m_exportSeries, &QPushButton::clicked, this, &ResultsPage::seriesExportRequested);
}

bool ResultsPage::showsStale() const {
    return m_plotsAndTable->graphicsEffect() != nullptr;
}

bool ResultsPage::hasResults() const {
    return m_metrics->rowCount() > 0;
}

void ResultsPage::showNotice(Notice kind, const QString& text) {
    // Stale results are greyed out below their banner, so a glance at the plots cannot mistake them for
    // the form's (issue 43); a new batch or any other notice shows them in full again.
    if (kind == Notice::Stale && m_plotsAndTable->graphicsEffect() == nullptr) {
        auto* faded = new QGraphicsOpacityEffect(m_plotsAndTable);
        faded->setOpacity(0.4);
        m_plotsAndTable->setGraphicsEffect(faded);
    } else if (kind != Notice::Stale) {
        m_plotsAndTable->setGraphicsEffect(nullptr);
    }
    if (kind == Notice::None) {
        m_notice->clear();
        m_notice->setVisible(false);
        return;
    }
    // Amber for stale results, red for a failure, tinted from the palette: readable in either theme.
    m_notice->setStyleSheet(
        noticeStyle(kind == Notice::Stale ? TextRole::Warning : TextRole::Error, palette()));
    m_notice->setText(text);
    m_notice->setVisible(true);
}

void ResultsPage::showBatch(const SimulationOutcome& outcome) {
    const PreparedScenario& prepared = outcome.prepared;
    const std::vector<RunResult>& runs = outcome.runs;
    showNotice(Notice::None, {});
    showOutlook(prepared, runs);
    const Scenario& scenario = prepared.scenario;
    std::vector<PlottedRun> plotted;
    plotted.reserve(runs.size());
    for (const RunResult& run : runs)
        // Named as the run is saved: variants of one policy are told apart by their options (issue 43).
        plotted.push_back({QString::fromStdString(policyRunLabel(run.policy, run.options)), run});
    const UtcSeconds deadline = prepared.input.deadlineUtc;
    m_plot->setMenu(prepared.menu, prepared.input.pue);
    // A twentieth of the window past the deadline, so runs that finish on it are not cut at the edge.
    fillRuns(QString::fromStdString(scenario.name), scenario.regions.front().trace, scenario.startUtc,
             deadline + (deadline - scenario.startUtc) / 20, std::move(plotted), deadline);
    m_prepared = std::make_shared<const PreparedScenario>(prepared);
    m_askedFor = outcome.askedFor;
    updateAnswer();
    showWarnings(outcome.warnings, runs);
}

void ResultsPage::updateAnswer() {
    ++m_question; // an answer still coming is for another question
    const int run = m_focus->currentIndex();
    const int baseline = m_baseline->currentIndex();
    const auto& rows = m_metrics->rows();
    // Every batch shown comes with its scenario and what its runs were asked for (showBatch); anything else
    // is no runs at all.
    if (!m_prepared || m_askedFor.size() != rows.size() || run < 0 || baseline < 0 ||
        run >= static_cast<int>(rows.size()) || baseline >= static_cast<int>(rows.size())) {
        m_answer->showNothing();
        return;
    }
    if (run == baseline) {
        m_answer->showNothing(tr("%1 is the baseline: pick another policy in focus for its answer")
                                  .arg(rows[static_cast<std::size_t>(run)].name));
        return;
    }
    const auto& asked = rows[static_cast<std::size_t>(run)];
    const auto& base = rows[static_cast<std::size_t>(baseline)];
    m_answer->ask(asked.name, base.name, m_prepared->input.modelling.backfill);
    Q_EMIT answerRequested({m_question,
                            m_prepared,
                            {m_askedFor[static_cast<std::size_t>(run)], asked.metrics},
                            {m_askedFor[static_cast<std::size_t>(baseline)], base.metrics}});
}

void ResultsPage::showAnswer(quint64 question, const AnswerAtBothEnds& answer) {
    if (question == m_question)
        m_answer->showAnswer(answer);
}

void ResultsPage::showAnswerFailed(quint64 question, const QString& message) {
    if (question == m_question)
        m_answer->showFailure(message);
}

void ResultsPage::fillRuns(const QString& scenarioName, const CarbonTrace& trace, UtcSeconds from,
                           UtcSeconds to, std::vector<PlottedRun> runs, UtcSeconds deadline) {
    m_scenarioName = scenarioName;
    std::vector<MetricsTableModel::Row> rows;
    QStringList names;
    int staticMax = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        rows.push_back({runs[i].name, runs[i].result.metrics, runs[i].result.chargedParkedShare()});
        names << runs[i].name;
        if (runs[i].result.policy == defaultBaselinePolicy().name)
            staticMax = static_cast<int>(i); // the carbon-agnostic run is the natural baseline
    }
    m_metrics->setRows(std::move(rows));
    const QSignalBlocker blockBaseline(m_baseline);
    const QSignalBlocker blockFocus(m_focus);
    m_baseline->clear();
    m_baseline->addItems(names);
    m_baseline->setCurrentIndex(names.isEmpty() ? -1 : staticMax);
    m_metrics->setBaselineRow(names.isEmpty() ? -1 : staticMax);
    m_focus->clear();
    m_focus->addItems(names);
    // Focus the most interesting run: the last of the policy the catalogue focuses by default, else the
    // first that is not the baseline (the answer above the plots is about it).
    int focus = runs.size() > 1 && staticMax == 0 ? 1 : 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const PolicyInfo* info = findPolicy(runs[i].result.policy);
        if (info && info->traits.focusedByDefault)
            focus = static_cast<int>(i);
    }
    m_focus->setCurrentIndex(names.isEmpty() ? -1 : focus);
    m_plot->setData(trace, from, to, std::move(runs), deadline);
    m_plot->setFocusedRun(focus);
}

void ResultsPage::showWarnings(const std::vector<PolicyWarning>& warnings,
                               const std::vector<RunResult>& runs) {
    QStringList lines;
    for (const PolicyWarning& warning : warnings)
        lines << tr("%1 failed: %2").arg(warning.policy, warning.message);
    m_warnings->setText(lines.join(QLatin1Char('\n')));
    m_warnings->setVisible(!lines.isEmpty());
    // Each run's own warnings (a time zone taken as UTC, a schedule not proven optimal), once per text with
    // the runs that gave it; a warning that already names its policy is not prefixed again.
    std::vector<std::pair<std::string, QStringList>> said;
    for (const RunResult& run : runs) {
        for (const std::string& warning : run.warnings) {
            auto it = std::find_if(said.begin(), said.end(),
                                   [&](const auto& entry) { return entry.first == warning; });
            if (it == said.end())
                it = said.insert(said.end(), {warning, {}});
            it->second << QString::fromStdString(policyRunLabel(run.policy, run.options));
        }
    }
    QStringList notes;
    for (const auto& [warning, policies] : said) {
        const QString text = QString::fromStdString(warning);
        if (policies.size() == 1 && text.startsWith(policies.front() + QLatin1Char(':')))
            notes << text;
        else
            notes << tr("%1: %2").arg(policies.size() == static_cast<qsizetype>(runs.size()) &&
                                              runs.size() > 1
                                          ? tr("every run")
                                          : policies.join(QStringLiteral(", ")),
                                      text);
    }
    m_runWarnings->setText(notes.join(QLatin1Char('\n')));
    m_runWarnings->setVisible(!notes.isEmpty());
}

std::vector<RunResult> ResultsPage::shownRuns() const {
    std::vector<RunResult> runs;
    for (const PlottedRun& run : m_plot->runs())
        runs.push_back(run.result);
    return runs;
}

void ResultsPage::clear() {
    showWarnings({});
    m_prepared.reset();
    m_askedFor.clear();
    ++m_question;
    m_answer->showNothing();
    m_outlook->clear();
    m_outlook->setVisible(false);
    m_outlookToggle->setVisible(false);
    m_metrics->setRows({});
    m_baseline->clear();
    m_focus->clear();
    m_plot->clearData();
}

void ResultsPage::preview(const Scenario& scenario) {
    clear();
    showNotice(Notice::None, {});
    // Before the first run the plots show the scenario's grid from its start: the trace is loaded, and
    // empty axes ("Jan 1 00:00", 0 to 5 g/kWh) told a first-time user nothing.
    if (scenario.regions.empty() || scenario.regions.front().trace.empty())
        return;
    const CarbonTrace& trace = scenario.regions.front().trace;
    const UtcSeconds from = std::max(scenario.startUtc, trace.startUtc);
    const double hours =
        scenario.deadline.kind == DeadlineSpec::Kind::Hours ? scenario.deadline.value : kPreviewHours;
    const UtcSeconds to = std::min(trace.endUtc(), from + static_cast<UtcSeconds>(hours * 3600.0));
    if (to > from)
        m_plot->setData(trace, from, to, {}, 0);
}

void ResultsPage::setProgress(double fraction, const QString& text) {
    const bool running = fraction >= 0.0 && fraction < 1.0;
    m_progress->setVisible(running);
    m_progress->setValue(static_cast<int>(fraction * 1000));
    m_progress->setFormat(QStringLiteral("%p%"));
    m_progressText->setText(text);
    m_progressText->setVisible(running && !text.isEmpty());
}

void ResultsPage::setTheme(const PlotTheme& theme) {
    m_plot->setTheme(theme);
}

} // namespace carbon3d::ui
