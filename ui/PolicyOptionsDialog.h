// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"

#include <QDialog>
#include <map>
#include <string>
#include <vector>

class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace carbon3d::ui {

// Every policy's options by policy name (the engine's catalogue, for inner policies).
using PolicyOptionCatalogue = std::map<QString, std::vector<PolicyOptionChoice>>;

// Edits one policy's options: a field per catalogue option, empty meaning the default (shown as the
// placeholder). A policy that delegates to an inner one (eadt, multi-region) also shows the inner
// policy's options, as inner.KEY, rebuilt when the inner policy is changed. OK checks the values with
// the engine's own parser and keeps the dialog open with its message when one is wrong, so a bad value
// never reaches a run.
class PolicyOptionsDialog : public QDialog {
    Q_OBJECT
public:
    PolicyOptionsDialog(const QString& policy, PolicyOptionCatalogue catalogue,
                        std::map<std::string, std::string> current, QWidget* parent = nullptr);

    // The values set on the form, plus options the form does not show from `current` (inner.KEY ones only
    // while they belong to the inner policy shown).
    std::map<std::string, std::string> options() const;
    QLineEdit* field(const QString& key) const; // "percentile", or "inner.percentile"
    QString error() const;

public Q_SLOTS:
    void accept() override;

private:
    QLineEdit* addField(QFormLayout* form, const PolicyOptionChoice& option, const QString& key);
    QString innerPolicy() const;
    void rebuildInnerFields();

    QString m_policy;
    PolicyOptionCatalogue m_catalogue;
    QFormLayout* m_form = nullptr;
    QScrollArea* m_scroll = nullptr;
    std::map<std::string, std::string> m_hidden; // options of `current` without a field
    std::vector<std::pair<QString, QLineEdit*>> m_fields;
    std::vector<std::pair<QString, QLineEdit*>> m_innerFields; // keys with the "inner." prefix
    QGroupBox* m_innerGroup = nullptr;
    QString m_innerShown;
    QLabel* m_error = nullptr;
};

} // namespace carbon3d::ui
