// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// Whether two paths name the same file, by device and inode (so through any hard or symbolic link, any
// spelling of the path). When either does not exist yet, whether both name the same place once the
// symbolic links of their existing parts are resolved (a database a command is about to create).
bool sameFile(const std::string& a, const std::string& b);

// The files SQLite keeps beside a database, by the suffix on the database's name.
inline constexpr const char* kDatabaseCompanionSuffixes[] = {"-wal", "-shm", "-journal"};

// Whether `path` is `database` or one of SQLite's files beside it (kDatabaseCompanionSuffixes), by device
// and inode.
bool isDatabaseOrCompanion(const std::string& path, const std::string& database);

// Marks a SQLite database as open in this process while the mark lives (ResultsStore holds one). SQLite's
// POSIX locks are per process and per inode: opening the same file through any other descriptor, under any
// name, and closing it releases them, and another process may then write pages this one still caches (a
// corrupted database, issue 40). The one input reader (InputFile.h) refuses every marked database and its
// companions, looking only with stat(), which opens nothing.
class OpenDatabaseMark {
public:
    OpenDatabaseMark() = default;
    explicit OpenDatabaseMark(const std::string& path);
    ~OpenDatabaseMark();
    OpenDatabaseMark(OpenDatabaseMark&& other) noexcept;
    OpenDatabaseMark& operator=(OpenDatabaseMark&& other) noexcept;
    OpenDatabaseMark(const OpenDatabaseMark&) = delete;
    OpenDatabaseMark& operator=(const OpenDatabaseMark&) = delete;

private:
    std::string m_path; // absolute; empty: marks nothing
};

// The open database (its path as marked) that `path` is, or one of whose companions it is; empty when none.
std::string openDatabaseAt(const std::string& path);

// Refuses, before any work, an output that would overwrite one of the command's inputs (a database with
// its companions, a scenario, a trace): an InputError naming the output, the input it is and what to do.
void refuseOutputOverInputs(const std::string& output, const std::vector<std::string>& inputs);

} // namespace carbon3d
