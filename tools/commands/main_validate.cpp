// SPDX-License-Identifier: MIT
// carbon3d-validate: the maintainers' tool (validation, calibration, generated documents). All behaviour
// lives in tools/ on top of the core.
#include "commands/ValidateCommands.h"

#include <QCoreApplication>
#include <iostream>

int main(int argc, char* argv[]) {
    const QCoreApplication app(argc, argv); // time zones and standard paths; never a display
    QCoreApplication::setApplicationName(QStringLiteral("carbon3d"));
    QCoreApplication::setOrganizationName(QStringLiteral("Carbon3D"));
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    return carbon3d::cli::runValidateTool(args, std::cout, std::cerr);
}
