// SPDX-License-Identifier: MIT
#include "WindowGeometry.h"

#include <algorithm>

namespace carbon3d::ui {

QRect fittedWindowGeometry(const QRect& wanted, const QRect& available) {
    if (available.isEmpty())
        return wanted;
    QRect fitted(wanted.topLeft(), wanted.size().boundedTo(available.size()));
    fitted.moveLeft(std::clamp(fitted.left(), available.left(), available.right() - fitted.width() + 1));
    fitted.moveTop(std::clamp(fitted.top(), available.top(), available.bottom() - fitted.height() + 1));
    return fitted;
}

} // namespace carbon3d::ui
