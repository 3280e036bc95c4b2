// SPDX-License-Identifier: MIT
#pragma once

#include "runner/AttributionEnds.h"

#include <QFrame>

class QLabel;

namespace carbon3d::ui {

// The answer first (issue 43): one line above the Results page's plots saying what the policy in focus does
// against the baseline, at both ends of who pays for parked GPUs side by side: "Charged to you: saves 21.3 %
// (5.14 t) for 4.2 % more cost, finishing 12 h later | Released to other work: saves 9.0 % ...". Each end is
// a run of its own (runner/AttributionEnds.h), computed off the GUI thread, so an end may say it is running.
class AnswerBar : public QFrame {
    Q_OBJECT
public:
    explicit AnswerBar(QWidget* parent = nullptr);

    // A new question: the ends say they are being computed.
    void ask(const QString& runName, const QString& baselineName, double scenarioBackfill);
    void showAnswer(const AnswerAtBothEnds& answer);
    void showFailure(const QString& message);
    // Nothing to answer (no runs, or the policy in focus is the baseline): hidden, or this text.
    void showNothing(const QString& reason = {});

    // The whole answer as shown, for tests and the accessible description.
    QString text() const;

private:
    void setEnds(const QString& charged, const QString& released);
    QString endTitle(double backfill) const;

    QLabel* m_question = nullptr;
    QLabel* m_charged = nullptr;
    QLabel* m_released = nullptr;
    double m_scenarioBackfill = 0.0;
};

} // namespace carbon3d::ui
