// SPDX-License-Identifier: MIT
#include "domain/OutputFile.h"

#include "domain/FileIdentity.h"
#include "domain/InputError.h"

#include <QSaveFile>

namespace carbon3d {

void writeFileAtomically(const std::string& path, const std::string& text, const std::string& problem) {
    // The last guard for every output (CSV exports, series, reports): commands check their outputs against
    // their inputs before any work, and none may replace a results database this process holds open.
    if (const std::string database = openDatabaseAt(path); !database.empty())
        throw InputError(path, 0, 0,
                         problem + ": it is the results database " + database +
                             " this program has open (or one of its -wal, -shm, -journal files); choose "
                             "another output");
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path, 0, 0, problem + ": " + file.errorString().toStdString());
}

} // namespace carbon3d
