// SPDX-License-Identifier: MIT
#include "pages/ScenarioPage.h"

#include "FileDialogs.h"
#include "TextStyles.h"
#include "WheelGuard.h"
#include "config/Presets.h"
#include "domain/ModelShape.h"
#include "domain/ScenarioName.h"
#include "engine/forecast/Forecaster.h"
#include "pages/ModellingForm.h"
#include "pages/PolicyVariantsBox.h"
#include "perf/ModelMath.h"
#include "traces/RegionTimeZones.h"
#include "traces/TraceLoader.h"
#include "traces/TraceSummary.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyle>
#include <QTimeZone>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

namespace carbon3d::ui {

namespace {

// A token budget in billions without trailing zeros: "120 B tokens", "0.012 B tokens" (three decimals
// throughout showed "1000.000 B tokens").
class TokenBudgetBox final : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;

protected:
    QString textFromValue(double value) const override {
        QString text = locale().toString(value, 'f', decimals());
        text.remove(locale().groupSeparator());
        const QString point = locale().decimalPoint();
        if (text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point))
                text.chop(point.size());
        }
        return text;
    }
};

// Model presets by family, then size: their files sort as text ("megatron-145.6b" before "megatron-18.4b",
// "llama2-13b" before "llama2-7b"). The family is the id before its last '-'.
std::vector<ModelSpec> modelPresetsInOrder() {
    std::vector<std::pair<std::string, ModelSpec>> presets;
    for (const std::string& id : modelPresetIds()) {
        if (std::optional<ModelSpec> model = findModelPreset(id))
            presets.emplace_back(id.substr(0, id.rfind('-')), std::move(*model));
    }
    std::stable_sort(presets.begin(), presets.end(), [](const auto& a, const auto& b) {
        return std::forward_as_tuple(a.first, parameterCount(a.second)) <
               std::forward_as_tuple(b.first, parameterCount(b.second));
    });
    std::vector<ModelSpec> models;
    for (auto& preset : presets)
        models.push_back(std::move(preset.second));
    return models;
}

// Marks an invalid field: a red frame through a dynamic property the style sheet keys on.
const char* const kInvalidProperty = "invalid";

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// How the form shows each of the job's stack switches (kStackSwitches, in its order): the row, the check
// box's text and its tool tip. The box is named for the switch's scenario key.
struct StackSwitchText {
    std::string_view key;
    const char* row;
    const char* text;
    const char* toolTip;
};
constexpr StackSwitchText kStackSwitchTexts[] = {
    {"fsdp", QT_TRANSLATE_NOOP("ScenarioPage", "Sharding"),
     QT_TRANSLATE_NOOP("ScenarioPage", "Offer FSDP (ZeRO-3)"),
     QT_TRANSLATE_NOOP(
         "ScenarioPage",
         "Let the menus also shard weights and gradients over the replicas, gathered layer by "
         "layer (PyTorch FSDP2, torchtitan). Off: Megatron-LM's 3D parallelism with the "
         "distributed optimizer, which the lessons and the A100 validation use. FSDP's overlap is "
         "modelled as perfect prefetch, which published H100 FSDP runs show to be optimistic "
         "(docs/VALIDATION.md, Hopper)")},
    {"interleave", QT_TRANSLATE_NOOP("ScenarioPage", "Pipeline schedule"),
     QT_TRANSLATE_NOOP("ScenarioPage", "Offer interleaved pipeline stages"),
     QT_TRANSLATE_NOOP(
         "ScenarioPage",
         "Let the menus split each pipeline stage into v chunks (Megatron-LM's interleaved 1F1B), "
         "which shrinks the pipeline bubble v-fold for v times the exchanges. Off: plain 1F1B "
         "only, as DeepSpeed's pipeline engine runs and Megatron-LM does unless told to "
         "interleave. SC21's measured strong scaling of GPT-3 175B and a 530B model matches the "
         "model without interleaving; with it the model predicts a smaller drop "
         "(docs/VALIDATION.md, SC21 Table 2)")},
    {"bf16_gradients", QT_TRANSLATE_NOOP("ScenarioPage", "Gradients"),
     QT_TRANSLATE_NOOP("ScenarioPage", "Hold gradients in 16 bits"),
     QT_TRANSLATE_NOOP(
         "ScenarioPage",
         "The stack keeps its gradient buffer in 16 bits, 2 bytes a parameter (NeMo's "
         "grad_sync_dtype bf16, Megatron-Core's grad_reduce_in_fp32 off), so more configurations "
         "fit without recomputation. Off: fp32 gradients, 4 bytes, as Megatron-LM keeps them for "
         "BF16 training. 32-bit training keeps 32-bit gradients either way, so the box is off "
         "limits there (docs/DECISIONS.md)")},
};

constexpr bool textsFollowTheSwitches() {
    if (std::size(kStackSwitchTexts) != std::size(kStackSwitches))
        return false;
    for (std::size_t i = 0; i < std::size(kStackSwitches); ++i)
        if (kStackSwitchTexts[i].key != kStackSwitches[i].key)
            return false;
    return true;
}
static_assert(textsFollowTheSwitches(),
              "every stack switch needs its check box text, in kStackSwitches order");

} // namespace

ScenarioPage::ScenarioPage(QWidget* parent)
    : QWidget(parent) {
    setAcceptDrops(true);
    setStyleSheet(invalidFieldStyle(kInvalidProperty, palette()));
    buildForm();
    WheelGuard::install(this);
}

void ScenarioPage::buildForm() {
    auto* outer = new QVBoxLayout(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the form wraps instead
    auto* content = new QWidget(scroll);
    auto* column = new QVBoxLayout(content);
    column->addWidget(buildPlaceGroup(content));
    column->addWidget(buildJobGroup());
    column->addWidget(buildDeadlineGroup());
    column->addWidget(buildPolicyGroup());
    column->addWidget(buildForecastGroup());
    m_modelling = new ModellingForm(content);
    column->addWidget(m_modelling);
    column->addStretch(1);
    // Combo boxes size to a short minimum rather than their longest entry, so the form fits its column.
    const QList<QComboBox*> combos = content->findChildren<QComboBox*>();
    for (QComboBox* combo : combos) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(14);
    }
    scroll->setWidget(content);
    outer->addWidget(scroll, 1);
    addRunControls(outer);
    connectButtons();
    connectEdits();
}

// Where and when: the region (imported traces join it) and the start, in UTC and in the region's local
// time.
QWidget* ScenarioPage::buildPlaceGroup(QWidget* content) {
    auto* place = new QGroupBox(tr("Where and when"), content);
    auto* placeForm = new QFormLayout(place);
    auto* regionRow = new QHBoxLayout;
    m_region = new QComboBox(place);
    m_region->setToolTip(
        tr("Grid region whose hourly carbon intensity the job runs on. Bundled: Electricity Maps "
           "2022 life-cycle averages (ODbL). Drop a trace file here to import one."));
    m_import = new QPushButton(tr("Import\u2026"), place);
    m_import->setToolTip(QString::fromStdString(traceFormatNames()));
    regionRow->addWidget(m_region, 1);
    regionRow->addWidget(m_import);
    placeForm->addRow(tr("Region"), regionRow);
    m_importError = new QLabel(place);
    m_importError->setWordWrap(true);
    m_importError->setStyleSheet(textStyle(TextRole::Error, palette()));
    m_importError->setVisible(false);
    m_importError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    placeForm->addRow(QString(), m_importError);
    // Kept while the import is chosen: the status bar's message was gone at the next edit.
    m_traceNote = new QLabel(place);
    m_traceNote->setObjectName(QStringLiteral("traceNote"));
    m_traceNote->setWordWrap(true);
    m_traceNote->setStyleSheet(textStyle(TextRole::Secondary, palette()));
    m_traceNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_traceNote->setVisible(false);
    placeForm->addRow(QString(), m_traceNote);
    m_start = new QDateTimeEdit(place);
    m_start->setCalendarPopup(true);
    m_start->setTimeSpec(Qt::UTC);
    m_start->setDisplayFormat(QStringLiteral("yyyy-MM-dd hh:mm 'UTC'"));
    m_start->setToolTip(tr("When the job may start (UTC). The bundled traces cover 2022."));
    placeForm->addRow(tr("Start"), m_start);
    // The plots read in the region's local time: say what the UTC start is there, so the two agree.
    m_startLocal = new QLabel(place);
    m_startLocal->setObjectName(QStringLiteral("startLocal"));
    m_startLocal->setStyleSheet(textStyle(TextRole::Secondary, palette()));
    placeForm->addRow(QString(), m_startLocal);
    return place;
}

void ScenarioPage::addRunControls(QVBoxLayout* outer) {
    m_errors = new QLabel(this);
    m_errors->setWordWrap(true);
    m_errors->setStyleSheet(textStyle(TextRole::Error, palette()));
    outer->addWidget(m_errors);
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run"), this);
    m_run->setDefault(true);
    m_run->setToolTip(tr("Simulate every ticked policy on this scenario (Ctrl+R)"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    buttons->addWidget(m_run, 1);
    buttons->addWidget(m_cancel);
    outer->addLayout(buttons);
}

void ScenarioPage::connectButtons() {
    connect(m_run, &QPushButton::clicked, this, &ScenarioPage::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ScenarioPage::cancelRequested);
    connect(m_import, &QPushButton::clicked, this, [this] {
        const QString path = chooseOpenFile(
            this, tr("Import carbon trace"), QString(),
            tr("Carbon traces (%1);;All files (*)").arg(QString::fromStdString(traceFilePatterns())));
        if (!path.isEmpty())
            Q_EMIT importTraceRequested(path);
    });
}

// Every edit revalidates and notifies; job and cluster edits also invalidate the static-max runtime.
void ScenarioPage::connectEdits() {
    const auto edited = [this] {
        if (m_loading)
            return;
        refreshValidation();
        Q_EMIT scenarioEdited();
    };
    const auto jobEdited = [this, edited] {
        if (m_loading)
            return;
        edited();
        Q_EMIT jobOrClusterChanged();
    };
    connect(m_region, &QComboBox::currentIndexChanged, this, edited);
    connect(m_start, &QDateTimeEdit::dateTimeChanged, this, edited);
    connect(m_start, &QDateTimeEdit::dateTimeChanged, this, &ScenarioPage::refreshLocalStart);
    connect(m_region, &QComboBox::currentIndexChanged, this, &ScenarioPage::refreshLocalStart);
    connect(m_region, &QComboBox::currentIndexChanged, this, &ScenarioPage::refreshTraceNote);
    connect(m_model, &QComboBox::currentIndexChanged, this, jobEdited);
    connect(m_tokensBillions, &QDoubleSpinBox::valueChanged, this, jobEdited);
    connect(m_globalBatch, &QSpinBox::valueChanged, this, jobEdited);
    connect(m_contextParallel, &QSpinBox::valueChanged, this, jobEdited);
    connect(m_precision, &QComboBox::currentIndexChanged, this, jobEdited);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &ScenarioPage::refreshStackSwitchBoxes);
    for (QCheckBox* box : m_stackSwitchBoxes)
        connect(box, &QCheckBox::toggled, this, jobEdited);
    connect(m_cluster, &QComboBox::currentIndexChanged, this, jobEdited);
    connect(m_gpus, &QSpinBox::valueChanged, this, jobEdited);
    connect(m_slack, &QSlider::valueChanged, this, [this, edited] {
        refreshSlackLabel();
        edited();
    });
    connect(m_forecast, &QComboBox::currentIndexChanged, this, [this, edited] {
        enableForecastFields(m_forecast->currentData().toString().toStdString());
        edited();
    });
    connect(m_forecastError, &QDoubleSpinBox::valueChanged, this, edited);
    connect(m_forecastSeed, &QSpinBox::valueChanged, this, edited);
    // A field that changes the menu (the goodput) changes the static-max runtime, as the job does.
    connect(m_modelling, &ModellingForm::edited, this, [edited, jobEdited](bool changesMenu) {
        if (changesMenu)
            jobEdited();
        else
            edited();
    });
}

QWidget* ScenarioPage::buildJobGroup() {
    auto* group = new QGroupBox(tr("Job and cluster"));
    auto* form = new QFormLayout(group);
    form->addRow(tr("Model"), buildModelBox(group));
    form->addRow(buildCustomShape(group));
    m_customShape->setVisible(false);
    connect(m_model, &QComboBox::currentIndexChanged, this, &ScenarioPage::followModelChoice);
    addSizeRows(group, form);
    addPrecisionRows(group, form);
    addClusterRows(group, form);
    return group;
}

QComboBox* ScenarioPage::buildModelBox(QWidget* group) {
    m_model = new QComboBox(group);
    for (const ModelSpec& model : modelPresetsInOrder()) {
        m_model->addItem(fromStd(model.name), fromStd(model.id));
        m_model->setItemData(m_model->count() - 1, fromStd(model.source), Qt::ToolTipRole);
    }
    m_model->addItem(tr("Custom shape\u2026"), QString()); // empty id: the shape comes from the fields below
    m_model->setToolTip(
        tr("Transformer to train (shape presets with their published sources, or a custom shape)"));
    return m_model;
}

QWidget* ScenarioPage::buildCustomShape(QWidget* group) {
    m_customShape = new QWidget(group);
    auto* shape = new QFormLayout(m_customShape);
    shape->setContentsMargins(16, 0, 0, 0);
    addShapeField(shape, "layers", tr("Transformer layers l"));
    addShapeField(shape, "hidden", tr("Hidden size h; must be a multiple of the heads"));
    addShapeField(shape, "heads", tr("Attention heads a"));
    addShapeField(shape, "kv_heads", tr("Key/value heads g (GQA); equal to the heads for classic attention"));
    addShapeField(shape, "ffn_hidden", tr("MLP hidden size f (4h for GPT)"));
    addShapeField(shape, "vocab", tr("Vocabulary size V"));
    addShapeField(shape, "seq_len", tr("Training sequence length s, tokens"));
    m_gated = new QCheckBox(tr("Gated MLP (SwiGLU, three matrices)"), m_customShape);
    shape->addRow(QString(), m_gated);
    // Llama-style models train without dropout and so store no dropout masks (docs/MODEL.md, memory).
    m_dropout = new QCheckBox(tr("Trained with dropout"), m_customShape);
    m_dropout->setToolTip(tr("GPT and BLOOM trained with dropout, Llama without. With dropout every layer "
                             "stores its dropout masks for the backward pass."));
    shape->addRow(QString(), m_dropout);
    addAttentionFields(shape);
    addExpertFields(shape);
    for (QCheckBox* box : {m_gated, m_dropout}) {
        connect(box, &QCheckBox::toggled, this, [this] {
            if (!m_loading)
                Q_EMIT jobOrClusterChanged();
        });
    }
    return m_customShape;
}

// The range of each field is the shared shape rule's, so the form holds any shape a model file can (a
// narrower box would silently clamp a loaded shape) and refuses what a file would.
void ScenarioPage::addShapeField(QFormLayout* shape, std::string_view key, const QString& tip) {
    const ModelShapeField& field = *findModelShapeField(key);
    addShapeField(shape, field, std::string(key), fromStd(std::string(field.label)), tip);
}

namespace {

std::string qualifiedKey(std::string_view object, std::string_view key) {
    return std::string(object).append(".").append(key);
}

} // namespace

void ScenarioPage::addAttentionFields(QFormLayout* shape) {
    auto* group = new QGroupBox(tr("Attention heads set apart (0: hidden / heads)"), m_customShape);
    group->setToolTip(tr("A head size other than hidden / heads (Qwen3), or multi-head latent attention "
                         "(DeepSeek-V3: its query and key/value ranks and head sizes); all 0 for "
                         "classic attention"));
    auto* form = new QFormLayout(group);
    for (const ModelShapeField& field : attentionShapeFields())
        addShapeField(form, field, qualifiedKey(kAttentionObject, field.key),
                      fromStd(std::string(field.label)),
                      tr("%1 (%2)").arg(fromStd(std::string(field.label)), fromStd(std::string(field.unit))));
    shape->addRow(group);
}

void ScenarioPage::addExpertFields(QFormLayout* shape) {
    m_moeGroup = new QGroupBox(tr("Mixture of experts"), m_customShape);
    m_moeGroup->setCheckable(true);
    m_moeGroup->setChecked(false);
    m_moeGroup->setToolTip(tr("Routed experts in place of the MLP of some layers; unchecked: a dense "
                              "model. Expert parallelism is searched with the other degrees"));
    auto* form = new QFormLayout(m_moeGroup);
    for (const ModelShapeField& field : moeShapeFields())
        addShapeField(form, field, qualifiedKey(kMoeObject, field.key), fromStd(std::string(field.label)),
                      tr("%1 (%2)").arg(fromStd(std::string(field.label)), fromStd(std::string(field.unit))));
    m_capacityFactor = new QDoubleSpinBox(m_moeGroup);
    m_capacityFactor->setRange(0.0, kMaxCapacityFactor);
    m_capacityFactor->setDecimals(2);
    m_capacityFactor->setSpecialValueText(tr("dropless"));
    m_capacityFactor->setToolTip(tr("Tokens an expert takes, in multiples of its even share (tokens beyond "
                                    "are dropped); 0: dropless routing"));
    form->addRow(tr("Capacity factor"), m_capacityFactor);
    shape->addRow(m_moeGroup);
    connect(m_moeGroup, &QGroupBox::toggled, this, &ScenarioPage::shapeEdited);
    connect(m_capacityFactor, &QDoubleSpinBox::valueChanged, this, &ScenarioPage::shapeEdited);
}

void ScenarioPage::addShapeField(QFormLayout* shape, const ModelShapeField& field, const std::string& key,
                                 const QString& label, const QString& tip) {
    auto* box = new QSpinBox(m_customShape);
    box->setRange(field.min, field.max);
    box->setToolTip(tip);
    box->setProperty("normalToolTip", tip);
    shape->addRow(label, box);
    m_shapeBoxes[key] = box;
    connect(box, &QSpinBox::valueChanged, this, &ScenarioPage::shapeEdited);
}

void ScenarioPage::shapeEdited() {
    if (m_loading)
        return;
    refreshValidation();
    Q_EMIT scenarioEdited();
    Q_EMIT jobOrClusterChanged();
}

void ScenarioPage::followModelChoice() {
    const QString id = m_model->currentData().toString();
    const bool custom = id.isEmpty();
    if (custom && !m_customShape->isVisible()) {
        // Start the custom shape from the preset that was selected before.
        if (const auto previous = findModelPreset(m_lastPresetId.toStdString()))
            setShapeFields(*previous);
    }
    if (!custom)
        m_lastPresetId = id;
    m_customShape->setVisible(custom);
}

void ScenarioPage::addSizeRows(QWidget* group, QFormLayout* form) {
    m_tokensBillions = new TokenBudgetBox(group);
    m_tokensBillions->setRange(0.001, 100000);
    m_tokensBillions->setDecimals(3);
    m_tokensBillions->setSuffix(tr(" B tokens"));
    m_tokensBillions->setToolTip(
        tr("Training-token budget, billions of tokens (GPT-3 was trained on 300 B)"));
    form->addRow(tr("Token budget"), m_tokensBillions);
    m_globalBatch = new QSpinBox(group);
    m_globalBatch->setRange(1, 1 << 20);
    m_globalBatch->setSuffix(tr(" sequences"));
    m_globalBatch->setToolTip(
        tr("Global batch B in sequences per optimizer step (GPT-3 175B used 1,536 in Megatron's "
           "SC21 runs)"));
    form->addRow(tr("Global batch"), m_globalBatch);
    m_contextParallel = new QSpinBox(group);
    m_contextParallel->setRange(1, 4096);
    m_contextParallel->setSuffix(tr(" GPUs per sequence"));
    m_contextParallel->setToolTip(
        tr("Context parallelism cp: each sequence split over cp GPUs, for long sequences (Llama 3 405B "
           "used 16 at 128K tokens). Every configuration the policies choose from holds it; 1 is none"));
    form->addRow(tr("Context parallel"), m_contextParallel);
}

void ScenarioPage::addPrecisionRows(QWidget* group, QFormLayout* form) {
    m_precision = new QComboBox(group);
    for (const Precision precision : kPrecisions)
        m_precision->addItem(fromStd(precisionName(precision)).toUpper(),
                             QString::fromLatin1(precisionName(precision)));
    m_precision->setToolTip(
        tr("Arithmetic precision of the matrix units. The cluster's accelerator must have a peak for it: "
           "V100 trains in FP16 (with loss scaling) or FP32, A100 and MI250X in BF16, H100, H200 and "
           "MI300X also in FP8 (weights held in FP8, as NeMo's FP8 recipes do)"));
    form->addRow(tr("Precision"), m_precision);
    // What the job's training stack does that changes the search: a check box per switch.
    for (const StackSwitchText& text : kStackSwitchTexts) {
        auto* box = new QCheckBox(tr(text.text), group);
        box->setObjectName(QString::fromLatin1(text.key.data(), static_cast<qsizetype>(text.key.size())));
        box->setToolTip(tr(text.toolTip));
        form->addRow(tr(text.row), box);
        m_stackSwitchBoxes.push_back(box);
    }
}

void ScenarioPage::addClusterRows(QWidget* group, QFormLayout* form) {
    m_cluster = new QComboBox(group);
    for (const std::string& id : clusterPresetIds()) {
        const auto cluster = findClusterPreset(id);
        m_cluster->addItem(cluster ? fromStd(cluster->name) : fromStd(id), fromStd(id));
    }
    m_cluster->setToolTip(
        tr("Cluster profile: accelerator data sheet (dense FLOP/s), network, node overhead, PUE and "
           "embodied carbon, each figure with its source in the preset file"));
    form->addRow(tr("Cluster"), m_cluster);
    m_gpus = new QSpinBox(group);
    m_gpus->setRange(1, 1 << 20);
    m_gpus->setSuffix(tr(" GPUs"));
    m_gpus->setToolTip(tr("GPUs allocated to the job; policies may park some of them"));
    form->addRow(tr("GPUs"), m_gpus);
    m_gpuNote = new QLabel(group);
    m_gpuNote->setWordWrap(true);
    m_gpuNote->setStyleSheet(textStyle(TextRole::Warning, palette()));
    m_gpuNote->setVisible(false);
    form->addRow(QString(), m_gpuNote);
}

QWidget* ScenarioPage::buildDeadlineGroup() {
    auto* group = new QGroupBox(tr("Deadline"));
    auto* form = new QFormLayout(group);
    auto* row = new QHBoxLayout;
    m_slack = new QSlider(Qt::Horizontal, group);
    m_slack->setRange(0, 300);
    m_slack->setSingleStep(5);
    m_slack->setPageStep(25);
    m_slack->setToolTip(
        tr("Slack over the carbon-agnostic runtime (static-max): 25 % means the job may take 1.25x "
           "as long. The ILP article cites 10-20 % flexibility as enough for large savings."));
    m_slackLabel = new QLabel(group);
    m_slackLabel->setMinimumWidth(170);
    row->addWidget(m_slack, 1);
    row->addWidget(m_slackLabel);
    form->addRow(tr("Slack"), row);
    return group;
}

QWidget* ScenarioPage::buildPolicyGroup() {
    auto* group = new QGroupBox(tr("Policies to compare"));
    m_policyLayout = new QVBoxLayout(group);
    return group;
}

void ScenarioPage::enableForecastFields(const std::string& kind) {
    const ForecastKindInfo* info = findForecastKind(kind);
    m_forecastError->setEnabled(info != nullptr && info->takesError);
    m_forecastSeed->setEnabled(info != nullptr && info->seeded());
}

QWidget* ScenarioPage::buildForecastGroup() {
    auto* group = new QGroupBox(tr("Forecast the policies decide on"));
    auto* form = new QFormLayout(group);
    m_forecast = new QComboBox(group);
    m_forecast->setObjectName(QStringLiteral("forecastKind"));
    for (const ForecastKindInfo& kind : forecastCatalog()) {
        m_forecast->addItem(fromStd(kind.label), fromStd(kind.kind));
        m_forecast->setItemData(m_forecast->count() - 1, fromStd(kind.description), Qt::ToolTipRole);
    }
    m_forecast->setToolTip(tr("Policies never see the future unless this is the oracle"));
    form->addRow(tr("Forecast"), m_forecast);
    m_forecastError = new QDoubleSpinBox(group);
    m_forecastError->setRange(0, 100);
    m_forecastError->setSuffix(tr(" % of mean"));
    m_forecastError->setToolTip(
        tr("Noisy oracle: standard deviation as a percentage of the trace mean (Let's Wait "
           "Awhile used 0, 5 and 10 %)"));
    form->addRow(tr("Error"), m_forecastError);
    m_forecastSeed = new QSpinBox(group);
    m_forecastSeed->setRange(0, 1 << 30);
    m_forecastSeed->setToolTip(tr("Random seed of the forecast's error (same seed, same forecast)"));
    form->addRow(tr("Seed"), m_forecastSeed);
    return group;
}

void ScenarioPage::setPolicyChoices(const std::vector<PolicyChoice>& policies) {
    for (QWidget* row : m_policyRows)
        row->deleteLater();
    m_policyRows.clear();
    m_policyBoxes.clear();
    m_variantBoxes.clear();
    m_policyChoices = policies;
    for (const PolicyChoice& policy : policies) {
        // Name on the check box, the description wrapped beneath it: long lines must not widen the form.
        auto* row = new QWidget(this);
        auto* rowLayout = new QVBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        rowLayout->setSpacing(0);
        auto* line = new QHBoxLayout;
        auto* box = new QCheckBox(policy.name, row);
        box->setObjectName(policy.name);
        box->setToolTip(tr("%1\nSource: %2").arg(policy.description, policy.source));
        line->addWidget(box, 1);
        auto* variants = new PolicyVariantsBox(policy.name, row);
        if (!policy.options.empty()) {
            auto* edit = new QToolButton(row);
            edit->setObjectName(QStringLiteral("options:") + policy.name);
            edit->setText(tr("Options\u2026"));
            edit->setAutoRaise(true);
            edit->setToolTip(tr("Set %1's options (%2)").arg(policy.name).arg(policy.options.size()));
            connect(edit, &QToolButton::clicked, this,
                    [this, name = policy.name] { editPolicyOptions(name); });
            line->addWidget(edit);
            // Another run of the same policy with other options, beside this one (issue 43).
            auto* add = new QToolButton(row);
            add->setObjectName(QStringLiteral("addVariant:") + policy.name);
            add->setText(QStringLiteral("+"));
            add->setAutoRaise(true);
            add->setToolTip(
                tr("Also run %1 with other options: a variant, a run of its own").arg(policy.name));
            connect(add, &QToolButton::clicked, this, [this, name = policy.name] { addPolicyVariant(name); });
            line->addWidget(add);
        }
        rowLayout->addLayout(line);
        auto* label = new QLabel(policy.description, row);
        label->setWordWrap(true);
        label->setContentsMargins(22, 0, 0, 4);
        label->setStyleSheet(textStyle(TextRole::Secondary, palette()));
        label->setToolTip(tr("Source: %1").arg(policy.source));
        rowLayout->addWidget(label);
        rowLayout->addWidget(variants);
        connect(variants, &PolicyVariantsBox::editRequested, this,
                [this, name = policy.name](int index) { editPolicyVariant(name, index); });
        connect(variants, &PolicyVariantsBox::changed, this, [this] {
            refreshValidation();
            Q_EMIT scenarioEdited();
        });
        m_policyLayout->addWidget(row);
        m_policyRows.push_back(row);
        m_policyBoxes.push_back(box);
        m_variantBoxes.push_back(variants);
        connect(box, &QCheckBox::toggled, this, [this] {
            if (m_loading)
                return;
            refreshValidation();
            Q_EMIT scenarioEdited();
        });
    }
    setScenario(m_base);
}

PolicyOptionsDialog* ScenarioPage::editPolicyOptions(const QString& name) {
    return editPolicyVariant(name, 0);
}

PolicyOptionsDialog* ScenarioPage::addPolicyVariant(const QString& name) {
    PolicyVariantsBox* variants = variantsBox(name);
    return variants == nullptr ? nullptr
                               : editPolicyVariant(name, static_cast<int>(variants->variants().size()));
}

PolicyOptionsDialog* ScenarioPage::editPolicyVariant(const QString& name, int index) {
    const auto choice = std::find_if(m_policyChoices.begin(), m_policyChoices.end(),
                                     [&name](const PolicyChoice& c) { return c.name == name; });
    PolicyVariantsBox* variants = variantsBox(name);
    if (choice == m_policyChoices.end() || choice->options.empty() || variants == nullptr || index < 0)
        return nullptr;
    PolicyOptionCatalogue catalogue;
    for (const PolicyChoice& policy : m_policyChoices)
        catalogue[policy.name] = policy.options;
    // A new variant starts from the policy's own options: most variants change one of them.
    const auto at = static_cast<std::size_t>(index);
    const std::vector<PolicyVariantsBox::Options>& known = variants->variants();
    auto* dialog =
        new PolicyOptionsDialog(name, catalogue, at < known.size() ? known[at] : known.front(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, variants, at, name] {
        if (variants->setVariant(at, dialog->options()) && at > 0)
            policyBox(name)->setChecked(true); // a variant is added to be run
    });
    dialog->open(); // window-modal, without a nested event loop
    return dialog;
}

std::optional<std::size_t> ScenarioPage::policyIndex(const QString& name) const {
    for (std::size_t i = 0; i < m_policyBoxes.size(); ++i) {
        if (m_policyBoxes[i]->objectName() == name)
            return i;
    }
    return std::nullopt;
}

PolicyVariantsBox* ScenarioPage::variantsBox(const QString& name) const {
    const std::optional<std::size_t> index = policyIndex(name);
    return index ? m_variantBoxes[*index] : nullptr;
}

QCheckBox* ScenarioPage::policyBox(const QString& name) const {
    const std::optional<std::size_t> index = policyIndex(name);
    return index ? m_policyBoxes[*index] : nullptr;
}

void ScenarioPage::setTraceChoices(const std::vector<TraceChoice>& traces) {
    // The region in the form stays chosen, with its trace already read: on a loaded machine the data
    // folder's scan can finish after `carbon3d --scenario F` has put F in the form, and rebuilding the list
    // under it showed another region than F's (tst_studio aLateScanKeepsTheScenariosRegion).
    const int current = m_region->currentIndex();
    std::optional<std::pair<TraceChoice, CarbonTrace>> kept;
    if (current >= 0 && static_cast<std::size_t>(current) < m_traceChoices.size())
        kept.emplace(m_traceChoices[static_cast<std::size_t>(current)],
                     m_loadedTraces[static_cast<std::size_t>(current)]);
    m_traceChoices = traces;
    m_loadedTraces.assign(traces.size(), CarbonTrace{});
    const bool wasLoading = m_loading;
    m_loading = true;
    m_region->clear();
    for (const TraceChoice& trace : traces)
        m_region->addItem(trace.label, trace.path);
    if (kept) {
        const auto same =
            std::find_if(m_traceChoices.begin(), m_traceChoices.end(), [&](const TraceChoice& c) {
                return c.regionId == kept->first.regionId && c.path == kept->first.path;
            });
        auto at = static_cast<std::size_t>(same - m_traceChoices.begin());
        if (same == m_traceChoices.end()) { // another file than the bundled ones (an import, an archive)
            m_traceChoices.push_back(kept->first);
            m_loadedTraces.emplace_back();
            m_region->addItem(kept->first.label, kept->first.path);
        }
        m_loadedTraces[at] = std::move(kept->second);
        m_region->setCurrentIndex(static_cast<int>(at));
    }
    m_loading = wasLoading;
}

void ScenarioPage::setScenario(const Scenario& scenario) {
    m_loading = true;
    m_base = scenario;
    if (!scenario.regions.empty()) {
        const RegionSpec& region = scenario.regions.front();
        // The same region from another file (GB's 2023 archive beside the bundled 2022 year) is another
        // choice: matching the id alone showed and saved the bundled file's name for the other file's data.
        const QString source = QFileInfo(fromStd(region.trace.provenance.sourceFile)).canonicalFilePath();
        int found = -1;
        for (std::size_t i = 0; i < m_traceChoices.size(); ++i) {
            if (m_traceChoices[i].regionId == fromStd(region.regionId) &&
                QFileInfo(m_traceChoices[i].path).canonicalFilePath() == source)
                found = static_cast<int>(i);
        }
        if (found < 0) {
            const QString file = QFileInfo(source).fileName();
            m_traceChoices.push_back(
                TraceChoice{QStringLiteral("%1 (%2)").arg(fromStd(region.regionId), file),
                            fromStd(region.trace.provenance.sourceFile), fromStd(region.regionId)});
            m_loadedTraces.push_back(region.trace);
            m_region->addItem(m_traceChoices.back().label, m_traceChoices.back().path);
            found = m_region->count() - 1;
        } else {
            m_loadedTraces[static_cast<std::size_t>(found)] = region.trace;
        }
        m_region->setCurrentIndex(found);
    }
    m_start->setDateTime(QDateTime::fromSecsSinceEpoch(scenario.startUtc, QTimeZone::utc()));
    refreshLocalStart(); // signals may be blocked while the form loads
    refreshTraceNote();
    const int preset = scenario.job.model.id.empty() ? -1 : m_model->findData(fromStd(scenario.job.model.id));
    if (preset >= 0)
        m_lastPresetId = fromStd(scenario.job.model.id);
    m_model->setCurrentIndex(preset >= 0 ? preset : m_model->count() - 1); // else the custom entry
    setShapeFields(scenario.job.model);
    m_customShape->setVisible(preset < 0);
    m_tokensBillions->setValue(scenario.job.tokens / 1e9);
    m_globalBatch->setValue(scenario.job.globalBatch);
    m_contextParallel->setValue(scenario.job.contextParallel);
    for (std::size_t i = 0; i < m_stackSwitchBoxes.size(); ++i)
        m_stackSwitchBoxes[i]->setChecked(scenario.job.*kStackSwitches[i].member);
    m_precision->setCurrentIndex(
        m_precision->findData(QString::fromLatin1(precisionName(scenario.job.precision))));
    refreshStackSwitchBoxes(); // signals may be blocked while the form loads
    m_cluster->setCurrentIndex(m_cluster->findData(fromStd(scenario.cluster.id)));
    m_gpus->setValue(scenario.gpus);
    m_slack->setValue(
        scenario.deadline.kind == DeadlineSpec::Kind::Slack ? qRound(scenario.deadline.value * 100) : 25);
    // Each policy's variants in the scenario's order: the first listed is the policy's own options.
    std::map<std::string, std::vector<PolicyVariantsBox::Options>> variants;
    for (const PolicySpec& policy : scenario.policies)
        variants[policy.name].push_back(policy.options);
    for (std::size_t i = 0; i < m_policyBoxes.size(); ++i) {
        const auto listed = variants.find(m_policyBoxes[i]->objectName().toStdString());
        m_policyBoxes[i]->setChecked(listed != variants.end());
        m_variantBoxes[i]->setVariants(listed != variants.end() ? listed->second
                                                                : std::vector<PolicyVariantsBox::Options>{});
    }
    // A kind that replays a file is offered when the scenario names one (docs/DATA.md "Forecast files").
    auto* kinds = qobject_cast<QStandardItemModel*>(m_forecast->model());
    for (int row = 0; row < m_forecast->count(); ++row) {
        const ForecastKindInfo* kind = findForecastKind(m_forecast->itemData(row).toString().toStdString());
        if (kind != nullptr && kind->takesFile && kinds != nullptr) {
            const bool loaded = scenario.forecast.archive != nullptr;
            kinds->item(row)->setEnabled(loaded);
            kinds->item(row)->setToolTip(loaded ? tr("Replays %1").arg(fromStd(scenario.forecast.filePath))
                                                : tr("Needs a scenario whose forecast names a forecast file "
                                                     "(\"file\"; see docs/DATA.md)"));
        }
    }
    m_forecast->setCurrentIndex(std::max(0, m_forecast->findData(fromStd(scenario.forecast.kind))));
    m_forecastError->setValue(scenario.forecast.errorFraction * 100.0);
    m_forecastSeed->setValue(static_cast<int>(scenario.forecast.seed));
    enableForecastFields(scenario.forecast.kind);
    m_modelling->setOptions(scenario.modelling);
    m_loading = false;
    refreshSlackLabel();
    refreshValidation();
}

Scenario ScenarioPage::scenario() const {
    Scenario s = m_base;
    const int regionIndex = m_region->currentIndex();
    if (regionIndex >= 0 && static_cast<std::size_t>(regionIndex) < m_traceChoices.size()) {
        const TraceChoice& choice = m_traceChoices[static_cast<std::size_t>(regionIndex)];
        const CarbonTrace& loaded = m_loadedTraces[static_cast<std::size_t>(regionIndex)];
        RegionSpec region;
        region.regionId = choice.regionId.toStdString();
        region.tracePath = choice.path.toStdString();
        region.trace = loaded;
        region.timeZone = loaded.timeZone;
        if (s.regions.empty())
            s.regions.push_back(region);
        else if (s.regions.front().regionId != region.regionId ||
                 s.regions.front().trace.provenance.contentSha256 != loaded.provenance.contentSha256)
            s.regions.front() = region; // another region, or the same one from another file
    }
    s.startUtc = m_start->dateTime().toSecsSinceEpoch();
    if (const auto model = findModelPreset(m_model->currentData().toString().toStdString())) {
        s.job.model = *model;
    } else {
        s.job.model = shapeFromFields();
    }
    s.job.tokens = m_tokensBillions->value() * 1e9;
    s.job.globalBatch = m_globalBatch->value();
    s.job.contextParallel = m_contextParallel->value();
    if (const auto precision = parsePrecision(m_precision->currentData().toString().toStdString()))
        s.job.precision = *precision;
    for (std::size_t i = 0; i < m_stackSwitchBoxes.size(); ++i)
        s.job.*kStackSwitches[i].member = m_stackSwitchBoxes[i]->isChecked();
    if (const auto cluster = findClusterPreset(m_cluster->currentData().toString().toStdString())) {
        if (cluster->id != s.cluster.id) {
            s.cluster = *cluster;
            s.clusterRef = cluster->id;
        }
    }
    s.gpus = m_gpus->value();
    s.deadline.kind = DeadlineSpec::Kind::Slack;
    s.deadline.value = m_slack->value() / 100.0;
    s.policies.clear();
    for (std::size_t i = 0; i < m_policyBoxes.size(); ++i) {
        if (!m_policyBoxes[i]->isChecked())
            continue;
        // Every variant a run of its own, each with the options set in its dialog or loaded with the
        // scenario.
        for (const PolicyVariantsBox::Options& options : m_variantBoxes[i]->variants())
            s.policies.push_back({m_policyBoxes[i]->objectName().toStdString(), options});
    }
    s.forecast.kind = m_forecast->currentData().toString().toStdString();
    if (const ForecastKindInfo* kind = findForecastKind(s.forecast.kind);
        kind == nullptr || !kind->takesFile) {
        s.forecast.archive.reset(); // the loaded scenario's file is replayed only by the kind that replays it
        s.forecast.filePath.clear();
    }
    s.forecast.errorFraction = m_forecastError->value() / 100.0;
    s.forecast.seed = static_cast<std::uint64_t>(m_forecastSeed->value());
    s.modelling = m_modelling->options();
    // The loaded name while it still describes the form (docs/DECISIONS.md "Scenario names").
    s.name = nameAfterEdits(m_base, s);
    s.description = descriptionAfterEdits(m_base, s);
    return s;
}

QStringList ScenarioPage::validationErrors() const {
    QStringList errors;
    const Scenario s = scenario();
    if (s.regions.empty())
        errors << tr("Region: choose or import a carbon trace");
    if (s.gpus > s.cluster.gpusAvailable && s.cluster.gpusAvailable > 0)
        errors << tr("GPUs: %1 requested but the cluster offers %2").arg(s.gpus).arg(s.cluster.gpusAvailable);
    if (s.policies.empty())
        errors << tr("Policies: tick at least one");
    if (!s.regions.empty() && !s.regions.front().trace.empty()) {
        const CarbonTrace& trace = s.regions.front().trace;
        if (s.startUtc < trace.startUtc || s.startUtc >= trace.endUtc())
            errors << tr("Start: outside the trace (%1 to %2)")
                          .arg(fromStd(formatIsoUtc(trace.startUtc)), fromStd(formatIsoUtc(trace.endUtc())));
    }
    if (s.job.globalBatch <= 0)
        errors << tr("Global batch: must be positive");
    for (const ModelShapeProblem& problem : checkModelShape(s.job.model))
        errors << tr("Model: %1").arg(fromStd(problem.message));
    if (const std::string problem = contextParallelProblem(s.job); !problem.empty())
        errors << tr("Context parallel: %1 %2").arg(s.job.contextParallel).arg(fromStd(problem));
    if (const std::string problem = unsupportedPrecision(s.cluster.accelerator, s.job.precision);
        !problem.empty())
        errors << tr("Precision: %1; choose one it has, or another cluster").arg(fromStd(problem));
    return errors;
}

void ScenarioPage::markField(QWidget* field, const QString& problem) {
    field->setProperty(kInvalidProperty, !problem.isEmpty());
    field->setToolTip(problem.isEmpty() ? field->property("normalToolTip").toString() : problem);
    field->style()->unpolish(field);
    field->style()->polish(field);
}

void ScenarioPage::refreshValidation() {
    const QStringList errors = validationErrors();
    m_errors->setText(errors.join(QLatin1Char('\n')));
    m_errors->setVisible(!errors.isEmpty());
    const auto problemFor = [&errors](const QString& prefix) {
        for (const QString& e : errors) {
            if (e.startsWith(prefix))
                return e;
        }
        return QString();
    };
    for (QWidget* field : {static_cast<QWidget*>(m_gpus), static_cast<QWidget*>(m_start),
                           static_cast<QWidget*>(m_contextParallel), static_cast<QWidget*>(m_precision)}) {
        if (!field->property("normalToolTip").isValid())
            field->setProperty("normalToolTip", field->toolTip());
    }
    markField(m_gpus, problemFor(tr("GPUs")));
    markField(m_start, problemFor(tr("Start")));
    markField(m_contextParallel, problemFor(tr("Context parallel")));
    markField(m_precision, problemFor(tr("Precision")));
    markShapeFields();
    m_run->setEnabled(errors.isEmpty() && !m_cancel->isEnabled());
}

// Each shape field marked with the words a model file with this shape would be refused with; none while a
// preset (whose fields are hidden) is chosen.
void ScenarioPage::markShapeFields() {
    const bool custom = m_model->currentData().toString().isEmpty();
    const std::vector<ModelShapeProblem> problems =
        custom ? checkModelShape(shapeFromFields()) : std::vector<ModelShapeProblem>{};
    for (const auto& entry : m_shapeBoxes) {
        const std::string& key = entry.first; // not a structured binding: clang before 16 cannot capture one
        const auto problem = std::find_if(problems.begin(), problems.end(),
                                          [&key](const ModelShapeProblem& p) { return p.field == key; });
        markField(entry.second, problem == problems.end() ? QString() : fromStd(problem->message));
    }
}

QSpinBox* ScenarioPage::shapeBox(const std::string& key) const {
    const auto it = m_shapeBoxes.find(key);
    return it == m_shapeBoxes.end() ? nullptr : it->second;
}

ModelSpec ScenarioPage::shapeFromFields() const {
    ModelSpec custom;
    custom.name = "Custom transformer";
    for (const ModelShapeField& field : modelShapeFields())
        custom.*field.member = shapeBox(std::string(field.key))->value();
    for (const ModelShapeField& field : attentionShapeFields())
        custom.*field.member = shapeBox(qualifiedKey(kAttentionObject, field.key))->value();
    if (m_moeGroup->isChecked()) {
        for (const ModelShapeField& field : moeShapeFields())
            custom.*field.member = shapeBox(qualifiedKey(kMoeObject, field.key))->value();
        custom.capacityFactor = m_capacityFactor->value();
    }
    custom.gatedMlp = m_gated->isChecked();
    custom.dropout = m_dropout->isChecked();
    custom.source = "entered in the studio";
    return custom;
}

void ScenarioPage::setShapeFields(const ModelSpec& model) {
    const bool wasLoading = m_loading;
    m_loading = true;
    for (const ModelShapeField& field : modelShapeFields())
        shapeBox(std::string(field.key))->setValue(model.*field.member);
    for (const ModelShapeField& field : attentionShapeFields())
        shapeBox(qualifiedKey(kAttentionObject, field.key))->setValue(model.*field.member);
    m_moeGroup->setChecked(model.mixtureOfExperts());
    if (model.mixtureOfExperts()) {
        for (const ModelShapeField& field : moeShapeFields())
            shapeBox(qualifiedKey(kMoeObject, field.key))->setValue(model.*field.member);
        m_capacityFactor->setValue(model.capacityFactor);
    }
    m_gated->setChecked(model.gatedMlp);
    m_dropout->setChecked(model.dropout);
    m_loading = wasLoading;
}

void ScenarioPage::setStaticMaxHours(double hours, int usableGpus) {
    m_staticMaxHours = hours;
    refreshSlackLabel();
    const int allocated = m_gpus->value();
    const bool idle = usableGpus > 0 && usableGpus < allocated;
    // d x t x p must fit the model (t divides the heads, p the layers, d the batch): 61 GPUs run as
    // 32 and 29 sit idle, which used to pass without a word.
    m_gpuNote->setText(idle
                           ? tr("No configuration uses more than %1 of the %2 GPUs: d × t × p must "
                                "divide the model (t the heads, p the layers, d the batch). The other %3 are "
                                "held and idle, or released, as backfill says.")
                                 .arg(usableGpus)
                                 .arg(allocated)
                                 .arg(allocated - usableGpus)
                           : QString());
    m_gpuNote->setVisible(idle);
}

void ScenarioPage::refreshLocalStart() {
    m_startLocal->setToolTip(QString());
    const int index = m_region->currentIndex();
    QString regionId;
    std::string zoneId;
    if (index >= 0 && static_cast<std::size_t>(index) < m_traceChoices.size()) {
        regionId = m_traceChoices[static_cast<std::size_t>(index)].regionId;
        // A trace that names its own zone (an import, a scenario's time_zone) is right about it; "UTC" is
        // what a trace without one says, so the region's usual zone is asked for then.
        zoneId = m_loadedTraces[static_cast<std::size_t>(index)].timeZone;
    }
    if (zoneId.empty() || zoneId == "UTC")
        zoneId = defaultTimeZoneForRegion(regionId.toStdString());
    if (index >= 0 && static_cast<std::size_t>(index) < m_loadedTraces.size() &&
        m_loadedTraces[static_cast<std::size_t>(index)].timeZoneAssumed && zoneId == "UTC") {
        // Short: the label sits under the start field, and the form must not widen past the panel.
        m_startLocal->setText(tr("%1: time zone unknown, UTC assumed").arg(regionId));
        m_startLocal->setToolTip(tr("The region is not in the zone table and the scenario gives it no "
                                    "time_zone: working-day rules and "
                                    "local times use UTC. Set the region's time_zone in the scenario file."));
        return;
    }
    const QTimeZone zone(QByteArray::fromStdString(zoneId));
    if (!zone.isValid() || zone == QTimeZone::utc()) {
        m_startLocal->clear();
        return;
    }
    const QDateTime local = m_start->dateTime().toTimeZone(zone);
    m_startLocal->setText(
        tr("= %1 %2 in %3")
            .arg(local.toString(QStringLiteral("yyyy-MM-dd hh:mm")), zone.abbreviation(local), regionId));
}

void ScenarioPage::refreshSlackLabel() {
    const double slack = m_slack->value() / 100.0;
    if (m_staticMaxHours > 0)
        m_slackLabel->setText(tr("%1 % \u2192 deadline after %2 h")
                                  .arg(m_slack->value())
                                  .arg(m_staticMaxHours * (1 + slack), 0, 'f', 1));
    else
        m_slackLabel->setText(tr("%1 %").arg(m_slack->value()));
}

void ScenarioPage::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_run->setEnabled(!running && validationErrors().isEmpty());
}

void ScenarioPage::acceptImportedTrace(const QString& path, const CarbonTrace& loaded) {
    const QString region = fromStd(loaded.regionId);
    const TraceChoice trace{
        tr("%1 (imported)").arg(region.isEmpty() ? QFileInfo(path).completeBaseName() : region), path, region,
        true};
    m_importError->setVisible(false);
    m_traceChoices.push_back(trace);
    m_loadedTraces.push_back(loaded);
    m_region->addItem(trace.label, trace.path);
    m_region->setCurrentIndex(m_region->count() - 1);
}

QString ScenarioPage::unloadedTracePath() const {
    const int index = m_region->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= m_traceChoices.size() ||
        !m_loadedTraces[static_cast<std::size_t>(index)].empty())
        return {};
    return m_traceChoices[static_cast<std::size_t>(index)].path;
}

void ScenarioPage::cacheTrace(const QString& path, const CarbonTrace& loaded) {
    for (std::size_t i = 0; i < m_traceChoices.size(); ++i)
        if (m_traceChoices[i].path == path && m_loadedTraces[i].empty())
            m_loadedTraces[i] = loaded;
    refreshLocalStart(); // the trace may name its own zone
    refreshTraceNote();
}

void ScenarioPage::refreshTraceNote() {
    const int index = m_region->currentIndex();
    const bool known = index >= 0 && static_cast<std::size_t>(index) < m_loadedTraces.size() &&
                       !m_loadedTraces[static_cast<std::size_t>(index)].empty();
    const QString assumed =
        known ? QString::fromStdString(traceAssumptionsText(m_loadedTraces[static_cast<std::size_t>(index)]))
              : QString();
    if (known)
        m_region->setItemData(index, assumed, Qt::ToolTipRole);
    const bool imported = known && m_traceChoices[static_cast<std::size_t>(index)].imported;
    m_traceNote->setText(imported ? tr("Read as: %1").arg(assumed) : QString());
    m_traceNote->setVisible(imported);
}

void ScenarioPage::rejectImportedTrace(const QString& message) {
    m_importError->setText(message);
    m_importError->setVisible(true);
}

void ScenarioPage::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void ScenarioPage::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl& url : urls) {
        if (url.isLocalFile())
            Q_EMIT importTraceRequested(url.toLocalFile());
    }
}

QString describeScenario(const Scenario& s) {
    const QLocale locale;
    QString region =
        s.regions.empty() ? QStringLiteral("?") : QString::fromStdString(s.regions.front().regionId);
    QString traceText;
    if (!s.regions.empty() && !s.regions.front().trace.empty()) {
        const CarbonTrace& t = s.regions.front().trace;
        traceText = QObject::tr(", trace %1 slots of %2 min")
                        .arg(locale.toString(static_cast<qulonglong>(t.size())))
                        .arg(t.stepSeconds / 60);
    }
    return QObject::tr("%1: %2, %3 B tokens on %4 \u00d7 %5 in %6 from %7%8")
        .arg(QString::fromStdString(s.name), QString::fromStdString(s.job.model.name))
        .arg(s.job.tokens / 1e9, 0, 'f', 1)
        .arg(locale.toString(s.gpus), QString::fromStdString(s.cluster.name), region,
             QString::fromStdString(formatIsoUtc(s.startUtc)).left(10), traceText);
}

QCheckBox* ScenarioPage::stackSwitchBox(std::string_view key) const {
    for (std::size_t i = 0; i < m_stackSwitchBoxes.size(); ++i)
        if (kStackSwitches[i].key == key)
            return m_stackSwitchBoxes[i];
    return nullptr;
}

// A switch that does not apply to the job as edited (16-bit gradients in 32-bit training) is greyed out:
// the model ignores it there and the scenario file leaves it out.
void ScenarioPage::refreshStackSwitchBoxes() {
    const TrainingJob job = scenario().job;
    for (std::size_t i = 0; i < m_stackSwitchBoxes.size(); ++i)
        m_stackSwitchBoxes[i]->setEnabled(kStackSwitches[i].appliesTo(job));
}

} // namespace carbon3d::ui
