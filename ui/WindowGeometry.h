// SPDX-License-Identifier: MIT
#pragma once

#include <QRect>

namespace carbon3d::ui {

// The studio's first size, for a screen that has room for it.
inline constexpr QSize kPreferredWindowSize{1600, 1000};

// `wanted` made to fit `available` (a screen's available geometry): no larger than it, moved inside it, so
// that Run, the status bar and the results table are never off screen (a 1280 x 800 laptop; a session
// restored on a larger monitor that is gone).
QRect fittedWindowGeometry(const QRect& wanted, const QRect& available);

} // namespace carbon3d::ui
