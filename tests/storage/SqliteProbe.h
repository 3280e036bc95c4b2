// SPDX-License-Identifier: MIT
#pragma once

// Independent read-only look into a results database for the tests: checks what a sqlite3 user would see
// (row counts, views, pragmas) without going through ResultsStore.

#include <cstdint>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace carbon3d::test {

// Every row of a query, each column as text (NULL as "NULL").
inline std::vector<std::vector<std::string>> queryRows(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("probe cannot open " + path);
    }
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        const std::string message = sqlite3_errmsg(db);
        sqlite3_close(db);
        throw std::runtime_error("probe query fails: " + message + " in " + sql);
    }
    std::vector<std::vector<std::string>> rows;
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int c = 0; c < sqlite3_column_count(statement); ++c) {
            const auto* text = sqlite3_column_text(statement, c);
            row.emplace_back(text == nullptr ? "NULL" : reinterpret_cast<const char*>(text));
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(statement);
    const std::string message = sqlite3_errmsg(db);
    sqlite3_close(db);
    if (rc != SQLITE_DONE)
        throw std::runtime_error("probe step fails: " + message);
    return rows;
}

inline std::int64_t queryInt(const std::string& path, const std::string& sql) {
    const auto rows = queryRows(path, sql);
    return rows.empty() || rows.front().empty() ? -1 : std::stoll(rows.front().front());
}

inline double queryReal(const std::string& path, const std::string& sql) {
    const auto rows = queryRows(path, sql);
    return rows.empty() || rows.front().empty() ? -1.0 : std::stod(rows.front().front());
}

// Runs SQL statements read-write (fixtures for the migration tests).
inline void execSql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("probe cannot open " + path + " for writing");
    }
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error != nullptr ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    if (rc != SQLITE_OK)
        throw std::runtime_error("probe exec fails: " + message);
}

} // namespace carbon3d::test
