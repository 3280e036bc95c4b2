// SPDX-License-Identifier: MIT
#include "storage/SqliteTransaction.h"

#include "storage/SqliteStatement.h"

#include <sqlite3.h>

namespace carbon3d::storage_detail {

SqliteTransaction::SqliteTransaction(sqlite3* db, Kind kind, const std::string& dbPath)
    : m_db(db)
    , m_dbPath(dbPath) {
    const char* begin = kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED";
    checkSqlite(m_db, sqlite3_exec(m_db, begin, nullptr, nullptr, nullptr), m_dbPath,
                "starting a transaction");
    m_open = true;
}

SqliteTransaction::~SqliteTransaction() {
    // SQLite may already have rolled back by itself after some errors (SQLITE_FULL, SQLITE_IOERR...);
    // autocommit mode tells whether a transaction is still open.
    if (m_open && sqlite3_get_autocommit(m_db) == 0)
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
    checkSqlite(m_db, sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr), m_dbPath, "committing");
    m_open = false;
}

} // namespace carbon3d::storage_detail
