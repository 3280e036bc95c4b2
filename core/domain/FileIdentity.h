// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// Whether two paths name the same file, by device and inode (so through any hard or symbolic link, any
// spelling of the path); false when either does not exist.
bool sameFile(const std::string& a, const std::string& b);

// Whether `path` is `database` or one of SQLite's files beside it (-wal, -shm, -journal), by device and
// inode.
bool isDatabaseOrCompanion(const std::string& path, const std::string& database);

// Refuses, before any work, an output that would overwrite one of the command's inputs (a database with
// its companions, a scenario, a trace): an InputError naming the output, the input it is and what to do.
void refuseOutputOverInputs(const std::string& output, const std::vector<std::string>& inputs);

} // namespace carbon3d
