// SPDX-License-Identifier: MIT
// carbon3d: the desktop studio. Composition happens in ui/; this file parses the command line and starts it.
#include "MainWindow.h"
#include "StudioApplication.h"
#include "support/DataDirectory.h"
#include "support/ScreenshotRunner.h"

#include <QCommandLineParser>
#include <QLocale>
#include <iostream>

int main(int argc, char* argv[]) {
    carbon3d::ui::StudioApplication app(argc, argv); // its notify() is the studio's top-level handler
    QApplication::setApplicationName(QStringLiteral("carbon3d"));
    QApplication::setOrganizationName(QStringLiteral("Carbon3D"));
    QApplication::setApplicationVersion(QStringLiteral(CARBON3D_VERSION));
    // The installed desktop entry's name (docs/INSTALL.md): desktops match the window to its entry and icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.carbon3d.carbon3d"));
    // One way of writing numbers everywhere: the studio's axes, tables and fields use a decimal point, as
    // the files, the CLI and the generated docs do, whatever the user's locale (docs/DECISIONS.md,
    // "Numbers and locales"). Without this, plots under de_DE read "0,8" beside a table's "37.47".
    QLocale::setDefault(QLocale::c());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Carbon3D: what-if studio for carbon-aware training of large models"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("Scenario to open."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Run the scenario, save the window (1600x1000) to FILE.png, exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption page(QStringLiteral("page"),
                                  QStringLiteral("Page to show: results, compare, configurations, learn."),
                                  QStringLiteral("PAGE"), QStringLiteral("results"));
    const QCommandLineOption database(
        QStringLiteral("db"), QStringLiteral("Results database (default: the user's data directory)."),
        QStringLiteral("FILE"));
    parser.addOptions({scenario, screenshot, page, database});
    parser.process(app);

    const QString dataDir = carbon3d::app::sampleDataDirectory();
    if (dataDir.isEmpty()) {
        std::cerr << "carbon3d: cannot find the sample data (sample_data/scenarios/default.json); set "
                     "CARBON3D_DATA_DIR\n";
        return 1;
    }
    // The studio is given its database: --db, else the user's data directory (ui/ never looks it up).
    const QString databasePath = parser.value(database).isEmpty()
                                     ? QString::fromStdString(carbon3d::app::defaultDatabasePath())
                                     : parser.value(database);
    carbon3d::ui::MainWindow window(dataDir, carbon3d::app::docsDirectory(), databasePath);
    if (parser.isSet(screenshot))
        return carbon3d::app::runScreenshot(window, parser.value(scenario), parser.value(page),
                                            parser.value(screenshot));
    if (parser.isSet(scenario))
        window.openScenario(parser.value(scenario));
    window.show();
    return QApplication::exec();
}
