// SPDX-License-Identifier: MIT
#include "storage/SqliteStatement.h"

#include "domain/InputError.h"

#include <cmath>
#include <limits>
#include <sqlite3.h>

namespace carbon3d::storage_detail {

void checkSqlite(sqlite3* db, int rc, const std::string& dbPath, std::string_view what) {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE)
        return;
    const int primary = rc & 0xff;
    const std::string message =
        std::string(what) + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        throw BusyError(message);
    // SQLite's "attempt to write a readonly database" names neither cause nor remedy.
    if (primary == SQLITE_READONLY)
        throw InputError(
            dbPath, 0, 0,
            std::string(what) +
                ": the database cannot be written (the file or its folder is read-only to you, or "
                "the file was replaced while it was open); nothing was changed");
    throw InputError(dbPath, 0, 0, message);
}

SqliteStatement::SqliteStatement(sqlite3* db, std::string_view sql, const std::string& dbPath)
    : m_db(db)
    , m_dbPath(dbPath) {
    const int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_statement, nullptr);
    if (rc != SQLITE_OK) {
        const int primary = rc & 0xff;
        // A malformed statement is our bug; anything else (corruption, busy schema lock) is the file's. So is
        // SQLITE_ERROR "unsupported file format": a header whose schema format SQLite does not know (found
        // by fuzzing the store's open path; tests/fuzz/regressions/fuzz_store_open).
        const std::string message = sqlite3_errmsg(db);
        if (primary == SQLITE_ERROR && message.find("unsupported file format") != std::string::npos)
            throw InputError(dbPath, 0, 0,
                             "the file's SQLite header is not one SQLite can read (" + message + ")");
        if (primary == SQLITE_ERROR)
            throw std::logic_error("SQL does not prepare: " + std::string(sqlite3_errmsg(db)) +
                                   " in: " + std::string(sql.substr(0, 120)));
        checkSqlite(db, rc, dbPath, "preparing a query");
    }
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_statement);
}

int SqliteStatement::parameterIndex(const char* name) const {
    const int index = sqlite3_bind_parameter_index(m_statement, name);
    if (index == 0)
        throw std::logic_error(std::string("SQL has no parameter ") + name);
    return index;
}

void SqliteStatement::bindInt(int index, std::int64_t value) {
    checkSqlite(m_db, sqlite3_bind_int64(m_statement, index, value), m_dbPath, "binding");
}

void SqliteStatement::bindReal(int index, double value) {
    checkSqlite(m_db,
                std::isnan(value) ? sqlite3_bind_null(m_statement, index)
                                  : sqlite3_bind_double(m_statement, index, value),
                m_dbPath, "binding");
}

void SqliteStatement::bindText(int index, std::string_view value) {
    checkSqlite(
        m_db,
        sqlite3_bind_text64(m_statement, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
        m_dbPath, "binding");
}

void SqliteStatement::bindNull(int index) {
    checkSqlite(m_db, sqlite3_bind_null(m_statement, index), m_dbPath, "binding");
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(m_statement);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    sqlite3_reset(m_statement); // clears the error state so the statement (and the connection) stay usable
    checkSqlite(m_db, rc, m_dbPath, "running a query");
    return false;
}

void SqliteStatement::reset() {
    sqlite3_reset(m_statement);
}

void SqliteStatement::exec() {
    while (step()) {
    }
    reset();
}

std::int64_t SqliteStatement::integer(int column) const {
    return sqlite3_column_int64(m_statement, column);
}

double SqliteStatement::real(int column) const {
    if (sqlite3_column_type(m_statement, column) == SQLITE_NULL)
        return std::numeric_limits<double>::quiet_NaN();
    return sqlite3_column_double(m_statement, column);
}

std::string SqliteStatement::text(int column) const {
    const auto* bytes = sqlite3_column_text(m_statement, column);
    const int size = sqlite3_column_bytes(m_statement, column);
    return bytes == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(bytes), size);
}

std::string_view SqliteStatement::textView(int column) const {
    const auto* bytes = sqlite3_column_text(m_statement, column);
    const int size = sqlite3_column_bytes(m_statement, column);
    return bytes == nullptr ? std::string_view()
                            : std::string_view(reinterpret_cast<const char*>(bytes), size);
}

bool SqliteStatement::isNull(int column) const {
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

} // namespace carbon3d::storage_detail
