// SPDX-License-Identifier: MIT
// The studio's top-level handler (StudioApplication::notify): an exception escaping an event handler or a
// slot is reported and the studio keeps running, as carbon3d-cli's runCli turns one into exit code 3.
#include "StudioApplication.h"

#include <QGuiApplication>
#include <QStyleHints>
#include <QTest>
#include <QTimer>
#include <stdexcept>

namespace {

class ThrowingObject : public QObject {
public:
    bool event(QEvent* event) override {
        if (event->type() == QEvent::User)
            throw std::runtime_error("a handler's bug");
        return QObject::event(event);
    }
};

} // namespace

class TstStudioApplication : public QObject {
    Q_OBJECT
public:
    explicit TstStudioApplication(QStringList* reports)
        : m_reports(reports) {}

private Q_SLOTS:
    void init() { m_reports->clear(); }

    // Issue 15, item 8: Tab visits every control, whatever the platform theme's default.
    void tabVisitsEveryControl() {
        QCOMPARE(QGuiApplication::styleHints()->tabFocusBehavior(), Qt::TabFocusAllControls);
    }

    void exceptionFromAnEventHandlerIsReported() {
        ThrowingObject object;
        QCoreApplication::postEvent(&object, new QEvent(QEvent::User));
        QCoreApplication::processEvents();
        QCOMPARE(m_reports->size(), 1);
        QVERIFY(m_reports->front().contains(QLatin1String("a handler's bug")));
    }

    void exceptionFromASlotIsReportedAndTheLoopGoesOn() {
        bool later = false;
        QTimer::singleShot(0, [] { throw std::logic_error("a slot's bug"); });
        QTimer::singleShot(10, [&later] { later = true; });
        QTRY_VERIFY(later); // the event loop survived the first slot's exception
        QCOMPARE(m_reports->size(), 1);
        QVERIFY(m_reports->front().contains(QLatin1String("a slot's bug")));
    }

private:
    QStringList* m_reports;
};

int main(int argc, char** argv) {
    carbon3d::ui::StudioApplication app(argc, argv);
    QStringList reports;
    app.setReporter([&reports](const QString& message) { reports << message; });
    TstStudioApplication test(&reports);
    return QTest::qExec(&test, argc, argv);
}

#include "tst_studioapplication.moc"
