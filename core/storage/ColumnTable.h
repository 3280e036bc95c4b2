// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "domain/TextList.h"
#include "storage/SqliteStatement.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

// The mechanism behind RowMapping: a row kind is a table of columns, each a name and how its value moves
// between a statement and the struct, and every statement of that kind is built from the table. Only
// core/storage includes this header.
namespace carbon3d::storage_detail {

// One column of a row kind.
template <typename Row> struct Column {
    const char* name; // the table's column; in a table that is only read, any SQL expression
    void (*bind)(SqliteStatement& s, int parameter, const Row& row);
    void (*read)(const SqliteStatement& s, int column, Row& row, const std::string& where);
    bool key; // part of the table's UNIQUE key: what identifies an existing row
};

// ---------------------------------------------------------------------------------------------------------
// Field values <-> SQLite values: the one place that says how each C++ type is stored. Booleans are 0/1,
// enums their names; `where` names the file in the error for a name that is not one (ColumnTable.cpp).
// ---------------------------------------------------------------------------------------------------------

void bindValue(SqliteStatement& s, int parameter, double value); // NaN as NULL
void bindValue(SqliteStatement& s, int parameter, std::int64_t value);
void bindValue(SqliteStatement& s, int parameter, int value);
void bindValue(SqliteStatement& s, int parameter, bool value);
void bindValue(SqliteStatement& s, int parameter, const std::string& value);
void bindValue(SqliteStatement& s, int parameter, IntervalActivity value);
void bindValue(SqliteStatement& s, int parameter, Recompute value);

void readValue(const SqliteStatement& s, int column, double& value, const std::string& where); // NULL: NaN
void readValue(const SqliteStatement& s, int column, std::int64_t& value, const std::string& where);
void readValue(const SqliteStatement& s, int column, int& value, const std::string& where);
void readValue(const SqliteStatement& s, int column, bool& value, const std::string& where);
void readValue(const SqliteStatement& s, int column, std::string& value, const std::string& where);
void readValue(const SqliteStatement& s, int column, IntervalActivity& value, const std::string& where);
void readValue(const SqliteStatement& s, int column, Recompute& value, const std::string& where);

template <typename MemberPointer> struct MemberClass;
template <typename Class, typename Field> struct MemberClass<Field Class::*> { using type = Class; };

// The column `name` holding row.*First.*Rest... (e.g. &IntervalRecord::config, &ParallelConfig::dp).
template <auto First, auto... Rest>
constexpr Column<typename MemberClass<decltype(First)>::type> column(const char* name, bool key = false) {
    using Row = typename MemberClass<decltype(First)>::type;
    return {name,
            [](SqliteStatement& s, int parameter, const Row& row) {
                bindValue(s, parameter, ((row.*First).*....*Rest));
            },
            [](const SqliteStatement& s, int c, Row& row, const std::string& where) {
                readValue(s, c, ((row.*First).*....*Rest), where);
            },
            key};
}

// ---------------------------------------------------------------------------------------------------------
// Statements from a table
// ---------------------------------------------------------------------------------------------------------

// Every column's name after `prefix`, comma-separated: a column list ("s." qualifies it), or with prefix
// ":" its parameters. keysOnly: the key columns only.
template <typename Table>
std::string nameList(const Table& columns, std::string_view prefix, bool keysOnly = false) {
    std::string out;
    for (const auto& c : columns) {
        // append() rather than operator+: GCC 12 at -O2 raises a false -Wrestrict on the latter.
        if (!keysOnly || c.key)
            appendSeparated(out, std::string(prefix).append(c.name));
    }
    return out;
}

// "a = :a AND b = :b" over the key columns.
template <typename Table> std::string keyCondition(const Table& columns) {
    std::string out;
    for (const auto& c : columns) {
        if (c.key)
            appendSeparated(out, std::string(c.name).append(" = :").append(c.name), " AND ");
    }
    return out;
}

// INSERT of the `leading` columns (bound by the caller, e.g. run_id) and then every column of the table.
template <typename Table>
std::string insertSql(const char* table, const Table& columns,
                      std::initializer_list<const char*> leading = {}) {
    std::string names;
    std::string parameters;
    for (const char* name : leading) {
        names.append(name).append(", ");
        parameters.append(":").append(name).append(", ");
    }
    return std::string("INSERT INTO ")
        .append(table)
        .append(" (")
        .append(names)
        .append(nameList(columns, ""))
        .append(") VALUES (")
        .append(parameters)
        .append(nameList(columns, ":"))
        .append(")");
}

// Binds every column (keysOnly: the key columns) to the parameter of the same name.
template <typename Table, typename Row>
void bindColumns(SqliteStatement& s, const Table& columns, const Row& row, bool keysOnly = false) {
    for (const auto& c : columns) {
        if (!keysOnly || c.key)
            c.bind(s, s.parameterIndex(std::string(":").append(c.name).c_str()), row);
    }
}

// Reads the columns of the table from result column `first` on; returns the column after the last.
template <typename Table, typename Row>
int readColumns(const SqliteStatement& s, const Table& columns, int first, Row& row,
                const std::string& where) {
    int next = first;
    for (const auto& c : columns)
        c.read(s, next++, row, where);
    return next;
}

} // namespace carbon3d::storage_detail
