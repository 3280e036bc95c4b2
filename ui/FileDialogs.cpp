// SPDX-License-Identifier: MIT
#include "FileDialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileIconProvider>
#include <QFileInfo>
#include <QMimeDatabase>

namespace carbon3d::ui {

namespace {

// Qt's default provider asks QMimeDatabase with content matching, which reads each listed file.
class ExtensionOnlyIconProvider final : public QFileIconProvider {
public:
    QIcon icon(IconType type) const override { return QFileIconProvider::icon(type); }
    QIcon icon(const QFileInfo& info) const override {
        if (info.isDir())
            return QFileIconProvider::icon(Folder);
        const QMimeType mime = mimeOf(info);
        return QIcon::fromTheme(mime.iconName(), QFileIconProvider::icon(File));
    }
    QString type(const QFileInfo& info) const override {
        return info.isDir() ? QFileDialog::tr("Folder") : mimeOf(info).comment();
    }

private:
    QMimeType mimeOf(const QFileInfo& info) const {
        return m_mimes.mimeTypeForFile(info, QMimeDatabase::MatchExtension);
    }
    QMimeDatabase m_mimes;
};

QString chosen(QFileDialog* dialog) {
    const bool accepted = dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty();
    QString path = accepted ? dialog->selectedFiles().constFirst() : QString();
    delete dialog;
    return path;
}

// Where a dialog opens: `path` when its folder exists, else the home folder. Given no folder, or one that
// was deleted, QFileDialog falls back to the last folder any dialog visited, which may be gone as well (a
// temporary export folder).
QString existingStart(const QString& path, FileDialogKind kind) {
    if (path.isEmpty())
        return QDir::homePath();
    const QFileInfo info(path);
    const bool fileInAFolder = kind == FileDialogKind::SaveFile && !info.isDir();
    const QFileInfo folder(fileInAFolder ? info.absolutePath() : path);
    return folder.isDir() ? path : QDir::homePath();
}

} // namespace

QFileDialog* makeFileDialog(QWidget* parent, FileDialogKind kind, const QString& caption,
                            const QString& directory, const QString& filter) {
    auto* dialog = new QFileDialog(parent, caption, existingStart(directory, kind), filter);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    auto* provider = new ExtensionOnlyIconProvider;
    dialog->setIconProvider(provider);
    // The dialog does not own its provider; tie the provider's life to the dialog's.
    QObject::connect(dialog, &QObject::destroyed, [provider] { delete provider; });
    switch (kind) {
    case FileDialogKind::OpenFile:
        dialog->setFileMode(QFileDialog::ExistingFile);
        dialog->setAcceptMode(QFileDialog::AcceptOpen);
        break;
    case FileDialogKind::SaveFile:
        dialog->setFileMode(QFileDialog::AnyFile);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        break;
    case FileDialogKind::Directory:
        dialog->setFileMode(QFileDialog::Directory);
        dialog->setOption(QFileDialog::ShowDirsOnly);
        break;
    }
    return dialog;
}

QString chooseOpenFile(QWidget* parent, const QString& caption, const QString& directory,
                       const QString& filter) {
    return chosen(makeFileDialog(parent, FileDialogKind::OpenFile, caption, directory, filter));
}

QString chooseSaveFile(QWidget* parent, const QString& caption, const QString& path, const QString& filter) {
    // Given a file path, QFileDialog opens its folder with the file name filled in.
    return chosen(makeFileDialog(parent, FileDialogKind::SaveFile, caption, path, filter));
}

QString chooseDirectory(QWidget* parent, const QString& caption, const QString& directory) {
    return chosen(makeFileDialog(parent, FileDialogKind::Directory, caption, directory));
}

} // namespace carbon3d::ui
