// SPDX-License-Identifier: MIT
#include "RecentFilesMenu.h"

#include "Settings.h"

#include <QFileInfo>

namespace carbon3d::ui {

namespace {
constexpr int kMaxRecent = 8;
}

RecentFilesMenu::RecentFilesMenu(const QString& title, QWidget* parent)
    : QMenu(title, parent) {
    rebuild();
}

void RecentFilesMenu::add(const QString& path) {
    QStringList recent = settings::recentScenarios.get();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings::recentScenarios.set(recent);
    rebuild();
}

void RecentFilesMenu::rebuild() {
    clear();
    const QStringList recent = settings::recentScenarios.get();
    for (const QString& path : recent)
        addAction(QFileInfo(path).fileName(), this, [this, path] {
            Q_EMIT openRequested(path);
        })->setToolTip(path);
    setEnabled(!recent.isEmpty());
}

} // namespace carbon3d::ui
