// SPDX-License-Identifier: MIT
#include "config/Presets.h"

#include "config/ClusterProfileJson.h"
#include "config/ModelSpecJson.h"
#include "domain/InputError.h"
#include "domain/TextList.h"

#include <QDir>
#include <QFile>
#include <algorithm>
#include <filesystem>

namespace carbon3d {

namespace {

// Presets are compiled in as Qt resources (core/config/CMakeLists.txt) from sample_data/.
const char* const kClusterDir = ":/presets/clusters/";
const char* const kModelDir = ":/presets/models/";

std::vector<std::string> idsIn(const char* directory) {
    const QStringList files =
        QDir(QString::fromLatin1(directory)).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    std::vector<std::string> ids;
    for (const QString& file : files)
        ids.push_back(file.chopped(5).toStdString()); // drop ".json"
    std::sort(ids.begin(), ids.end());                // byte order, independent of locale
    return ids;
}

// Ids are file names: refuse anything that could step outside the preset folder.
bool isPlainId(const std::string& id) {
    if (id.empty() || id.find("..") != std::string::npos)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    });
}

std::optional<std::string> presetPath(const char* directory, const std::string& id) {
    if (!isPlainId(id))
        return std::nullopt;
    const std::string path = std::string(directory) + id + ".json";
    if (!QFile::exists(QString::fromStdString(path)))
        return std::nullopt;
    return path;
}

template <typename T> void checkPresetId(const T& value, const std::string& id, const std::string& path) {
    // The file name is the id users type; a mismatch would make the preset unreachable by its own id.
    if (value.id != id)
        throw InputError(path, 0, 0,
                         "preset file declares id '" + value.id + "' but is named '" + id + ".json'");
}

} // namespace

std::vector<std::string> clusterPresetIds() {
    return idsIn(kClusterDir);
}

std::vector<std::string> modelPresetIds() {
    return idsIn(kModelDir);
}

std::optional<ClusterProfile> findClusterPreset(const std::string& id) {
    const std::optional<std::string> path = presetPath(kClusterDir, id);
    if (!path)
        return std::nullopt;
    ClusterProfile cluster = loadClusterProfile(*path);
    checkPresetId(cluster, id, *path);
    return cluster;
}

std::optional<ModelSpec> findModelPreset(const std::string& id) {
    const std::optional<std::string> path = presetPath(kModelDir, id);
    if (!path)
        return std::nullopt;
    ModelSpec model = loadModelSpec(*path);
    checkPresetId(model, id, *path);
    return model;
}

namespace {

// Whether anything, even a dangling or looping link, is at `path`: then the loader says what is wrong with
// it (a link loop, a directory, a device) instead of "does not exist".
bool somethingIsAt(const std::string& path) {
    std::error_code ec;
    return std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found && !ec;
}

} // namespace

ClusterProfile resolveCluster(const std::string& idOrPath) {
    if (std::optional<ClusterProfile> preset = findClusterPreset(idOrPath))
        return *preset;
    if (!somethingIsAt(idOrPath)) {
        throw InputError(idOrPath, 0, 0,
                         "neither a cluster preset (" + joinedText(clusterPresetIds()) +
                             ") nor an existing file");
    }
    return loadClusterProfile(idOrPath);
}

ModelSpec resolveModel(const std::string& idOrPath) {
    if (std::optional<ModelSpec> preset = findModelPreset(idOrPath))
        return *preset;
    if (!somethingIsAt(idOrPath)) {
        throw InputError(idOrPath, 0, 0,
                         "neither a model preset (" + joinedText(modelPresetIds()) +
                             ") nor an existing file");
    }
    return loadModelSpec(idOrPath);
}

} // namespace carbon3d
