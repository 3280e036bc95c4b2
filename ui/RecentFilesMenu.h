// SPDX-License-Identifier: MIT
#pragma once

#include <QMenu>

namespace carbon3d::ui {

// File > Open recent: the last scenarios opened or saved, newest first, kept in the settings so the list
// survives a restart. Choosing one asks for it to be opened; the window does the opening.
class RecentFilesMenu : public QMenu {
    Q_OBJECT
public:
    explicit RecentFilesMenu(const QString& title, QWidget* parent = nullptr);

    // Moves `path` to the top (adding it if new) and drops the oldest beyond the limit.
    void add(const QString& path);

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void rebuild();
};

} // namespace carbon3d::ui
