// SPDX-License-Identifier: MIT
#include "StudioApplication.h"

#include <QMessageBox>
#include <QStyleHints>
#include <QTimer>
#include <exception>
#include <iostream>

namespace carbon3d::ui {

StudioApplication::StudioApplication(int& argc, char** argv)
    : QApplication(argc, argv) {
    // A form driven from the keyboard: Tab visits check boxes and buttons too, whatever the desktop's
    // platform theme prefers (some offer text fields and lists only, which made Tab skip every policy
    // and Run).
    styleHints()->setTabFocusBehavior(Qt::TabFocusAllControls);
    m_reporter = [](const QString& message) {
        // Shown after the throwing event has unwound: a modal box inside notify() would run a nested
        // event loop in the middle of a half-done handler.
        QTimer::singleShot(0, [message] {
            QMessageBox::critical(nullptr, QObject::tr("Carbon3D: internal error"), message);
        });
    };
}

bool StudioApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& error) {
        report(QString::fromUtf8(error.what()));
    } catch (...) {
        report(tr("an exception that is not a std::exception"));
    }
    return false;
}

void StudioApplication::report(const QString& what) {
    const QString message =
        tr("Carbon3D hit an internal error and stopped what it was doing: %1\n\nThe studio keeps running, "
           "and runs already finished are saved. Please report this with the steps that led to it.")
            .arg(what);
    std::cerr << "carbon3d: internal error: " << what.toStdString() << '\n';
    m_reporter(message);
}

} // namespace carbon3d::ui
