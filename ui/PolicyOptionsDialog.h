// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <map>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;

namespace carbon3d::ui {

// One option of a policy as the engine's catalogue describes it.
struct PolicyOptionChoice {
    QString key;
    QString defaultValue;
    QString description; // one line, with the unit
};

// Edits one policy's options: a field per catalogue option, empty meaning the default (shown as the
// placeholder). OK checks the values with the engine's own parser and keeps the dialog open with its
// message when one is wrong, so a bad value never reaches a run.
class PolicyOptionsDialog : public QDialog {
    Q_OBJECT
public:
    PolicyOptionsDialog(const QString& policy, const std::vector<PolicyOptionChoice>& options,
                        const std::map<std::string, std::string>& current, QWidget* parent = nullptr);

    // The values set on the form, plus any option the form does not show (e.g. inner.KEY) from `current`.
    std::map<std::string, std::string> options() const;
    QLineEdit* field(const QString& key) const;
    QString error() const;

public Q_SLOTS:
    void accept() override;

private:
    QString m_policy;
    std::map<std::string, std::string> m_hidden; // options of `current` without a field
    std::vector<std::pair<QString, QLineEdit*>> m_fields;
    QLabel* m_error = nullptr;
};

} // namespace carbon3d::ui
