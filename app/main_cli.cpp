// SPDX-License-Identifier: MIT
// carbon3d-cli: the headless tool. All behaviour lives in app/cli on top of the core.
#include "cli/Command.h"
#include "cli/PlotCommand.h"

#include <QApplication>
#include <QCoreApplication>
#include <iostream>
#include <memory>

int main(int argc, char* argv[]) {
    const bool plotting = argc > 1 && std::string(argv[1]) == "plot";
    if (plotting && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // figures render without a display
    // Plots are widgets and need a QApplication; every other command runs on QCoreApplication (time zones,
    // standard paths) and never touches a display.
    std::unique_ptr<QCoreApplication> app = plotting ? std::make_unique<QApplication>(argc, argv)
                                                     : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("carbon3d"));
    QCoreApplication::setOrganizationName(QStringLiteral("Carbon3D"));
    carbon3d::cli::addCommand(carbon3d::cli::makePlotCommand());
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    return carbon3d::cli::runCli(args, std::cout, std::cerr);
}
