// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

namespace carbon3d::ui {

// Composes the pages and wires their signals; no logic of its own.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};

} // namespace carbon3d::ui
