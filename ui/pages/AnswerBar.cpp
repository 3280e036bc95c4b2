// SPDX-License-Identifier: MIT
#include "pages/AnswerBar.h"

#include "TextStyles.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocumentFragment>

namespace carbon3d::ui {

AnswerBar::AnswerBar(QWidget* parent)
    : QFrame(parent) {
    setObjectName(QStringLiteral("answerBar"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_question = new QLabel(this);
    m_question->setTextFormat(Qt::RichText);
    layout->addWidget(m_question);
    for (QLabel** end : {&m_charged, &m_released}) {
        *end = new QLabel(this);
        (*end)->setWordWrap(true);
        (*end)->setTextFormat(Qt::RichText);
        (*end)->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(*end, 1);
    }
    m_charged->setToolTip(tr("Backfill 0, a dedicated reservation: GPUs a policy parks stay the job's and "
                             "idle, charged their idle power and embodied carbon. The policy and the "
                             "baseline are run at this end"));
    m_released->setToolTip(tr("Backfill 1, a shared cluster or cloud: GPUs a policy parks go to other "
                              "work and cost this job nothing. The policy and the baseline are run at this "
                              "end, where they may decide otherwise"));
    setVisible(false);
}

QString AnswerBar::endTitle(double backfill) const {
    const QString title = backfill == 0.0 ? tr("Parked GPUs charged to you") : tr("Released to other work");
    return backfill == m_scenarioBackfill ? tr("%1 (this scenario)").arg(title) : title;
}

void AnswerBar::setEnds(const QString& charged, const QString& released) {
    m_charged->setText(QStringLiteral("<b>%1:</b> %2").arg(endTitle(0.0).toHtmlEscaped(), charged));
    m_released->setText(QStringLiteral("<b>%1:</b> %2").arg(endTitle(1.0).toHtmlEscaped(), released));
    setAccessibleDescription(text());
}

void AnswerBar::ask(const QString& runName, const QString& baselineName, double scenarioBackfill) {
    m_scenarioBackfill = scenarioBackfill;
    m_question->setText(
        tr("<b>%1</b> against %2").arg(runName.toHtmlEscaped(), baselineName.toHtmlEscaped()));
    const QString running = tr("running\u2026");
    setEnds(running, running);
    setVisible(true);
}

void AnswerBar::showAnswer(const AnswerAtBothEnds& answer) {
    setEnds(QString::fromStdString(answerText(answer.charged)).toHtmlEscaped(),
            QString::fromStdString(answerText(answer.released)).toHtmlEscaped());
}

void AnswerBar::showFailure(const QString& message) {
    const QString failed = tr("<span style=\"%1\">could not be run: %2</span>")
                               .arg(textStyle(TextRole::Error, palette()), message.toHtmlEscaped());
    setEnds(failed, failed);
}

void AnswerBar::showNothing(const QString& reason) {
    m_question->setText(reason.toHtmlEscaped());
    m_charged->clear();
    m_released->clear();
    setAccessibleDescription(reason);
    setVisible(!reason.isEmpty());
}

QString AnswerBar::text() const {
    QStringList parts;
    for (const QLabel* label : {m_question, m_charged, m_released}) {
        if (!label->text().isEmpty())
            parts << label->text();
    }
    return QTextDocumentFragment::fromHtml(parts.join(QStringLiteral(" | "))).toPlainText();
}

} // namespace carbon3d::ui
