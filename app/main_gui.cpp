// SPDX-License-Identifier: MIT
// carbon3d: the desktop studio. Composition happens in ui/; this file only starts it.
#include "MainWindow.h"

#include <QApplication>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("carbon3d"));
    QApplication::setOrganizationName(QStringLiteral("Carbon3D"));
    QApplication::setApplicationVersion(QStringLiteral(CARBON3D_VERSION));
    carbon3d::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
