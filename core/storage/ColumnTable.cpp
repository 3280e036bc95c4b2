// SPDX-License-Identifier: MIT
#include "storage/ColumnTable.h"

#include "domain/InputError.h"
#include "domain/TextList.h"

namespace carbon3d::storage_detail {

namespace {

IntervalActivity parseActivity(std::string_view text, const std::string& where) {
    std::string expected;
    for (IntervalActivity a : kIntervalActivities) {
        if (text == intervalActivityName(a))
            return a;
        appendSeparated(expected, intervalActivityName(a), "|");
    }
    throw InputError(where, 0, 0,
                     "series.activity: expected " + expected + ", found '" + std::string(text) + "'");
}

Recompute parseRecomputeColumn(std::string_view text, const std::string& where) {
    if (const auto recompute = parseRecompute(text))
        return *recompute;
    throw InputError(where, 0, 0,
                     "series.recompute: expected " + recomputeModeNames() + ", found '" + std::string(text) +
                         "'");
}

} // namespace

void bindValue(SqliteStatement& s, int parameter, double value) {
    s.bindReal(parameter, value);
}

void bindValue(SqliteStatement& s, int parameter, std::int64_t value) {
    s.bindInt(parameter, value);
}

void bindValue(SqliteStatement& s, int parameter, int value) {
    s.bindInt(parameter, value);
}

void bindValue(SqliteStatement& s, int parameter, bool value) {
    s.bindInt(parameter, value ? 1 : 0);
}

void bindValue(SqliteStatement& s, int parameter, const std::string& value) {
    s.bindText(parameter, value);
}

void bindValue(SqliteStatement& s, int parameter, IntervalActivity value) {
    s.bindText(parameter, intervalActivityName(value));
}

void bindValue(SqliteStatement& s, int parameter, Recompute value) {
    s.bindText(parameter, recomputeName(value));
}

void readValue(const SqliteStatement& s, int column, double& value, const std::string&) {
    value = s.real(column);
}

void readValue(const SqliteStatement& s, int column, std::int64_t& value, const std::string&) {
    value = s.integer(column);
}

void readValue(const SqliteStatement& s, int column, int& value, const std::string&) {
    value = static_cast<int>(s.integer(column));
}

void readValue(const SqliteStatement& s, int column, bool& value, const std::string&) {
    value = s.integer(column) != 0;
}

void readValue(const SqliteStatement& s, int column, std::string& value, const std::string&) {
    value = s.text(column);
}

void readValue(const SqliteStatement& s, int column, IntervalActivity& value, const std::string& where) {
    value = parseActivity(s.textView(column), where);
}

void readValue(const SqliteStatement& s, int column, Recompute& value, const std::string& where) {
    value = parseRecomputeColumn(s.textView(column), where);
}

} // namespace carbon3d::storage_detail
