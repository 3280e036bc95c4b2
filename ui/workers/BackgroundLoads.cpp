// SPDX-License-Identifier: MIT
#include "workers/BackgroundLoads.h"

#include "config/ConfigFiles.h"
#include "domain/InputError.h"
#include "domain/RegionNames.h"

#include <QDir>
#include <QFileInfo>

namespace carbon3d::ui {

DataDirectoryContents scanDataDirectory(const QString& dataDir) {
    DataDirectoryContents contents;
    const QDir traceDir(QDir(dataDir).filePath(QStringLiteral("traces")));
    const QStringList files = traceDir.entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        const QString stem = QFileInfo(file).completeBaseName(); // "US-CAL-CISO_2022"
        const QString region = stem.section(QLatin1Char('_'), 0, 0);
        const QString year = stem.section(QLatin1Char('_'), 1, 1);
        // "DE Germany (2022)": the id first, as the files and the CLI name it, then the place.
        const QString place = QString::fromStdString(regionPlaceName(region.toStdString()));
        const QString named = place.isEmpty() ? region : QStringLiteral("%1 %2").arg(region, place);
        contents.traces.push_back({year.isEmpty() ? named : QStringLiteral("%1 (%2)").arg(named, year),
                                   traceDir.filePath(file), region});
    }
    const QDir scenarioDir(QDir(dataDir).filePath(QStringLiteral("scenarios")));
    const QStringList learnFiles =
        scenarioDir.entryList({QStringLiteral("learn-*.json")}, QDir::Files, QDir::Name);
    for (const QString& file : learnFiles) {
        // Only the name and description are read here; the full load happens when the lesson is opened.
        const QString path = scenarioDir.filePath(file);
        LessonChoice lesson{QFileInfo(file).completeBaseName(), QString(), path};
        try {
            const JsonValue json = readJsonFile(path.toStdString());
            if (const JsonValue* name = json.find("name"); name && name->isString())
                lesson.title = QString::fromStdString(name->toString()).remove(QStringLiteral("Learn: "));
            if (const JsonValue* text = json.find("description"); text && text->isString())
                lesson.description = QString::fromStdString(text->toString());
        } catch (const InputError& error) {
            lesson.description = QString::fromStdString(error.what());
        }
        contents.lessons.push_back(lesson);
    }
    return contents;
}

} // namespace carbon3d::ui
