// SPDX-License-Identifier: MIT
// The studio on a dark desktop (issue 45, item 4): under a dark system palette every page is shown and every
// piece of text a user reads (labels, their rich text's own colours, buttons, check boxes, fields) is checked
// against what it is drawn on. WCAG 2.1's minimum for text is a contrast ratio of 4.5:1 (success criterion
// 1.4.3); disabled controls are exempt there, and here.
#include "MainWindow.h"
#include "pages/ResultsPage.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>
#include <cmath>
#include <memory>

using namespace carbon3d::ui;

namespace {

constexpr double kMinimumTextContrast = 4.5; // WCAG 2.1, success criterion 1.4.3

// A dark palette as desktops ship it (KDE's Breeze Dark and GNOME's Adwaita dark are near these).
QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2A, 0x2E, 0x32), base(0x1B, 0x1E, 0x20), text(0xFC, 0xFC, 0xFC);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x31, 0x36, 0x3B));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xA1, 0xA9, 0xB1));
    p.setColor(QPalette::Highlight, QColor(0x3D, 0xAE, 0xE9));
    p.setColor(QPalette::HighlightedText, text);
    p.setColor(QPalette::Link, QColor(0x1D, 0x99, 0xF3));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x6E, 0x71, 0x75)); // greyed, as those themes grey it
    return p;
}

// WCAG's relative luminance and contrast ratio.
double luminance(const QColor& c) {
    const auto channel = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// What the widget's text is drawn on: a field's base, a push button's face, else the first ancestor that
// fills its background, else the window.
QColor backgroundOf(const QWidget* widget) {
    if (qobject_cast<const QLineEdit*>(widget) || qobject_cast<const QAbstractSpinBox*>(widget) ||
        qobject_cast<const QTextEdit*>(widget))
        return widget->palette().color(QPalette::Base);
    for (const QWidget* w = widget; w != nullptr; w = w->parentWidget())
        if (w->autoFillBackground() || w->isWindow())
            return w->palette().color(w->backgroundRole());
    return widget->palette().color(QPalette::Window);
}

// The colours a label's rich text sets itself ("color: #rrggbb" in a span or a style).
QList<QColor> inlineColours(const QLabel& label) {
    QList<QColor> colours;
    static const QRegularExpression colour(QStringLiteral("color:\\s*(#[0-9a-fA-F]{6})"));
    for (auto it = colour.globalMatch(label.text()); it.hasNext();)
        colours << QColor(it.next().captured(1));
    return colours;
}

QString describe(const QWidget* w, const QString& text, double ratio) {
    return QStringLiteral("%1 '%2': %3:1")
        .arg(QString::fromLatin1(w->metaObject()->className()), text.left(60),
             QString::number(ratio, 'f', 2));
}

// Every readable text of the window's visible, enabled widgets whose contrast is under the minimum; `checked`
// counts the texts looked at.
QStringList lowContrastTexts(const QWidget& window, int& checked) {
    QStringList offenders;
    const auto check = [&](const QWidget* w, const QString& text, const QColor& foreground) {
        ++checked;
        const double ratio = contrast(foreground, backgroundOf(w));
        if (ratio < kMinimumTextContrast)
            offenders << describe(w, text, ratio);
    };
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisible() || !w->isEnabled())
            continue;
        w->ensurePolished();
        if (auto* label = qobject_cast<QLabel*>(w); label && !label->text().isEmpty()) {
            check(w, label->text(), w->palette().color(w->foregroundRole()));
            for (const QColor& inline_ : inlineColours(*label))
                check(w, label->text(), inline_);
        } else if (auto* button = qobject_cast<QAbstractButton*>(w); button && !button->text().isEmpty()) {
            check(w, button->text(), w->palette().color(w->foregroundRole()));
        } else if (qobject_cast<QLineEdit*>(w) || qobject_cast<QAbstractSpinBox*>(w)) {
            check(w, QStringLiteral("(field)"), w->palette().color(QPalette::Text));
        }
    }
    return offenders;
}

} // namespace

class TestDarkContrast : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    }

    void everyPageReadsOnADarkDesktop() {
        QTemporaryDir dir;
        MainWindow window(QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data"),
                          QStringLiteral(CARBON3D_SOURCE_DIR "/docs"),
                          dir.filePath(QStringLiteral("r.sqlite")));
        QSignalSpy loaded(&window, &MainWindow::scenarioLoaded);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(!loaded.isEmpty() || loaded.wait(30000));
        QStringList offenders;
        int checked = 0;
        for (const char* page : {"results", "compare", "study", "configurations", "learn"}) {
            QVERIFY2(window.showPage(QString::fromLatin1(page)), page);
            QCoreApplication::processEvents();
            for (const QString& offender : lowContrastTexts(window, checked))
                offenders << QString::fromLatin1(page) + QStringLiteral(": ") + offender;
        }
        offenders.removeDuplicates();
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
        QVERIFY2(checked > 200, qPrintable(QString::number(checked))); // the pages' texts, not a handful

        // The check sees what it is for: the grey the studio once used for descriptions (#555555, 1.9:1 on
        // this window), set as a style sheet and as rich text.
        auto* styled = new QLabel(QStringLiteral("a policy's description"), window.resultsPage());
        styled->setStyleSheet(QStringLiteral("color: #555555;"));
        auto* rich =
            new QLabel(QStringLiteral("<span style=\"color: #555555\">a note</span>"), window.resultsPage());
        window.showPage(QStringLiteral("results"));
        styled->show();
        rich->show();
        QCoreApplication::processEvents();
        const QStringList caught = lowContrastTexts(window, checked);
        QCOMPARE(caught.size(), 2);
    }
};

QTEST_MAIN(TestDarkContrast)
#include "tst_darkcontrast.moc"
