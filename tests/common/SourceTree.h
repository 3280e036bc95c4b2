// SPDX-License-Identifier: MIT
#pragma once

// The repository's own files, read as text by the guard tests (tst_vocabulary, tst_tables): which files
// there are below some folders, and a file's code without its // comments.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStringList>
#include <algorithm>

namespace carbon3d::testing {

inline const QString kSourceRoot = QStringLiteral(CARBON3D_SOURCE_DIR);

inline bool isBuildOutput(const QString& relative) {
    return relative.startsWith(QLatin1String(".git/")) || relative.startsWith(QLatin1String("build")) ||
           relative.startsWith(QLatin1String("out/"));
}

// Every file below the given folders of the repository whose name ends in one of `suffixes` (all files when
// empty), as paths relative to its root.
inline QStringList filesUnder(const QStringList& folders, const QStringList& suffixes) {
    QStringList files;
    for (const QString& folder : folders) {
        QDirIterator it(kSourceRoot + QLatin1Char('/') + folder, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString relative = QDir(kSourceRoot).relativeFilePath(it.next());
            if (isBuildOutput(relative))
                continue;
            if (suffixes.isEmpty() || std::any_of(suffixes.begin(), suffixes.end(),
                                                  [&](const QString& s) { return relative.endsWith(s); }))
                files << relative;
        }
    }
    return files;
}

// The file's code without // comments (names in comments explain; they are not compared).
inline QString codeOf(const QString& relative) {
    QFile file(kSourceRoot + QLatin1Char('/') + relative);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QString code;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        const qsizetype comment = line.indexOf(QLatin1String("//"));
        code += (comment >= 0 ? line.left(comment) : line) + QLatin1Char('\n');
    }
    return code;
}

} // namespace carbon3d::testing
