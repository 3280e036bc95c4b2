// SPDX-License-Identifier: MIT
#include "support/DataDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace carbon3d::app {

QString sampleDataDirectory() {
    QStringList candidates;
    const QString fromEnvironment = qEnvironmentVariable("CARBON3D_DATA_DIR");
    if (!fromEnvironment.isEmpty())
        candidates << fromEnvironment;
    const QString exeDir = QCoreApplication::applicationDirPath();
    candidates << QDir(exeDir).filePath(QStringLiteral("../share/carbon3d/sample_data"))
               << QDir(exeDir).filePath(QStringLiteral("../../sample_data"))
               << QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data");
    for (const QString& candidate : candidates) {
        if (QFileInfo::exists(QDir(candidate).filePath(QStringLiteral("scenarios/default.json"))))
            return QDir(candidate).canonicalPath();
    }
    return {};
}

QString docsDirectory() {
    const QString data = sampleDataDirectory();
    if (data.isEmpty())
        return {};
    return QDir(data).filePath(QStringLiteral("../docs"));
}

std::string defaultDatabasePath() {
    return (QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
            QStringLiteral("/results.sqlite"))
        .toStdString();
}

} // namespace carbon3d::app
