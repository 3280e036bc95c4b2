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

namespace {

// One spelling per file: the bundled default is reached as <exe>/../../sample_data/... and as the source
// tree's path, and both once showed up in the menu.
QString sameFileKey(const QString& path) {
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

QStringList withoutDuplicates(const QStringList& paths) {
    QStringList unique;
    for (const QString& path : paths) {
        const QString key = sameFileKey(path);
        if (!unique.contains(key))
            unique << key;
    }
    return unique;
}

} // namespace

void RecentFilesMenu::add(const QString& path) {
    QStringList recent = settings::recentScenarios.get();
    recent.prepend(path);
    recent = withoutDuplicates(recent);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings::recentScenarios.set(recent);
    rebuild();
}

void RecentFilesMenu::rebuild() {
    clear();
    const QStringList recent = withoutDuplicates(settings::recentScenarios.get());
    for (const QString& path : recent)
        addAction(QFileInfo(path).fileName(), this, [this, path] {
            Q_EMIT openRequested(path);
        })->setToolTip(path);
    setEnabled(!recent.isEmpty());
}

} // namespace carbon3d::ui
