// SPDX-License-Identifier: MIT
#include "pages/StudyPage.h"

#include "WheelGuard.h"
#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"
#include "study/StudyFigures.h"
#include "study/StudyPlan.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTimeZone>
#include <QTimer>
#include <QVBoxLayout>
#include <climits>
#include <cmath>
#include <map>

namespace carbon3d::ui {

namespace {

// How many characters a facet's choice shows before it elides, and how many facets share a row.
constexpr int kFacetCharacters = 8;
constexpr int kFacetsPerRow = 2;

// "25, 100" -> {0.25, 1}: the page takes percentages, as the scenario form does; the study file fractions.
std::vector<double> percentList(const QString& text) {
    std::vector<double> values;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<double> value = parseDecimal(item.trimmed().toStdString());
        if (value && *value >= 0.0)
            values.push_back(*value / 100.0);
    }
    return values;
}

QListWidgetItem* checkable(QListWidget* list, const QString& text, const QString& data, bool checked) {
    auto* item = new QListWidgetItem(text, list);
    item->setData(Qt::UserRole, data);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    return item;
}

QStringList checkedData(const QListWidget* list) {
    QStringList data;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            data << list->item(i)->data(Qt::UserRole).toString();
    return data;
}

std::vector<std::string> checkedValues(const QListWidget* list) {
    std::vector<std::string> values;
    for (const QString& item : checkedData(list))
        values.push_back(item.toStdString());
    return values;
}

// The forecast kind the page's error levels and seeds go to: the catalogue's first that takes them.
std::string errorTakingForecast() {
    for (const ForecastKindInfo& info : forecastCatalog())
        if (info.takesError)
            return info.kind;
    return {};
}

} // namespace

StudyPage::StudyPage(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("study"));
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    QWidget* form = buildForm();
    splitter->addWidget(buildLeftColumn(splitter, form));
    splitter->addWidget(buildFigures(splitter));
    splitter->setStretchFactor(1, 1);
    connectSignals();
    formChanged();
    redraw();
}

QWidget* StudyPage::buildForm() {
    auto* form = new QWidget;
    auto* formLayout = new QVBoxLayout(form);
    formLayout->addWidget(buildStartTimesGroup(form));
    formLayout->addWidget(buildRegionsGroup(form));
    formLayout->addWidget(buildJobGroup(form));
    formLayout->addWidget(buildSavedStudiesGroup(form));
    formLayout->addStretch(1);
    return form;
}

QGroupBox* StudyPage::buildStartTimesGroup(QWidget* form) {
    auto* when = new QGroupBox(tr("Start times (UTC)"), form);
    auto* whenForm = new QFormLayout(when);
    m_from = new QDateTimeEdit(when);
    m_to = new QDateTimeEdit(when);
    for (QDateTimeEdit* edit : {m_from, m_to}) {
        edit->setTimeSpec(Qt::UTC);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd hh:mm"));
        edit->setCalendarPopup(true);
    }
    m_everyHours = new QSpinBox(when);
    m_everyHours->setRange(1, 8760);
    m_everyHours->setValue(24);
    m_everyHours->setSuffix(tr(" h"));
    whenForm->addRow(tr("From"), m_from);
    whenForm->addRow(tr("To"), m_to);
    whenForm->addRow(tr("Every"), m_everyHours);
    return when;
}

QGroupBox* StudyPage::buildRegionsGroup(QWidget* form) {
    auto* where = new QGroupBox(tr("Regions"), form);
    auto* whereLayout = new QVBoxLayout(where);
    m_regions = new QListWidget(where);
    m_regions->setMaximumHeight(150);
    whereLayout->addWidget(m_regions);
    return where;
}

QGroupBox* StudyPage::buildJobGroup(QWidget* form) {
    auto* job = new QGroupBox(tr("Deadline, policies and accounting"), form);
    auto* jobForm = new QFormLayout(job);
    m_slack = new QLineEdit(QStringLiteral("25, 100"), job);
    m_slack->setToolTip(tr("Slack values in percent over the carbon-agnostic runtime, separated by commas"));
    jobForm->addRow(tr("Slack (%)"), m_slack);
    m_policies = new QListWidget(job);
    m_policies->setMaximumHeight(170);
    for (const PolicyInfo& info : policyCatalog())
        checkable(m_policies, QString::fromStdString(info.name), QString::fromStdString(info.name),
                  info.traits.defaultBaseline || info.traits.focusedByDefault || info.traits.perfectKnowledge)
            ->setToolTip(QString::fromStdString(info.description));
    jobForm->addRow(tr("Policies"), m_policies);
    jobForm->addRow(tr("Parked GPUs"), buildParkedChoice(job));
    m_errors = new QLineEdit(job);
    m_errors->setPlaceholderText(tr("none: the scenario's forecast"));
    m_errors->setToolTip(tr("Noisy-forecast error levels in percent of the trace mean, separated by commas; "
                            "each runs with every seed"));
    jobForm->addRow(tr("Forecast error (%)"), m_errors);
    m_seeds = new QSpinBox(job);
    m_seeds->setRange(1, 100);
    m_seeds->setValue(5);
    jobForm->addRow(tr("Seeds"), m_seeds);
    m_splitSavings = new QCheckBox(tr("configuration, timing and beyond"), job);
    m_splitSavings->setObjectName(QStringLiteral("splitSavings"));
    m_splitSavings->setToolTip(tr("Split each cell's saving against static-max into what the best single "
                                  "configuration, pausing and shifting, and the policy beyond them give "
                                  "(docs/MODEL.md). The simpler plans run once per setup of the other axes: "
                                  "up to five more runs each"));
    jobForm->addRow(tr("Split savings"), m_splitSavings);
    return job;
}

QWidget* StudyPage::buildParkedChoice(QWidget* job) {
    auto* parked = new QWidget(job);
    auto* parkedLayout = new QVBoxLayout(parked);
    parkedLayout->setContentsMargins(0, 0, 0, 0);
    m_idle = new QCheckBox(tr("idle, charged to the job"), parked);
    m_idle->setChecked(true);
    m_released = new QCheckBox(tr("released to other work"), parked);
    parkedLayout->addWidget(m_idle);
    parkedLayout->addWidget(m_released);
    parked->setToolTip(tr("Who pays for the GPUs a policy parks: a dedicated reservation (idle, backfill 0) "
                          "or a shared cluster (released, backfill 1)"));
    return parked;
}

QGroupBox* StudyPage::buildSavedStudiesGroup(QWidget* form) {
    auto* saved = new QGroupBox(tr("Saved studies"), form);
    auto* savedLayout = new QVBoxLayout(saved);
    m_studies = new QComboBox(saved);
    m_studies->setPlaceholderText(tr("none yet"));
    savedLayout->addWidget(m_studies);
    return saved;
}

// The axes scroll; what says how big the study is and starts it stays in view below them, as the
// scenario form's Run does.
QWidget* StudyPage::buildLeftColumn(QSplitter* splitter, QWidget* form) {
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(left);
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(360);
    WheelGuard::install(form);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addWidget(buildPinnedControls(left));
    return left;
}

QWidget* StudyPage::buildPinnedControls(QWidget* left) {
    auto* pinned = new QWidget(left);
    auto* pinnedLayout = new QVBoxLayout(pinned);
    m_cells = new QLabel(pinned);
    m_estimateText = new QLabel(pinned);
    m_estimateText->setWordWrap(true);
    pinnedLayout->addWidget(m_cells);
    pinnedLayout->addWidget(m_estimateText);
    pinnedLayout->addLayout(buildButtons(pinned));
    m_progress = new QProgressBar(pinned);
    m_progress->setVisible(false);
    pinnedLayout->addWidget(m_progress);
    m_message = new QLabel(pinned);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pinnedLayout->addWidget(m_message);
    return pinned;
}

QHBoxLayout* StudyPage::buildButtons(QWidget* pinned) {
    auto* buttons = new QHBoxLayout;
    m_estimate = new QPushButton(tr("Estimate"), pinned);
    m_estimate->setToolTip(tr("Reads the study and times one cell of each policy"));
    m_openFile = new QPushButton(tr("Open study file\u2026"), pinned);
    m_openFile->setToolTip(tr("Reads a study file (docs/STUDIES.md), with every axis it has, and times one "
                              "cell of each policy; Run study then runs the file instead of the form"));
    m_run = new QPushButton(tr("Run study"), pinned);
    m_run->setEnabled(false);
    m_cancel = new QPushButton(tr("Cancel"), pinned);
    m_cancel->setEnabled(false);
    buttons->addWidget(m_estimate);
    buttons->addWidget(m_openFile);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    return buttons;
}

QWidget* StudyPage::buildFigures(QSplitter* splitter) {
    auto* figures = new QWidget(splitter);
    auto* figuresLayout = new QVBoxLayout(figures);
    auto* heatmapBar = new QHBoxLayout;
    heatmapBar->addWidget(new QLabel(tr("Heatmap of:"), figures));
    m_heatmapPolicy = new QComboBox(figures);
    m_heatmapPolicy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    heatmapBar->addWidget(m_heatmapPolicy);
    heatmapBar->addStretch(1);
    figuresLayout->addLayout(heatmapBar);
    // The study's other axes, each held at a value or pooled: what a heatmap cell is, chosen, not hidden.
    // Two to a row: in one row, three axes' choices widened the page past a 1280-pixel screen.
    m_facetGrid = new QGridLayout;
    m_facetGrid->setColumnStretch(kFacetsPerRow * 2, 1);
    figuresLayout->addLayout(m_facetGrid);
    auto* plots = new QSplitter(Qt::Vertical, figures);
    m_heatmap = new StudyPlot(plots);
    // A tool tip rather than a label beside the choice: the label's width squeezed the scenario form at
    // 1280 pixels once the axis choices joined the row below it.
    m_heatmap->setToolTip(tr("Click a cell to open it in Results beside its baseline"));
    m_cdf = new StudyPlot(plots);
    m_heatmap->setMinimumHeight(220);
    m_cdf->setMinimumHeight(220);
    figuresLayout->addWidget(plots, 1);
    // As on the other pages: PNG, SVG or PDF at a slide or paper preset, and the numbers as CSV beside it.
    // Under the figures, so that the bar above does not widen the window past a 1280-pixel screen.
    auto* exportBar = new QHBoxLayout;
    exportBar->addStretch(1);
    m_exportHeatmap = new QPushButton(tr("Export heatmap\u2026"), figures);
    m_exportCdf = new QPushButton(tr("Export CDF\u2026"), figures);
    exportBar->addWidget(m_exportHeatmap);
    exportBar->addWidget(m_exportCdf);
    figuresLayout->addLayout(exportBar);
    return figures;
}

void StudyPage::connectSignals() {
    for (QDateTimeEdit* edit : {m_from, m_to})
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, &StudyPage::formChanged);
    for (QSpinBox* box : {m_everyHours, m_seeds})
        connect(box, &QSpinBox::valueChanged, this, &StudyPage::formChanged);
    for (QLineEdit* edit : {m_slack, m_errors})
        connect(edit, &QLineEdit::textChanged, this, &StudyPage::formChanged);
    for (QListWidget* list : {m_regions, m_policies})
        connect(list, &QListWidget::itemChanged, this, &StudyPage::formChanged);
    for (QCheckBox* box : {m_idle, m_released, m_splitSavings})
        connect(box, &QCheckBox::toggled, this, &StudyPage::formChanged);
    connect(m_estimate, &QPushButton::clicked, this, &StudyPage::estimateRequested);
    connect(m_openFile, &QPushButton::clicked, this, &StudyPage::openFileRequested);
    connect(m_run, &QPushButton::clicked, this, &StudyPage::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &StudyPage::cancelRequested);
    connect(m_studies, &QComboBox::activated, this,
            [this](int index) { Q_EMIT openStudyRequested(m_studies->itemData(index).toLongLong()); });
    connect(m_heatmapPolicy, &QComboBox::currentIndexChanged, this, &StudyPage::redraw);
    connect(m_heatmap, &QCustomPlot::mousePress, this, &StudyPage::heatmapClicked);
    connect(m_exportHeatmap, &QPushButton::clicked, this,
            [this] { Q_EMIT exportRequested(m_heatmap, FigureKind::StudyHeatmap); });
    connect(m_exportCdf, &QPushButton::clicked, this,
            [this] { Q_EMIT exportRequested(m_cdf, FigureKind::StudyCdf); });
}

void StudyPage::setScenario(const Scenario& scenario) {
    m_scenario = scenario;
    const QDateTime start = QDateTime::fromSecsSinceEpoch(scenario.startUtc, QTimeZone::utc());
    m_from->setDateTime(start);
    m_to->setDateTime(start.addDays(30));
    const QString region =
        scenario.regions.empty() ? QString() : QString::fromStdString(scenario.regions.front().regionId);
    for (int i = 0; i < m_regions->count(); ++i) // the scenario's own region, alone
        m_regions->item(i)->setCheckState(
            m_regions->item(i)->text().startsWith(region + QLatin1Char(' ')) ? Qt::Checked : Qt::Unchecked);
    formChanged();
}

void StudyPage::setRegions(const std::vector<TraceChoice>& regions) {
    m_regions->clear();
    const QString current =
        m_scenario.regions.empty() ? QString() : QString::fromStdString(m_scenario.regions.front().regionId);
    for (const TraceChoice& choice : regions) {
        // A bundled trace is named by its id, as study files do; another by its file.
        const bool bundled =
            QFileInfo(choice.path).fileName() == choice.regionId + QStringLiteral("_2022.csv");
        checkable(m_regions, choice.label, bundled ? choice.regionId : choice.path,
                  choice.regionId == current);
    }
    formChanged();
}

StudyPlan StudyPage::plan() const {
    StudyPlan plan;
    plan.name = m_scenario.name + " study";
    plan.from = m_from->dateTime().toSecsSinceEpoch();
    plan.to = m_to->dateTime().toSecsSinceEpoch();
    plan.everyHours = m_everyHours->value();
    plan.regions = checkedValues(m_regions);
    plan.slacks = percentList(m_slack->text());
    plan.policies = checkedValues(m_policies);
    plan.parkedIdle = m_idle->isChecked();
    plan.parkedReleased = m_released->isChecked();
    plan.noisyForecast = errorTakingForecast();
    plan.errors = percentList(m_errors->text());
    plan.seeds = m_seeds->value();
    plan.splitSavings = m_splitSavings->isChecked();
    return plan;
}

void StudyPage::formChanged() {
    const int cells = static_cast<int>(std::min<std::uint64_t>(plannedCellCount(plan()), INT_MAX));
    m_cells->setText(tr("%n cell(s)", nullptr, cells));
    m_estimateText->setText(tr("Estimate to see how long it will take."));
    m_run->setEnabled(false); // the estimate reads the study the form now describes
    m_estimate->setEnabled(cells > 0 && !m_cancel->isEnabled());
}

void StudyPage::showEstimate(int cells, double seconds) {
    const QString time = seconds < 120    ? tr("%1 s").arg(seconds, 0, 'f', 0)
                         : seconds < 7200 ? tr("%1 min").arg(seconds / 60, 0, 'f', 0)
                                          : tr("%1 h").arg(seconds / 3600, 0, 'f', 1);
    m_estimateText->setText(
        tr("%n cell(s); about %1 on this machine (one cell of each policy timed).", nullptr, cells)
            .arg(time));
    m_run->setEnabled(cells > 0);
}

void StudyPage::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_estimate->setEnabled(!running);
    m_openFile->setEnabled(!running);
    m_run->setEnabled(!running && m_run->isEnabled());
    m_progress->setVisible(running);
}

void StudyPage::setProgress(int done, int total) {
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_progress->setFormat(tr("%1 of %2 cells").arg(done).arg(total));
}

void StudyPage::startTable(const std::vector<std::string>& columns) {
    m_savedStudy.reset();
    m_rows.clear();
    m_columns = columns;
    redraw();
}

void StudyPage::addRows(const std::vector<StudyRow>& rows) {
    m_rows.insert(m_rows.end(), rows.begin(), rows.end());
    if (m_redrawPending)
        return;
    m_redrawPending = true; // at most twice a second, however fast cells come
    QTimer::singleShot(500, this, [this] {
        m_redrawPending = false;
        redraw();
    });
}

void StudyPage::openSavedStudy(StudyId id) {
    m_savedStudy = id;
    m_rows.clear();
    m_columns.clear();
    redraw();
}

void StudyPage::showView(const StoredStudy& study, const StudyView& view, int request) {
    if (!m_savedStudy || *m_savedStudy != study.id || request != m_viewRequest)
        return; // a newer choice, or another study, was asked for since
    showMessage(tr("Study %1 '%2': %3 of %4 cells saved.")
                    .arg(study.id)
                    .arg(QString::fromStdString(study.name))
                    .arg(study.savedCells)
                    .arg(study.cellCount));
    m_view = view;
    applyView();
}

void StudyPage::setStudies(const std::vector<StoredStudy>& studies) {
    m_studies->clear();
    for (const StoredStudy& study : studies)
        m_studies->addItem(tr("%1: %2 (%3 of %4 cells)")
                               .arg(study.id)
                               .arg(QString::fromStdString(study.name))
                               .arg(study.savedCells)
                               .arg(study.cellCount),
                           QVariant::fromValue(static_cast<qlonglong>(study.id)));
    m_studies->setCurrentIndex(-1);
    m_studies->setPlaceholderText(
        studies.empty() ? tr("none yet")
                        : tr("open one of %n\u2026", nullptr, static_cast<int>(studies.size())));
}

void StudyPage::showMessage(const QString& text) {
    m_message->setText(text);
}

namespace {

QStringList texts(const std::vector<std::string>& values) {
    QStringList list;
    for (const std::string& value : values)
        list << QString::fromStdString(value);
    return list;
}

QStringList itemTexts(const QComboBox* box) {
    QStringList texts;
    for (int i = 0; i < box->count(); ++i)
        texts << box->itemText(i);
    return texts;
}

} // namespace

// The policies of the study shown (not the form's: a study file has its own), the one the view drew
// current.
void StudyPage::refreshHeatmapChoices() {
    const QSignalBlocker quiet(m_heatmapPolicy);
    const QStringList policies = texts(m_view.policies);
    if (policies != itemTexts(m_heatmapPolicy)) {
        m_heatmapPolicy->clear();
        m_heatmapPolicy->addItems(policies);
    }
    m_heatmapPolicy->setCurrentText(QString::fromStdString(m_view.policy));
}

void StudyPage::refreshFacets() {
    const bool sameAxes =
        m_view.facets.size() == m_facets.size() &&
        std::equal(m_view.facets.begin(), m_view.facets.end(), m_facets.begin(),
                   [](const StudyFacet& shown, const Facet& facet) {
                       return shown.axis.name == facet.axis.name && shown.axis.columns == facet.axis.columns;
                   });
    if (!sameAxes) {
        for (Facet& facet : m_facets) {
            delete facet.label;
            delete facet.values;
        }
        m_facets.clear();
        for (const StudyFacet& shown : m_view.facets) {
            Facet facet{shown.axis,
                        new QLabel(QString::fromStdString(shown.axis.name) + QLatin1Char(':'), this),
                        new QComboBox(this)};
            // A bounded width (the list shows each value whole): values such as "noisy (forecast_error 0.1,
            // forecast_seed 3)" sized to their contents widened the page past a 1280-pixel screen.
            facet.values->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            facet.values->setMinimumContentsLength(kFacetCharacters);
            facet.values->setToolTip(tr("The heatmap at one value of %1, or the mean over all its values")
                                         .arg(QString::fromStdString(shown.axis.name)));
            const auto at = static_cast<int>(m_facets.size());
            m_facetGrid->addWidget(facet.label, at / kFacetsPerRow, (at % kFacetsPerRow) * 2);
            m_facetGrid->addWidget(facet.values, at / kFacetsPerRow, (at % kFacetsPerRow) * 2 + 1);
            connect(facet.values, &QComboBox::currentIndexChanged, this, &StudyPage::redraw);
            m_facets.push_back(facet);
        }
    }
    for (std::size_t i = 0; i < m_facets.size(); ++i) {
        const StudyFacet& shown = m_view.facets[i];
        QComboBox* box = m_facets[i].values;
        const QSignalBlocker quiet(box);
        const QString pooled = tr("all (mean)");
        const QStringList values = texts(shown.values);
        if (values + QStringList{pooled} != itemTexts(box)) {
            box->clear();
            for (const QString& value : values)
                box->addItem(value, value);
            box->addItem(pooled); // no data: nothing is held
        }
        box->setCurrentIndex(shown.held == kPooledFacet
                                 ? box->count() - 1
                                 : std::max(0, box->findData(QString::fromStdString(shown.held))));
    }
}

QComboBox* StudyPage::facetBox(const std::string& axis) const {
    for (const Facet& facet : m_facets)
        if (facet.axis.name == axis)
            return facet.values;
    return nullptr;
}

// What the choices above the heatmap now say; a facet without values yet is left to its default.
StudyViewChoice StudyPage::choice() const {
    StudyViewChoice choice;
    if (m_heatmapPolicy->currentIndex() >= 0)
        choice.policy = m_heatmapPolicy->currentText().toStdString();
    for (const Facet& facet : m_facets) {
        if (facet.values->count() <= 1)
            continue; // no value yet (a study just started): nobody chose; the first to come is held
        const QVariant value = facet.values->currentData();
        choice.facets[facet.axis.name] = value.isValid() ? value.toString().toStdString() : kPooledFacet;
    }
    return choice;
}

// A study running on the page is drawn from its rows here (studies a desktop computes are small enough);
// a saved one is read by the store off the GUI thread, whatever its size, and drawn when its view comes back
// (showView).
void StudyPage::redraw() {
    if (m_savedStudy) {
        showMessage(tr("Reading study %1\u2026").arg(*m_savedStudy)); // a large one takes seconds
        Q_EMIT studyViewRequested(*m_savedStudy, choice(), ++m_viewRequest);
        return;
    }
    const StudyTable table = studyTable(m_columns, m_rows, defaultBaselinePolicy().name);
    m_view = studyView(TableRows(table), choice());
    applyView();
}

void StudyPage::applyView() {
    refreshHeatmapChoices();
    refreshFacets();
    if (m_view.rows == 0) { // say what will be here, rather than empty 0-5 axes
        StudyFigureData heatmap;
        heatmap.note = tr("Savings by start and region\nfill in here as the study runs.").toStdString();
        StudyFigureData cdf;
        cdf.note = tr("The CDF of savings per policy\nover every cell fills in here.").toStdString();
        m_heatmap->setFigure(StudyPlot::Kind::Heatmap, heatmap);
        m_cdf->setFigure(StudyPlot::Kind::Cdf, cdf);
        enableExports();
        return;
    }
    // A figure that cannot be drawn says why in its own place (e.g. no cell of that policy has savings yet,
    // or a study without a region axis): the message line below the buttons keeps the study's status.
    m_cdf->setFigure(StudyPlot::Kind::Cdf, m_view.cdf);
    m_heatmap->setFigure(StudyPlot::Kind::Heatmap, m_view.heatmap);
    enableExports();
}

// A figure with nothing drawn (nothing run yet, or a note saying why it cannot be) has nothing to export.
void StudyPage::enableExports() {
    m_exportHeatmap->setEnabled(!m_heatmap->data().heatmap.regions.empty());
    m_exportCdf->setEnabled(!m_cdf->data().lines.empty());
}

// The study cell under the click: its start, region and policy, and every facet's value; where a facet pools
// its values, the first of the cells it pools (the opened scenario's name says which). The heatmap carries
// each cell's index: nothing is looked up in rows the page may not hold.
void StudyPage::heatmapClicked(QMouseEvent* event) {
    const StudyHeatmap& map = m_heatmap->data().heatmap;
    if (map.regions.empty() || m_heatmap->axisRects().isEmpty())
        return;
    QCPAxisRect* rect = m_heatmap->axisRects().front();
    const double t = rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
    const auto row =
        static_cast<long>(std::lround(rect->axis(QCPAxis::atLeft)->pixelToCoord(event->position().y())));
    const int column = map.columnAt(static_cast<UtcSeconds>(std::floor(t)));
    if (row < 0 || row >= static_cast<long>(map.regions.size()) || column < 0)
        return;
    const std::string startText = formatIsoUtc(map.starts[static_cast<std::size_t>(column)]);
    const std::int64_t cell =
        map.cells[static_cast<std::size_t>(row) * map.starts.size() + static_cast<std::size_t>(column)];
    if (cell >= 0) {
        Q_EMIT openCellRequested(static_cast<std::size_t>(cell));
        return;
    }
    showMessage(tr("No cell of %1 in %2 starting %3 ran (it is infeasible or not run yet).")
                    .arg(QString::fromStdString(map.policy),
                         QString::fromStdString(map.regions[static_cast<std::size_t>(row)]),
                         QString::fromStdString(startText)));
}

} // namespace carbon3d::ui
