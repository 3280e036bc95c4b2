// SPDX-License-Identifier: MIT
#include "TextStyles.h"

namespace carbon3d::ui {

namespace {

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

// `from` moved `share` of the way to `to`.
QColor blend(const QColor& from, const QColor& to, double share) {
    return QColor::fromRgbF(static_cast<float>(from.redF() + (to.redF() - from.redF()) * share),
                            static_cast<float>(from.greenF() + (to.greenF() - from.greenF()) * share),
                            static_cast<float>(from.blueF() + (to.blueF() - from.blueF()) * share));
}

} // namespace

QColor textColour(TextRole role, const QPalette& palette) {
    const bool dark = isDark(palette);
    switch (role) {
    case TextRole::Secondary:
        return blend(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.3);
    case TextRole::Error:
        return dark ? QColor(0xFF, 0x8A, 0x80) : QColor(0xB0, 0x00, 0x20);
    case TextRole::Warning:
        return dark ? QColor(0xFF, 0xCC, 0x66) : QColor(0x8A, 0x5A, 0x00);
    }
    return palette.color(QPalette::WindowText);
}

QString textStyle(TextRole role, const QPalette& palette) {
    return QStringLiteral("color: %1;").arg(textColour(role, palette).name());
}

QString noticeStyle(TextRole role, const QPalette& palette) {
    const QColor edge =
        role == TextRole::Error ? textColour(TextRole::Error, palette) : QColor(0xE0, 0xB0, 0x40);
    // A tint of the edge's colour over the window: light on a light desktop, dark on a dark one.
    const QColor fill = blend(palette.color(QPalette::Window), edge, isDark(palette) ? 0.25 : 0.15);
    return QStringLiteral("background: %1; color: %2; border: 1px solid %3; padding: 6px;")
        .arg(fill.name(), palette.color(QPalette::WindowText).name(), edge.name());
}

QString invalidFieldStyle(const char* property, const QPalette& palette) {
    return QStringLiteral("*[%1=\"true\"] { border: 2px solid %2; }")
        .arg(QString::fromLatin1(property), textColour(TextRole::Error, palette).name());
}

} // namespace carbon3d::ui
