// SPDX-License-Identifier: MIT
#include "storage/ScratchDatabase.h"

#include "domain/FileIdentity.h"
#include "domain/InputError.h"
#include "storage/ResultsStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace carbon3d {

namespace {

void removeWithCompanions(const std::string& path) {
    QFile::remove(QString::fromStdString(path));
    for (const char* companion : kDatabaseCompanionSuffixes)
        QFile::remove(QString::fromStdString(path + companion));
}

// Byte for byte, flushed to the disk before returning (a rename after an unsynced copy can publish a file
// whose blocks are not written yet when the machine goes down).
void copyFileSynced(const std::string& from, const std::string& to) {
    QFile source(QString::fromStdString(from));
    if (!source.open(QIODevice::ReadOnly))
        throw InputError(from, 0, 0, "cannot be read: " + source.errorString().toStdString());
    QFile target(QString::fromStdString(to));
    if (!target.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw InputError(to, 0, 0, "cannot be written: " + target.errorString().toStdString());
    constexpr qint64 kChunk = 4 << 20;
    while (!source.atEnd()) {
        const QByteArray chunk = source.read(kChunk);
        if (chunk.isEmpty() && source.error() != QFileDevice::NoError)
            throw InputError(from, 0, 0, "cannot be read: " + source.errorString().toStdString());
        if (target.write(chunk) != chunk.size())
            throw InputError(to, 0, 0, "cannot be written: " + target.errorString().toStdString());
    }
    if (!target.flush() || ::fsync(target.handle()) != 0)
        throw InputError(to, 0, 0,
                         "cannot be written to the disk: " +
                             std::error_code(errno, std::generic_category()).message());
}

} // namespace

ScratchDatabase::ScratchDatabase(std::string publishedPath, const std::string& scratchFolder)
    : m_published(std::move(publishedPath)) {
    if (!QDir().mkpath(QString::fromStdString(scratchFolder)))
        throw InputError(scratchFolder, 0, 0, "cannot create the scratch folder");
    // As a database written in place would be: its folder made if need be (and found unwritable now, not
    // after the work).
    const QString publishedFolder = QFileInfo(QString::fromStdString(m_published)).absolutePath();
    if (!QDir().mkpath(publishedFolder) || !QFileInfo(publishedFolder).isWritable())
        throw InputError(m_published, 0, 0, "cannot be written: its folder cannot be created or written");
    // Several tasks of one array may share a node and its scratch: the process id keeps them apart.
    m_working = QDir(QString::fromStdString(scratchFolder))
                    .absoluteFilePath(QStringLiteral("carbon3d-%1-%2")
                                          .arg(QCoreApplication::applicationPid())
                                          .arg(QFileInfo(QString::fromStdString(m_published)).fileName()))
                    .toStdString();
    removeWithCompanions(m_working);
    if (QFileInfo::exists(QString::fromStdString(m_published))) {
        copyFileSynced(m_published, m_working);
        // A file written in place (not published from scratch) may keep committed work in its -wal.
        if (QFileInfo(QString::fromStdString(m_published + "-wal")).size() > 0)
            copyFileSynced(m_published + "-wal", m_working + "-wal");
    }
}

ScratchDatabase::~ScratchDatabase() {
    removeWithCompanions(m_working);
    QFile::remove(QString::fromStdString(m_working + ".snapshot"));
}

void ScratchDatabase::publish(const ResultsStore& store) const {
    const std::string snapshot = m_working + ".snapshot";
    QFile::remove(QString::fromStdString(snapshot));
    store.writeCompactCopy(snapshot);
    const QFileInfo published(QString::fromStdString(m_published));
    const std::string incoming = published.absoluteDir()
                                     .absoluteFilePath(QStringLiteral(".%1.incoming-%2")
                                                           .arg(published.fileName())
                                                           .arg(QCoreApplication::applicationPid()))
                                     .toStdString();
    try {
        copyFileSynced(snapshot, incoming);
        // A -wal left by an earlier in-place writer was copied into scratch when this began; kept beside
        // the new file, SQLite would replay its frames over it.
        for (const char* companion : kDatabaseCompanionSuffixes)
            QFile::remove(QString::fromStdString(m_published + companion));
        std::error_code error;
        std::filesystem::rename(incoming, m_published, error); // atomic: replaces the previous snapshot
        if (error)
            throw InputError(m_published, 0, 0, "cannot be replaced by its new copy: " + error.message());
    } catch (...) {
        QFile::remove(QString::fromStdString(incoming));
        QFile::remove(QString::fromStdString(snapshot));
        throw;
    }
    QFile::remove(QString::fromStdString(snapshot));
}

} // namespace carbon3d
