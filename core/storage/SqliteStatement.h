// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

// Thin RAII over the sqlite3 C API for core/storage, which holds every SQL statement. Not part of the
// public API: only core/storage includes this header.
namespace carbon3d::storage_detail {

// SQLITE_BUSY or SQLITE_LOCKED that outlived the connection's busy timeout. ResultsStore catches it and
// retries the whole operation (a transaction that failed half-way has been rolled back by then).
class BusyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws for any result code other than SQLITE_OK, SQLITE_ROW and SQLITE_DONE: BusyError for busy/locked,
// InputError naming the database file otherwise. `what` says what was being done ("saving run", ...).
void checkSqlite(sqlite3* db, int rc, const std::string& dbPath, std::string_view what);

// One prepared statement. Parameters are named in the SQL (":run_id") and bound by name; hot loops look the
// index up once with parameterIndex() and bind by index.
class SqliteStatement {
public:
    SqliteStatement(sqlite3* db, std::string_view sql, const std::string& dbPath);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Throws std::logic_error for a name the SQL does not contain: a typo is a programming error.
    int parameterIndex(const char* name) const;

    void bindInt(int index, std::int64_t value);
    void bindReal(int index, double value); // NaN is stored as NULL (SQLite has no NaN)
    void bindText(int index, std::string_view value);
    void bindNull(int index);
    void bindInt(const char* name, std::int64_t value) { bindInt(parameterIndex(name), value); }
    void bindReal(const char* name, double value) { bindReal(parameterIndex(name), value); }
    void bindText(const char* name, std::string_view value) { bindText(parameterIndex(name), value); }
    void bindNull(const char* name) { bindNull(parameterIndex(name)); }

    bool step();  // true while a result row is available, false when done
    void reset(); // ready to run again; bindings are kept until rebound
    void exec();  // step() to completion, ignoring rows; then reset()

    // Result columns of the current row, 0-based.
    std::int64_t integer(int column) const;
    double real(int column) const; // NULL reads back as NaN, the inverse of bindReal()
    std::string text(int column) const;
    std::string_view textView(int column) const; // valid until the next step() or reset()
    bool isNull(int column) const;

private:
    sqlite3* m_db;
    sqlite3_stmt* m_statement = nullptr;
    const std::string& m_dbPath;
};

} // namespace carbon3d::storage_detail
