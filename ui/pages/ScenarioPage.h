// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"
#include "PolicyOptionsDialog.h"
#include "domain/ModelShape.h"
#include "domain/Scenario.h"

#include <QString>
#include <QStringList>
#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QVBoxLayout;

namespace carbon3d::ui {

class PolicyVariantsBox;

class ModellingForm;

// One line for the status bar: name, model, tokens, GPUs, cluster, region, start date and trace.
QString describeScenario(const Scenario& scenario);

// The scenario form: region, start, job, cluster, deadline, policies, forecast and modelling options.
// It edits a Scenario value; invalid fields are marked with the reason. It does no I/O itself: imports
// are requested by signal and answered with acceptImportedTrace()/rejectImportedTrace().
class ScenarioPage : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioPage(QWidget* parent = nullptr);

    void setPolicyChoices(const std::vector<PolicyChoice>& policies);
    void setTraceChoices(const std::vector<TraceChoice>& traces);
    // Loads every field from the scenario (e.g. after opening a file).
    void setScenario(const Scenario& scenario);
    // The name of the scenario last put in the form (scenario() renames it once edited past what it says).
    std::string loadedScenarioName() const { return m_base.name; }
    // The scenario as the form currently describes it (traces are those of the last setScenario /
    // import for the chosen region; the runner reloads by path when needed).
    Scenario scenario() const;
    // Errors of the current form, one per invalid field; empty when it can run.
    QStringList validationErrors() const;

    // Runtime of the carbon-agnostic schedule for the current job, so the slack slider can show hours.
    // The fastest option's runtime (the slack label), and how many of the allocated GPUs any
    // configuration can use: when fewer, a note under GPUs says how many stay idle.
    void setStaticMaxHours(double hours, int usableGpus = 0);
    QLabel* gpuNote() const { return m_gpuNote; }
    QLabel* localStartLabel() const { return m_startLocal; }
    void setRunning(bool running);

    // Adds the trace read from `path` to the region box (labelled by its region, else the file name).
    void acceptImportedTrace(const QString& path, const CarbonTrace& loaded);
    void rejectImportedTrace(const QString& message);
    // The chosen region's trace file when it is not loaded yet (a bundled region picked from the list is
    // read when first needed), else empty.
    QString unloadedTracePath() const;
    // Keeps a trace read in the background for the choice of that file (the preview, then the run, use it).
    void cacheTrace(const QString& path, const CarbonTrace& loaded);

    // Widgets a UI test drives as a person would.
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QComboBox* regionBox() const { return m_region; }
    QLabel* importErrorLabel() const { return m_importError; }
    QLabel* traceNoteLabel() const { return m_traceNote; }
    QDoubleSpinBox* tokensBox() const { return m_tokensBillions; }
    ModellingForm* modellingForm() const { return m_modelling; }
    QSpinBox* gpusBox() const { return m_gpus; }
    QSpinBox* contextParallelBox() const { return m_contextParallel; }
    QComboBox* precisionBox() const { return m_precision; }
    QComboBox* clusterBox() const { return m_cluster; }
    // The check box of one of the job's stack switches (kStackSwitches) by its scenario key, or null.
    QCheckBox* stackSwitchBox(std::string_view key) const;
    QSlider* slackSlider() const { return m_slack; }
    QDateTimeEdit* startEdit() const { return m_start; }
    QCheckBox* policyBox(const QString& name) const;
    // Opens the options dialog of `name` (as its Options button does); returns it, or null when the
    // policy has no options. The dialog is window-modal and applies its values when accepted.
    PolicyOptionsDialog* editPolicyOptions(const QString& name);
    // Opens the options dialog for a further variant of `name` (its "+" button): accepted, the policy runs
    // once more with those options, as a run of its own. Null when the policy has no options.
    PolicyOptionsDialog* addPolicyVariant(const QString& name);
    // Variant `index` of `name` (0: its own options, as editPolicyOptions; the count: a new one).
    PolicyOptionsDialog* editPolicyVariant(const QString& name, int index);
    PolicyVariantsBox* variantsBox(const QString& name) const;
    QComboBox* modelBox() const { return m_model; }
    QSpinBox* hiddenBox() const { return shapeBox("hidden"); }
    QCheckBox* dropoutBox() const { return m_dropout; }
    // The custom shape's mixture-of-experts fields: checked for a mixture of experts (its "moe" object).
    QGroupBox* expertsGroup() const { return m_moeGroup; }
    QDoubleSpinBox* capacityFactorBox() const { return m_capacityFactor; }
    // The custom shape's field with this model-file key ("kv_heads", "moe.experts", "attention.head_dim");
    // nullptr when none.
    QSpinBox* shapeBox(const std::string& key) const;

Q_SIGNALS:
    void runRequested();
    void cancelRequested();
    void importTraceRequested(const QString& path);
    void scenarioEdited();      // any field changed (debounced re-runs listen to this)
    void jobOrClusterChanged(); // the static-max runtime must be recomputed

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildForm();
    // Region, import, start and the start's local time.
    QWidget* buildPlaceGroup(QWidget* content);
    // The validation errors, then Run and Cancel, below the scrolled form.
    void addRunControls(QVBoxLayout* outer);
    // Run, Cancel and Import to what they ask for.
    void connectButtons();
    // Every field to revalidation and scenarioEdited; job and cluster fields also to jobOrClusterChanged.
    void connectEdits();
    QWidget* buildJobGroup();
    // The model presets and the custom-shape entry.
    QComboBox* buildModelBox(QWidget* group);
    // The custom shape's fields, gated MLP and dropout (shown for the custom entry only).
    QWidget* buildCustomShape(QWidget* group);
    // One integer of the custom shape, by its model-file key, labelled and ranged as the shared field
    // table says.
    void addShapeField(QFormLayout* shape, std::string_view key, const QString& tip);
    void addShapeField(QFormLayout* shape, const ModelShapeField& field, const std::string& key,
                       const QString& label, const QString& tip);
    // The attention object's fields and the moe object's (a checkable group: unchecked is a dense model),
    // each labelled from its key in the shared field tables.
    void addAttentionFields(QFormLayout* shape);
    void addExpertFields(QFormLayout* shape);
    // A field of the custom shape changed: revalidate, and the job (hence the menu) changed.
    void shapeEdited();
    // Shows the custom shape for its entry, starting it from the preset chosen before.
    void followModelChoice();
    // Token budget, global batch and context parallelism.
    void addSizeRows(QWidget* group, QFormLayout* form);
    // Precision and the training stack's switches.
    void addPrecisionRows(QWidget* group, QFormLayout* form);
    // Cluster, GPUs and the note on GPUs no configuration uses.
    void addClusterRows(QWidget* group, QFormLayout* form);
    QWidget* buildDeadlineGroup();
    QWidget* buildPolicyGroup();
    // Where the policy called `name` sits in m_policyBoxes (and m_variantBoxes beside it).
    std::optional<std::size_t> policyIndex(const QString& name) const;
    QWidget* buildForecastGroup();
    // The error level for the kinds that take one, the seed for the kinds that draw from one.
    void enableForecastFields(const std::string& kind);
    void refreshValidation();
    void refreshSlackLabel();
    void refreshLocalStart();
    // What reading the chosen trace assumed: under the choice for an import, in the choice's tooltip always.
    void refreshTraceNote();
    void refreshStackSwitchBoxes();
    void markField(QWidget* field, const QString& problem);
    void markShapeFields();
    ModelSpec shapeFromFields() const;
    void setShapeFields(const ModelSpec& model);

    Scenario m_base;                         // the last scenario set; fields not on the form are kept from it
    std::vector<CarbonTrace> m_loadedTraces; // parallel to m_traceChoices when already loaded
    std::vector<TraceChoice> m_traceChoices;
    std::vector<PolicyChoice> m_policyChoices;
    double m_staticMaxHours = 0.0;

    QComboBox* m_region = nullptr;
    QPushButton* m_import = nullptr;
    QLabel* m_importError = nullptr;
    QLabel* m_traceNote = nullptr; // what reading an imported trace assumed: column, unit, time zone, repairs
    QDateTimeEdit* m_start = nullptr;
    QComboBox* m_model = nullptr;
    QWidget* m_customShape = nullptr; // shape fields, shown for the "Custom shape" entry
    QString m_lastPresetId;
    std::map<std::string, QSpinBox*> m_shapeBoxes; // by model-file key, one per integer of the shape
    QCheckBox* m_gated = nullptr;
    QCheckBox* m_dropout = nullptr;
    QGroupBox* m_moeGroup = nullptr;
    QDoubleSpinBox* m_capacityFactor = nullptr;
    QDoubleSpinBox* m_tokensBillions = nullptr;
    QSpinBox* m_globalBatch = nullptr;
    QSpinBox* m_contextParallel = nullptr;
    QComboBox* m_precision = nullptr;           // data: precisionName()
    std::vector<QCheckBox*> m_stackSwitchBoxes; // one per kStackSwitches entry, in its order
    QComboBox* m_cluster = nullptr;
    QSpinBox* m_gpus = nullptr;
    QLabel* m_gpuNote = nullptr;
    QLabel* m_startLocal = nullptr; // the UTC start in the region's local time
    QSlider* m_slack = nullptr;
    QLabel* m_slackLabel = nullptr;
    QVBoxLayout* m_policyLayout = nullptr;
    std::vector<QCheckBox*> m_policyBoxes;
    std::vector<QWidget*> m_policyRows; // check box, options button and description of each policy
    std::vector<PolicyVariantsBox*> m_variantBoxes; // each policy's options, one set per run of it
    QComboBox* m_forecast = nullptr;
    QDoubleSpinBox* m_forecastError = nullptr;
    QSpinBox* m_forecastSeed = nullptr;
    ModellingForm* m_modelling = nullptr;
    QLabel* m_errors = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    bool m_loading = false; // suppresses edit signals while setScenario fills the form
};

} // namespace carbon3d::ui
