// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QWidget;

namespace carbon3d::ui {

// Keeps the mouse wheel from editing a form while the user scrolls it: spin boxes, combo boxes and sliders
// under `form` take wheel events only once they have keyboard focus (a click or Tab); before that the wheel
// scrolls the page. Users saw slack move from 50 % to 80 % and GPUs from 64 to 61 while scrolling, and the
// live what-if then re-ran silently.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    // Installs one guard, owned by `form`, on every such widget under it.
    static void install(QWidget* form);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent);
};

} // namespace carbon3d::ui
