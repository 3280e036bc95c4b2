// SPDX-License-Identifier: MIT
#include "WheelGuard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QWidget>

namespace carbon3d::ui {

WheelGuard::WheelGuard(QObject* parent)
    : QObject(parent) {}

void WheelGuard::install(QWidget* form) {
    auto* guard = new WheelGuard(form);
    for (QWidget* widget : form->findChildren<QWidget*>()) {
        if (qobject_cast<QAbstractSpinBox*>(widget) == nullptr &&
            qobject_cast<QComboBox*>(widget) == nullptr && qobject_cast<QAbstractSlider*>(widget) == nullptr)
            continue;
        // A scroll bar is how the form's scroll area scrolls: it hands the wheel to its bar, so guarding
        // the bar left the form unscrollable by the wheel (seen under Xvfb with xdotool).
        if (qobject_cast<QScrollBar*>(widget) != nullptr)
            continue;
        widget->setFocusPolicy(Qt::StrongFocus); // focus by click or Tab, not by the wheel
        widget->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    auto* widget = qobject_cast<QWidget*>(watched);
    if (event->type() != QEvent::Wheel || widget == nullptr || widget->hasFocus())
        return QObject::eventFilter(watched, event);
    // Ignored and filtered: the widget never sees it, and Qt passes it on to the parents (the scroll area).
    event->ignore();
    return true;
}

} // namespace carbon3d::ui
