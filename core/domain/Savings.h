// SPDX-License-Identifier: MIT
#pragma once

namespace carbon3d {

// The fraction of `baseline` that `value` saves: (baseline - value) / baseline, positive when `value` is
// below the baseline (e.g. a run that emits less carbon than its baseline run), negative above it.
// A zero baseline has no such fraction: the result is NaN (quiet), never 0 or an infinity, so a caller can
// tell "nothing to measure against" from "no saving" (`runs compare` prints "-" and JSON null, the studio a
// dash). Any other baseline, negative included, is divided by as it is; NaN in either argument gives NaN.
double savingsFraction(double baseline, double value);

} // namespace carbon3d
