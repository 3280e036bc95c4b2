// SPDX-License-Identifier: MIT
#include "PolicyOptionsDialog.h"

#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace carbon3d::ui {

PolicyOptionsDialog::PolicyOptionsDialog(const QString& policy,
                                         const std::vector<PolicyOptionChoice>& options,
                                         const std::map<std::string, std::string>& current, QWidget* parent)
    : QDialog(parent)
    , m_policy(policy)
    , m_hidden(current) {
    setWindowTitle(tr("Options of %1").arg(policy));
    setMinimumWidth(480);
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(tr("Empty fields use the default shown in grey."), this));
    for (const PolicyOptionChoice& option : options) {
        auto* field = new QLineEdit(this);
        field->setObjectName(option.key);
        field->setPlaceholderText(option.defaultValue);
        field->setToolTip(tr("%1\nDefault: %2").arg(option.description, option.defaultValue));
        const auto it = m_hidden.find(option.key.toStdString());
        if (it != m_hidden.end()) {
            field->setText(QString::fromStdString(it->second));
            m_hidden.erase(it);
        }
        // The description under the field: students read what each knob does without hovering.
        auto* description = new QLabel(option.description, this);
        description->setWordWrap(true);
        description->setStyleSheet(QStringLiteral("color: #555555;"));
        auto* cell = new QVBoxLayout;
        cell->setSpacing(2);
        cell->addWidget(field);
        cell->addWidget(description);
        form->addRow(option.key, cell);
        m_fields.emplace_back(option.key, field);
    }
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();
    form->addRow(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &PolicyOptionsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

std::map<std::string, std::string> PolicyOptionsDialog::options() const {
    std::map<std::string, std::string> result = m_hidden;
    for (const auto& [key, field] : m_fields) {
        const QString text = field->text().trimmed();
        if (!text.isEmpty())
            result[key.toStdString()] = text.toStdString();
    }
    return result;
}

QLineEdit* PolicyOptionsDialog::field(const QString& key) const {
    for (const auto& [name, field] : m_fields)
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
        adjustSize(); // room for the message
        return;
    }
    QDialog::accept();
}

} // namespace carbon3d::ui
