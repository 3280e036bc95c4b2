// SPDX-License-Identifier: MIT
#include "support/ScreenshotRunner.h"

#include "MainWindow.h"

#include <QApplication>
#include <QEventLoop>
#include <QPixmap>
#include <QTimer>
#include <iostream>

namespace carbon3d::app {

int runScreenshot(ui::MainWindow& window, const QString& scenarioPath, const QString& page,
                  const QString& output) {
    int exitCode = 0;
    QEventLoop loop;
    bool opened = false;
    QObject::connect(&window, &ui::MainWindow::scenarioLoaded, &loop, [&](bool ok, const QString& message) {
        if (!ok) {
            std::cerr << "carbon3d: " << message.toStdString() << '\n';
            exitCode = 1;
            loop.quit();
            return;
        }
        // The default scenario loads first; a requested one replaces it.
        if (!scenarioPath.isEmpty() && !opened) {
            opened = true;
            window.openScenario(scenarioPath);
            return;
        }
        window.runCurrentScenario();
    });
    const auto grabAfter = [&](int delayMs) {
        // Let layouts settle and queued replots (and store answers) arrive before grabbing.
        QTimer::singleShot(delayMs, &loop, [&] {
            const QPixmap pixmap = window.grab();
            if (!pixmap.save(output)) {
                std::cerr << "carbon3d: cannot write " << output.toStdString() << '\n';
                exitCode = 1;
            } else {
                std::cout << "carbon3d: screenshot written to " << output.toStdString() << '\n';
            }
            loop.quit();
        });
    };
    // Runs are shown, then saved to the results store: the Compare page needs the saved ids.
    QObject::connect(&window, &ui::MainWindow::runsSaved, &loop, [&] {
        if (!window.showPage(page)) {
            std::cerr << "carbon3d: unknown page '" << page.toStdString() << "'\n";
            exitCode = 2;
            loop.quit();
            return;
        }
        if (page == QLatin1String("compare"))
            window.compareLastRuns();
        grabAfter(page == QLatin1String("compare") ? 1500 : 300);
    });
    QObject::connect(&window, &ui::MainWindow::runFailed, &loop, [&](const QString& message) {
        std::cerr << "carbon3d: run failed: " << message.toStdString() << '\n';
        exitCode = 1;
        loop.quit();
    });
    window.resize(1600, 1000);
    window.show();
    QTimer::singleShot(15 * 60 * 1000, &loop, [&] {
        std::cerr << "carbon3d: screenshot timed out\n";
        exitCode = 1;
        loop.quit();
    });
    loop.exec();
    return exitCode;
}

} // namespace carbon3d::app
