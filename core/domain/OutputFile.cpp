// SPDX-License-Identifier: MIT
#include "domain/OutputFile.h"

#include "domain/InputError.h"

#include <QSaveFile>

namespace carbon3d {

void writeFileAtomically(const std::string& path, const std::string& text, const std::string& problem) {
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path, 0, 0, problem + ": " + file.errorString().toStdString());
}

} // namespace carbon3d
