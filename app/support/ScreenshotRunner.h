// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace carbon3d::ui {
class MainWindow;
}

namespace carbon3d::app {

// `carbon3d --screenshot FILE.png`: opens the scenario (or keeps the default), runs it, shows the page,
// renders the window at 1600x1000 and saves it. Returns the process exit code. Used by tests and to keep
// the README's screenshots true.
int runScreenshot(ui::MainWindow& window, const QString& scenarioPath, const QString& page,
                  const QString& output);

} // namespace carbon3d::app
