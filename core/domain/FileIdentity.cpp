// SPDX-License-Identifier: MIT
#include "domain/FileIdentity.h"

#include "domain/InputError.h"

#include <filesystem>
#include <system_error>

namespace carbon3d {

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code error;
    // std::filesystem::equivalent compares st_dev and st_ino; it reports an error when either is missing.
    const bool same = std::filesystem::equivalent(a, b, error);
    return !error && same;
}

bool isDatabaseOrCompanion(const std::string& path, const std::string& database) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        if (sameFile(path, database + suffix))
            return true;
    }
    return false;
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
