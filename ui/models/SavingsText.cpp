// SPDX-License-Identifier: MIT
#include "models/SavingsText.h"

#include "domain/Savings.h"

#include <cmath>

namespace carbon3d::ui {

QString savingsPercent(double fraction) {
    return std::isnan(fraction) ? QStringLiteral("\u2013")
                                : QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1);
}

QString savingSplitText(const RunMetrics& run, double charged) {
    const SavingSplit split = run.splitFractionsCharging(charged);
    if (std::isnan(split.totalG()))
        return QStringLiteral("\u2013");
    const auto part = [](double fraction) { return QString::number(100.0 * fraction, 'f', 1); };
    return QStringLiteral("%1 + %2 + %3 %")
        .arg(part(split.configurationG), part(split.timingG), part(split.beyondG));
}

QString savingsAtBothEnds(const RunMetrics& baseline, const RunMetrics& run) {
    return QStringLiteral("%1 / %2").arg(savingsPercent(savingsFraction(baseline.dedicatedG, run.dedicatedG)),
                                         savingsPercent(savingsFraction(baseline.sharedG, run.sharedG)));
}

} // namespace carbon3d::ui
