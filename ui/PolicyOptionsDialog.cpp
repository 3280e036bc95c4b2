// SPDX-License-Identifier: MIT
#include "PolicyOptionsDialog.h"

#include "TextStyles.h"
#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>
#include <utility>

namespace carbon3d::ui {

namespace {

const QString kInnerPrefix = QStringLiteral("inner.");

} // namespace

PolicyOptionsDialog::PolicyOptionsDialog(const QString& policy, PolicyOptionCatalogue catalogue,
                                         std::map<std::string, std::string> current, QWidget* parent)
    : QDialog(parent)
    , m_policy(policy)
    , m_catalogue(std::move(catalogue))
    , m_hidden(std::move(current)) {
    setWindowTitle(tr("Options of %1").arg(policy));
    setMinimumWidth(480);
    // Fields scroll (eadt with its inner policy has a dozen), the message and the buttons stay in view.
    auto* outer = new QVBoxLayout(this);
    outer->addWidget(new QLabel(tr("Empty fields use the default shown in grey."), this));
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(m_scroll);
    m_form = new QFormLayout(content);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll, 1);
    const auto own = m_catalogue.find(policy);
    if (own != m_catalogue.end()) {
        for (const PolicyOptionChoice& option : own->second)
            m_fields.emplace_back(option.key, addField(m_form, option, option.key));
    }
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(textStyle(TextRole::Error, palette()));
    m_error->hide();
    outer->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    outer->addWidget(buttons);
    if (QLineEdit* inner = field(QStringLiteral("inner"))) {
        rebuildInnerFields();
        connect(inner, &QLineEdit::textChanged, this, &PolicyOptionsDialog::rebuildInnerFields);
    }
    // Short forms show whole; long ones (eadt with its inner policy) scroll beyond ~16 lines.
    m_scroll->setMinimumHeight(std::min(content->sizeHint().height(), 16 * fontMetrics().height()));
    connect(buttons, &QDialogButtonBox::accepted, this, &PolicyOptionsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QLineEdit* PolicyOptionsDialog::addField(QFormLayout* form, const PolicyOptionChoice& option,
                                         const QString& key) {
    QWidget* owner = form->parentWidget();
    auto* field = new QLineEdit(owner);
    field->setObjectName(key);
    field->setPlaceholderText(option.defaultValue);
    field->setToolTip(tr("%1\nAccepted: %2\nDefault: %3\nIn scenario files: %4")
                          .arg(option.description, option.accepted, option.defaultValue, key));
    const auto it = m_hidden.find(key.toStdString());
    if (it != m_hidden.end()) {
        field->setText(QString::fromStdString(it->second));
        m_hidden.erase(it);
    }
    // The description under the field: students read what each knob does without hovering.
    auto* description = new QLabel(tr("%1 (accepted: %2)").arg(option.description, option.accepted), owner);
    description->setWordWrap(true);
    description->setStyleSheet(textStyle(TextRole::Secondary, owner->palette()));
    auto* cell = new QVBoxLayout;
    cell->setSpacing(2);
    cell->addWidget(field);
    if (option.flag) {
        // true or false is picked, not typed; the hidden field still holds the value ("" = the default).
        auto* choice = new QComboBox(owner);
        choice->setObjectName(key + QStringLiteral(":choice"));
        choice->addItem(tr("default (%1)").arg(option.defaultValue), QString());
        choice->addItem(QStringLiteral("true"), QStringLiteral("true"));
        choice->addItem(QStringLiteral("false"), QStringLiteral("false"));
        choice->setToolTip(field->toolTip());
        // A value set elsewhere may be spelt any way the engine accepts (1/0, yes/no).
        const QString text = field->text().trimmed();
        const std::optional<bool> value = parseFlag(text.toStdString());
        if (!text.isEmpty() && !value)
            choice->addItem(text, text); // not a flag value: kept, for the engine to refuse
        choice->setCurrentIndex(text.isEmpty() ? 0 : !value ? 3 : *value ? 1 : 2);
        connect(choice, &QComboBox::currentIndexChanged, field,
                [field, choice] { field->setText(choice->currentData().toString()); });
        field->hide();
        cell->addWidget(choice);
    }
    cell->addWidget(description);
    // Words, not the file key: "beyond horizon risk", not "beyond_horizon_risk" (the key is in the tooltip).
    QString label = option.key;
    label.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!label.isEmpty())
        label[0] = label[0].toUpper();
    form->addRow(label, cell);
    return field;
}

QString PolicyOptionsDialog::innerPolicy() const {
    QLineEdit* inner = field(QStringLiteral("inner"));
    const QString typed = inner->text().trimmed();
    return typed.isEmpty() ? inner->placeholderText() : typed;
}

void PolicyOptionsDialog::rebuildInnerFields() {
    const QString name = innerPolicy();
    if (name == m_innerShown || !m_catalogue.contains(name))
        return; // same policy, or not (yet) a policy name: keep what is shown
    // A new group replaces the old one (values typed for the previous inner policy do not carry over: its
    // keys may mean nothing here); shown at once, so the dialog can size itself to it.
    auto* group = new QGroupBox(tr("Options of the inner policy, %1").arg(name), m_form->parentWidget());
    auto* form = new QFormLayout(group);
    m_innerFields.clear();
    m_innerShown = name;
    for (const PolicyOptionChoice& option : m_catalogue.at(name))
        m_innerFields.emplace_back(kInnerPrefix + option.key,
                                   addField(form, option, kInnerPrefix + option.key));
    if (m_innerFields.empty())
        form->addRow(new QLabel(tr("%1 has no options.").arg(name), group));
    int row = m_form->rowCount(); // after the policy's own options
    if (m_innerGroup != nullptr) {
        QFormLayout::ItemRole role = QFormLayout::SpanningRole;
        m_form->getWidgetPosition(m_innerGroup, &row, &role);
        m_form->removeRow(row); // deletes the old group and its fields
    }
    m_innerGroup = group;
    m_form->insertRow(row, group);
    if (isVisible()) {
        group->show();
        m_scroll->ensureWidgetVisible(group); // the user just chose it: show its options
    }
}

std::map<std::string, std::string> PolicyOptionsDialog::options() const {
    std::map<std::string, std::string> result;
    for (const auto& [key, value] : m_hidden)
        if (!QString::fromStdString(key).startsWith(kInnerPrefix)) // inner options only from the fields
            result[key] = value;
    for (const auto* fields : {&m_fields, &m_innerFields}) {
        for (const auto& [key, field] : *fields) {
            const QString text = field->text().trimmed();
            if (!text.isEmpty())
                result[key.toStdString()] = text.toStdString();
        }
    }
    return result;
}

QLineEdit* PolicyOptionsDialog::field(const QString& key) const {
    for (const auto* fields : {&m_fields, &m_innerFields})
        for (const auto& [name, field] : *fields)
            if (name == key)
                return field;
    return nullptr;
}

QString PolicyOptionsDialog::error() const {
    return m_error->isVisible() ? m_error->text() : QString();
}

void PolicyOptionsDialog::accept() {
    try {
        makePolicy(PolicySpec{m_policy.toStdString(), options()}); // the engine's own checks, no I/O
    } catch (const InputError& error) {
        m_error->setText(QString::fromStdString(error.what()));
        m_error->show();
        adjustSize(); // room for the message (the fields scroll when the screen is short)
        return;
    }
    QDialog::accept();
}

} // namespace carbon3d::ui
