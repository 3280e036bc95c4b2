// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>
#include <map>
#include <string>
#include <vector>

class QLabel;
class QVBoxLayout;

namespace carbon3d::ui {

// The variants of one policy on the scenario form (issue 43: a scenario may list a policy several times
// with different options, and each is a run of its own). The first variant is the policy's own, set by the
// Options button beside its check box; each further one is a row beneath it, named as its run will be
// ("multi-region (hysteresis=false)"), with its own Options and Remove buttons.
class PolicyVariantsBox : public QWidget {
    Q_OBJECT
public:
    using Options = std::map<std::string, std::string>;

    explicit PolicyVariantsBox(QString policy, QWidget* parent = nullptr);

    // At least one: the policy's own options (empty: its defaults).
    void setVariants(std::vector<Options> variants);
    const std::vector<Options>& variants() const { return m_variants; }
    // Sets variant `index`, or adds one when `index` is the count. False, and nothing changes, when another
    // variant has the same options: the two would be one run twice (the box then says which).
    bool setVariant(std::size_t index, const Options& options);
    void removeVariant(std::size_t index); // a further variant (index >= 1)
    // What a run of variant `index` is named: the policy, then the options that differ from its defaults.
    QString runLabel(std::size_t index) const;

Q_SIGNALS:
    void editRequested(int index); // a variant row's Options button
    void changed();

private:
    void rebuildRows();

    QString m_policy;
    std::vector<Options> m_variants{Options{}};
    QVBoxLayout* m_rows = nullptr;
    QLabel* m_refused = nullptr; // "already listed: ..." after a variant that would repeat another
};

} // namespace carbon3d::ui
