// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QFileDialog;
class QWidget;

namespace carbon3d::ui {

// Every file chooser of the studio. They are Qt's own dialog with an icon provider that names file types
// by their extension only, because a dialog that sniffs file contents opens every file in the directory
// it lists, and closing such a descriptor releases all of this process's POSIX locks on that file. When
// the listed directory holds the open results database, SQLite's locks vanish, and the next program that
// closes the database believes it is alone: it deletes the WAL with every run saved since its last
// checkpoint (docs/DATABASE.md "Sharing a database"). Native dialogs (GTK, KDE) sniff in-process too.
enum class FileDialogKind { OpenFile, SaveFile, Directory };

// Made but not shown: for tests that browse a directory the way the studio does.
QFileDialog* makeFileDialog(QWidget* parent, FileDialogKind kind, const QString& caption,
                            const QString& directory, const QString& filter = {});

// Modal choosers; an empty string when the user cancels.
QString chooseOpenFile(QWidget* parent, const QString& caption, const QString& directory,
                       const QString& filter);
QString chooseSaveFile(QWidget* parent, const QString& caption, const QString& path, const QString& filter);
QString chooseDirectory(QWidget* parent, const QString& caption, const QString& directory);

} // namespace carbon3d::ui
