// SPDX-License-Identifier: MIT
#include "config/ConfigFiles.h"

#include "domain/InputError.h"
#include "domain/InputFile.h"

#include <QFile>
#include <filesystem>

namespace carbon3d {

namespace {

bool isResourcePath(const std::string& path) {
    return path.size() >= 2 && path[0] == ':' && path[1] == '/';
}

} // namespace

std::string readTextFile(const std::string& path, std::int64_t maxBytes) {
    if (!isResourcePath(path)) // a file of the user's: regular files only, the size checked before reading
        return readInputFile(path, maxBytes, "a configuration file (JSON or CSV)");
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        throw InputError(path, 0, 0, "cannot open the file: " + file.errorString().toStdString());
    if (file.size() > maxBytes) {
        throw InputError(path, 0, 0,
                         "the file is " + std::to_string(file.size()) +
                             " bytes; configuration files are limited to " + std::to_string(maxBytes) +
                             " bytes");
    }
    const QByteArray bytes = file.readAll();
    return bytes.toStdString();
}

JsonValue readJsonFile(const std::string& path) {
    return parseJson(readTextFile(path), path);
}

std::string directoryOf(const std::string& file) {
    return std::filesystem::path(file).parent_path().generic_string();
}

std::string resolveRelativeTo(const std::string& baseFile, const std::string& path) {
    const std::filesystem::path p(path);
    if (path.empty() || p.is_absolute() || isResourcePath(path))
        return path;
    const std::filesystem::path base = std::filesystem::path(baseFile).parent_path();
    if (base.empty())
        return p.lexically_normal().generic_string();
    return (base / p).lexically_normal().generic_string();
}

std::string relativePathFrom(const std::string& directory, const std::string& path) {
    if (directory.empty() || path.empty() || isResourcePath(path) || isResourcePath(directory))
        return path;
    std::error_code error;
    const std::filesystem::path absPath = std::filesystem::absolute(path, error).lexically_normal();
    if (error)
        return path;
    std::filesystem::path absDir = std::filesystem::absolute(directory, error).lexically_normal();
    if (error)
        return path;
    if (absDir.filename().empty()) // "dir/" names the same directory as "dir"
        absDir = absDir.parent_path();
    const std::filesystem::path relative = absPath.lexically_relative(absDir);
    return relative.empty() ? path : relative.generic_string();
}

} // namespace carbon3d
