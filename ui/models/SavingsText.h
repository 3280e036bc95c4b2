// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"

#include <QString>

namespace carbon3d::ui {

// "12.3 %", or a dash when there is no saving to state (a zero or unknown baseline).
QString savingsPercent(double fraction);

// The saving of `run` against `baseline` at both ends of the attribution of parked GPUs, as the tables
// show it: "0.3 % / 4.1 %" (dedicated, then shared); a dash for a run saved before both were recorded.
QString savingsAtBothEnds(const RunMetrics& baseline, const RunMetrics& run);

// Where a run's saving comes from (runner/SavingSplit.h) at the attribution that charges `charged` of parked
// GPUs (1 - backfill), in % of the baseline's emissions: "21.3 + 22.9 + 0.0 %" (configuration, timing,
// beyond the simpler plans); a dash when the run was not split (the baseline, a run saved before).
QString savingSplitText(const RunMetrics& run, double charged);

} // namespace carbon3d::ui
