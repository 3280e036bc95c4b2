// SPDX-License-Identifier: MIT
#include "domain/FileIdentity.h"

#include "domain/InputError.h"

#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <utility>

namespace carbon3d {

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code error;
    // std::filesystem::equivalent compares st_dev and st_ino; it reports an error when either is missing.
    const bool same = std::filesystem::equivalent(a, b, error);
    if (!error)
        return same;
    // A file still to be made (a database a command is about to create) is the same file as another path
    // when both name the same place once links in their existing parts are resolved.
    std::error_code errorA, errorB;
    const std::filesystem::path placeA = std::filesystem::weakly_canonical(a, errorA);
    const std::filesystem::path placeB = std::filesystem::weakly_canonical(b, errorB);
    return !errorA && !errorB && placeA == placeB;
}

bool isDatabaseOrCompanion(const std::string& path, const std::string& database) {
    if (sameFile(path, database))
        return true;
    for (const char* suffix : kDatabaseCompanionSuffixes) {
        if (sameFile(path, database + suffix))
            return true;
    }
    return false;
}

namespace {

// The marked databases; a path appears once per live mark (two stores may open one file).
struct OpenDatabases {
    std::mutex lock;
    std::multiset<std::string> paths;
};

OpenDatabases& openDatabases() {
    static OpenDatabases registry;
    return registry;
}

} // namespace

OpenDatabaseMark::OpenDatabaseMark(const std::string& path) {
    std::error_code error;
    m_path = std::filesystem::absolute(path, error).string();
    if (error)
        m_path = path;
    const std::lock_guard<std::mutex> guard(openDatabases().lock);
    openDatabases().paths.insert(m_path);
}

OpenDatabaseMark::~OpenDatabaseMark() {
    if (m_path.empty())
        return;
    const std::lock_guard<std::mutex> guard(openDatabases().lock);
    std::multiset<std::string>& paths = openDatabases().paths;
    if (const auto found = paths.find(m_path); found != paths.end())
        paths.erase(found);
}

OpenDatabaseMark::OpenDatabaseMark(OpenDatabaseMark&& other) noexcept
    : m_path(std::exchange(other.m_path, std::string())) {}

OpenDatabaseMark& OpenDatabaseMark::operator=(OpenDatabaseMark&& other) noexcept {
    if (this != &other) {
        OpenDatabaseMark released(std::move(*this)); // unmarks what this held, when it goes
        m_path = std::exchange(other.m_path, std::string());
    }
    return *this;
}

std::string openDatabaseAt(const std::string& path) {
    const std::lock_guard<std::mutex> guard(openDatabases().lock);
    for (const std::string& database : openDatabases().paths) {
        if (isDatabaseOrCompanion(path, database))
            return database;
    }
    return {};
}

void refuseOutputOverInputs(const std::string& output, const std::vector<std::string>& inputs) {
    for (const std::string& input : inputs) {
        if (!input.empty() && isDatabaseOrCompanion(output, input))
            throw InputError(output, 0, 0,
                             "is " + input +
                                 ", an input of this command (the same file by device and inode); "
                                 "writing it would destroy what is read: choose another output");
    }
}

} // namespace carbon3d
