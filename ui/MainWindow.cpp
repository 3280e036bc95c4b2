// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include <QLabel>
#include <QStatusBar>

namespace carbon3d::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Carbon3D"));
    setCentralWidget(new QLabel(tr("Carbon3D"), this));
    statusBar()->showMessage(tr("Ready"));
    resize(1600, 1000);
}

} // namespace carbon3d::ui
