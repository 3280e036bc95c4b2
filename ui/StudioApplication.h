// SPDX-License-Identifier: MIT
#pragma once

#include <QApplication>
#include <QString>
#include <functional>

namespace carbon3d::ui {

// The studio's application object and its top-level handler. An exception that escapes an event handler
// or slot is a bug, not bad input (bad input is an InputError, shown where it belongs): Qt does not
// support exceptions through its event loop, and an uncaught one would end the studio with unsaved
// settings and no word of why. notify() catches it, the studio keeps running, and the report says what
// happened and how to report it. Runs are saved as they finish, so nothing already run is lost.
class StudioApplication : public QApplication {
    Q_OBJECT
public:
    using Reporter = std::function<void(const QString& message)>;

    StudioApplication(int& argc, char** argv);

    // How an escaped exception is reported; the default opens a message box once the event that threw
    // has unwound (tests pass their own).
    void setReporter(Reporter reporter) { m_reporter = std::move(reporter); }

    bool notify(QObject* receiver, QEvent* event) override;

private:
    void report(const QString& what);
    Reporter m_reporter;
};

} // namespace carbon3d::ui
