// SPDX-License-Identifier: MIT
#include "pages/PolicyVariantsBox.h"

#include "TextStyles.h"
#include "engine/PolicyRegistry.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace carbon3d::ui {

PolicyVariantsBox::PolicyVariantsBox(QString policy, QWidget* parent)
    : QWidget(parent)
    , m_policy(std::move(policy)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(22, 0, 0, 0); // under the policy's name, beside its description
    layout->setSpacing(0);
    m_rows = new QVBoxLayout;
    m_rows->setSpacing(0);
    layout->addLayout(m_rows);
    m_refused = new QLabel(this);
    m_refused->setWordWrap(true);
    m_refused->setStyleSheet(textStyle(TextRole::Warning, palette()));
    m_refused->setVisible(false);
    layout->addWidget(m_refused);
    setVisible(false);
}

void PolicyVariantsBox::setVariants(std::vector<Options> variants) {
    m_variants = variants.empty() ? std::vector<Options>{Options{}} : std::move(variants);
    m_refused->setVisible(false);
    rebuildRows();
}

bool PolicyVariantsBox::setVariant(std::size_t index, const Options& options) {
    const std::string label = policyRunLabel(m_policy.toStdString(), options);
    for (std::size_t i = 0; i < m_variants.size(); ++i) {
        if (i != index && policyRunLabel(m_policy.toStdString(), m_variants[i]) == label) {
            m_refused->setText(tr("Already listed: %1").arg(QString::fromStdString(label)));
            m_refused->setVisible(true);
            setVisible(true);
            return false;
        }
    }
    m_refused->setVisible(false);
    if (index < m_variants.size())
        m_variants[index] = options;
    else
        m_variants.push_back(options);
    rebuildRows();
    Q_EMIT changed();
    return true;
}

void PolicyVariantsBox::removeVariant(std::size_t index) {
    if (index == 0 || index >= m_variants.size())
        return;
    m_variants.erase(m_variants.begin() + static_cast<std::ptrdiff_t>(index));
    m_refused->setVisible(false);
    rebuildRows();
    Q_EMIT changed();
}

QString PolicyVariantsBox::runLabel(std::size_t index) const {
    return QString::fromStdString(policyRunLabel(m_policy.toStdString(), m_variants.at(index)));
}

void PolicyVariantsBox::rebuildRows() {
    // Later, not now: the Remove button asking for this may be one of the rows.
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        item->widget()->hide();
        item->widget()->deleteLater();
        delete item;
    }
    for (std::size_t i = 1; i < m_variants.size(); ++i) {
        auto* row = new QWidget(this);
        auto* line = new QHBoxLayout(row);
        line->setContentsMargins(0, 0, 0, 0);
        auto* name = new QLabel(tr("and %1").arg(runLabel(i)), row);
        name->setObjectName(QStringLiteral("variant:%1").arg(i));
        name->setWordWrap(true);
        line->addWidget(name, 1);
        auto* edit = new QToolButton(row);
        edit->setObjectName(QStringLiteral("variantOptions:%1").arg(i));
        edit->setText(tr("Options\u2026"));
        edit->setAutoRaise(true);
        connect(edit, &QToolButton::clicked, this, [this, i] { Q_EMIT editRequested(static_cast<int>(i)); });
        line->addWidget(edit);
        auto* remove = new QToolButton(row);
        remove->setObjectName(QStringLiteral("variantRemove:%1").arg(i));
        remove->setText(tr("Remove"));
        remove->setAutoRaise(true);
        remove->setToolTip(tr("Run %1 no more").arg(runLabel(i)));
        connect(remove, &QToolButton::clicked, this, [this, i] { removeVariant(i); });
        line->addWidget(remove);
        m_rows->addWidget(row);
    }
    setVisible(m_variants.size() > 1 || m_refused->isVisible());
}

} // namespace carbon3d::ui
