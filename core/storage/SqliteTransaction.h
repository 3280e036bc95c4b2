// SPDX-License-Identifier: MIT
#pragma once

#include <string>

struct sqlite3;

namespace carbon3d::storage_detail {

// A transaction that rolls back unless committed (KDAB Charm's pattern): an exception anywhere between
// begin and commit leaves the database as it was. Write transactions begin IMMEDIATE, taking the write
// lock up front, so that a reader never has to upgrade to a writer: in WAL mode such an upgrade fails
// with SQLITE_BUSY at once, without waiting for the busy timeout.
class SqliteTransaction {
public:
    enum class Kind { Read, Write };

    SqliteTransaction(sqlite3* db, Kind kind, const std::string& dbPath);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;

    void commit();

private:
    sqlite3* m_db;
    const std::string& m_dbPath;
    bool m_open = false;
};

} // namespace carbon3d::storage_detail
