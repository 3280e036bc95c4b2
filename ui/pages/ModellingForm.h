// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ModellingFields.h"
#include "domain/Scenario.h"

#include <QGroupBox>
#include <string>
#include <vector>

namespace carbon3d::ui {

// The scenario form's "Modelling choices": one editor per field of the modelling table
// (core/domain/ModellingFields) that has a display label, built from the table's range, unit, scale,
// choices and description, so a new modelling option reaches the studio as one table entry. Numbers are
// shown in the table's display unit (seconds as minutes, rates per million GPU-hours); a value the user
// did not change reads back exactly as it was loaded, whatever the display rounds.
class ModellingForm : public QGroupBox {
    Q_OBJECT
public:
    explicit ModellingForm(QWidget* parent = nullptr);

    // Fills every editor from `options` (no edit signals) and keeps them as the base of modelling().
    void setOptions(const ModellingOptions& options);
    // The loaded options with every editor's value applied.
    ModellingOptions options() const;
    // The editor of the field with this key (QDoubleSpinBox or QComboBox), or null: for tests.
    QWidget* editor(const std::string& key) const;

Q_SIGNALS:
    // A field was edited; `changesMenu` when it was one that changes the performance model's menu.
    void edited(bool changesMenu);

private:
    struct Editor {
        const ModellingField* field = nullptr;
        QWidget* widget = nullptr;
    };
    QWidget* makeEditor(const ModellingField& field);
    void load(const Editor& editor, const ModellingOptions& options);
    void apply(const Editor& editor, ModellingOptions& options) const;
    void refreshApplicability();

    std::vector<Editor> m_editors;
    ModellingOptions m_base;
    bool m_loading = false;
};

} // namespace carbon3d::ui
