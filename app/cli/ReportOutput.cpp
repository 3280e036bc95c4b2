// SPDX-License-Identifier: MIT
#include "cli/ReportOutput.h"

#include "domain/InputError.h"

#include <QSaveFile>
#include <ostream>

namespace carbon3d::cli {

void writeReport(const std::string& text, const std::optional<std::string>& path, CommandIo& io) {
    if (!path) {
        io.out << text;
        return;
    }
    QSaveFile file(QString::fromStdString(*path));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(*path, 0, 0, "cannot write the report: " + file.errorString().toStdString());
    io.out << "wrote " << *path << '\n';
}

} // namespace carbon3d::cli
