// SPDX-License-Identifier: MIT
#include "models/SavingsText.h"

#include "domain/Savings.h"

#include <cmath>

namespace carbon3d::ui {

QString savingsPercent(double fraction) {
    return std::isnan(fraction) ? QStringLiteral("\u2013")
                                : QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1);
}

QString savingsAtBothEnds(const RunMetrics& baseline, const RunMetrics& run) {
    return QStringLiteral("%1 / %2").arg(savingsPercent(savingsFraction(baseline.dedicatedG, run.dedicatedG)),
                                         savingsPercent(savingsFraction(baseline.sharedG, run.sharedG)));
}

} // namespace carbon3d::ui
