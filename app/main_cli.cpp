// SPDX-License-Identifier: MIT
// carbon3d-cli: the headless tool. All behaviour lives in app/cli on top of the core.
#include "cli/Command.h"

#include <QCoreApplication>

#include <iostream>

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv); // for Qt's SQL driver and time zones; no event loop is run
    QCoreApplication::setApplicationName(QStringLiteral("carbon3d"));
    QCoreApplication::setOrganizationName(QStringLiteral("Carbon3D"));
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    return carbon3d::cli::runCli(args, std::cout, std::cerr);
}
