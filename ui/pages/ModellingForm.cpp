// SPDX-License-Identifier: MIT
#include "pages/ModellingForm.h"

#include "domain/NumberText.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <cmath>

namespace carbon3d::ui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// The field's value as a number (its table text); NaN for an unset one.
double numberOf(const ModellingField& field, const ModellingOptions& options) {
    return parseDecimal(field.get(options)).value_or(std::nan(""));
}

// The tooltip: the table's description and the default, in the unit the box shows.
QString tooltipOf(const ModellingField& field) {
    const ModellingField::Display& display = field.display;
    QString text = fromStd(field.description);
    const ModellingOptions defaults;
    if (field.kind == ModellingFieldKind::Number) {
        const double value = numberOf(field, defaults);
        text += std::isfinite(value)
                    ? QStringLiteral(". Default %1 %2")
                          .arg(fromStd(shortestNumber(value * display.scale)), fromStd(display.unit))
                          .trimmed()
                    : QStringLiteral(". Default: %1").arg(fromStd(display.unsetText));
    } else {
        text += QStringLiteral(". Default: %1").arg(fromStd(field.get(defaults)));
    }
    return text + QStringLiteral(" (%1).").arg(fromStd(field.key));
}

} // namespace

ModellingForm::ModellingForm(QWidget* parent)
    : QGroupBox(tr("Modelling choices"), parent) {
    auto* form = new QFormLayout(this);
    for (const ModellingField& field : modellingFields()) {
        if (field.display.label.empty())
            continue;
        QWidget* widget = makeEditor(field);
        widget->setObjectName(fromStd(field.key));
        widget->setToolTip(tooltipOf(field));
        form->addRow(fromStd(field.display.label), widget);
        m_editors.push_back({&field, widget});
    }
    setOptions(ModellingOptions{});
}

QWidget* ModellingForm::makeEditor(const ModellingField& field) {
    const ModellingField::Display& display = field.display;
    const bool changesMenu = field.changesMenu;
    if (field.kind == ModellingFieldKind::Choice) {
        auto* box = new QComboBox(this);
        for (std::size_t i = 0; i < field.choices.size(); ++i) {
            const std::string& label =
                i < display.choiceLabels.size() ? display.choiceLabels[i] : field.choices[i];
            box->addItem(fromStd(label), fromStd(field.choices[i]));
            if (i < display.choiceDescriptions.size())
                box->setItemData(box->count() - 1, fromStd(display.choiceDescriptions[i]), Qt::ToolTipRole);
        }
        connect(box, &QComboBox::currentIndexChanged, this, [this, changesMenu] {
            refreshApplicability();
            if (!m_loading)
                Q_EMIT edited(changesMenu);
        });
        return box;
    }
    auto* box = new QDoubleSpinBox(this);
    box->setDecimals(display.decimals);
    const double step = std::pow(10.0, -display.decimals);
    // A field that may be unset reads `unsetText` one step below its minimum.
    box->setRange(field.min * display.scale - (display.unsetText.empty() ? 0.0 : step),
                  field.max * display.scale);
    if (!display.unsetText.empty())
        box->setSpecialValueText(fromStd(display.unsetText));
    if (!display.unit.empty())
        box->setSuffix(QLatin1Char(' ') + fromStd(display.unit));
    if (field.max * display.scale <= 1.0)
        box->setSingleStep(0.1);
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, changesMenu] {
        if (!m_loading)
            Q_EMIT edited(changesMenu);
    });
    return box;
}

void ModellingForm::setOptions(const ModellingOptions& options) {
    m_loading = true;
    m_base = options;
    for (const Editor& editor : m_editors)
        load(editor, options);
    m_loading = false;
    refreshApplicability();
}

void ModellingForm::load(const Editor& editor, const ModellingOptions& options) {
    const ModellingField& field = *editor.field;
    if (auto* box = qobject_cast<QComboBox*>(editor.widget)) {
        box->setCurrentIndex(std::max(0, box->findData(fromStd(field.get(options)))));
        return;
    }
    auto* box = static_cast<QDoubleSpinBox*>(editor.widget);
    const double value = numberOf(field, options);
    box->setValue(std::isfinite(value) ? value * field.display.scale : box->minimum());
}

ModellingOptions ModellingForm::options() const {
    ModellingOptions options = m_base;
    for (const Editor& editor : m_editors)
        apply(editor, options);
    return options;
}

void ModellingForm::apply(const Editor& editor, ModellingOptions& options) const {
    const ModellingField& field = *editor.field;
    if (const auto* box = qobject_cast<const QComboBox*>(editor.widget)) {
        field.set(options, box->currentData().toString().toStdString());
        return;
    }
    const auto* box = static_cast<const QDoubleSpinBox*>(editor.widget);
    if (!field.display.unsetText.empty() && box->value() == box->minimum()) {
        field.set(options, shortestNumber(std::nan("")));
        return;
    }
    // Unchanged at the box's precision: the loaded value exactly (1/60 of 600 s is not a whole minute's text,
    // and a rate per million GPU-hours rounds).
    const double loaded = numberOf(field, m_base);
    const double shown = box->value();
    const double tolerance = 0.5 * std::pow(10.0, -field.display.decimals);
    const double value = std::isfinite(loaded) && std::abs(shown - loaded * field.display.scale) <= tolerance
                             ? loaded
                             : shown / field.display.scale;
    field.set(options, shortestNumber(value));
}

void ModellingForm::refreshApplicability() {
    const ModellingOptions current = options();
    for (const Editor& editor : m_editors)
        editor.widget->setEnabled(!editor.field->applies || editor.field->applies(current));
}

QWidget* ModellingForm::editor(const std::string& key) const {
    for (const Editor& editor : m_editors) {
        if (editor.field->key == key)
            return editor.widget;
    }
    return nullptr;
}

} // namespace carbon3d::ui
