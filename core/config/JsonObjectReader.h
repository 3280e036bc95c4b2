// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d {

// The schema version this build writes and the newest it reads. Bump it (and add a migration in
// the loaders) when a file format changes incompatibly.
constexpr int kConfigSchemaVersion = 1;

// Strict reader of one JSON object in a configuration file. Every accessor marks its key as
// known; finish() then rejects any key nobody asked for, so a typo ("deadine") is an error at the
// typo's line and column instead of a silently ignored setting. Type and range errors name the
// key (with its path inside the file, e.g. "job.tokens") and its unit, and point at the value.
// All errors are InputError.
class JsonObjectReader {
public:
    // `path` prefixes key names in messages ("job." gives "job.tokens"); empty at the top level.
    // Throws InputError when `object` is not a JSON object.
    JsonObjectReader(const JsonValue& object, std::string file, std::string path = {});

    const std::string& file() const { return m_file; }
    bool has(std::string_view key) const; // does not mark the key as read

    // Numbers with an inclusive range [min, max]; `unit` appears in messages ("W", "GiB", "fraction").
    double number(std::string_view key, double min, double max, std::string_view unit);
    std::optional<double> optionalNumber(std::string_view key, double min, double max, std::string_view unit);
    // Integers: a JSON number with no fractional part, within [min, max].
    int integer(std::string_view key, int min, int max, std::string_view unit);
    std::optional<int> optionalInteger(std::string_view key, int min, int max, std::string_view unit);
    std::string string(std::string_view key);                        // non-empty
    std::optional<std::string> optionalString(std::string_view key); // non-empty when present
    bool boolean(std::string_view key);
    std::optional<bool> optionalBoolean(std::string_view key);
    const JsonValue& object(std::string_view key);
    const JsonValue* optionalObject(std::string_view key);
    const JsonValue& array(std::string_view key);
    const JsonValue* optionalArray(std::string_view key);
    const JsonValue& value(std::string_view key); // any type; the caller checks it
    const JsonValue* optionalValue(std::string_view key);

    // Reads "schema": it must be present, an integer, and not newer than kConfigSchemaVersion.
    int schema();
    // As schema(), but absent is allowed (objects embedded inline in a scenario); returns 0 then.
    int optionalSchema();

    // Throws at the first key that no accessor asked for, listing the expected keys and, when one
    // is close, suggesting it.
    void finish() const;

    // "job.tokens" for key "tokens" inside "job".
    std::string qualified(std::string_view key) const;
    // Error at a value (type, range, meaning) or at a key (unknown, missing).
    [[noreturn]] void failAt(const JsonValue& value, const std::string& problem) const;
    [[noreturn]] void failAtKey(std::string_view key, const std::string& problem) const;

private:
    const JsonValue::Member* member(std::string_view key);
    const JsonValue::Member& required(std::string_view key, const char* what);
    [[noreturn]] void failType(const JsonValue::Member& member, const char* expected,
                               std::string_view unit) const;

    const JsonValue& m_object;
    std::string m_file;
    std::string m_path;
    std::vector<std::string> m_known; // keys asked for, in the order asked
};

// Shortest text that reads back to the same double ("312", "989.4", "1e-05"): used in messages.
std::string formatNumber(double value);

// Levenshtein distance, for "did you mean" suggestions.
int editDistance(std::string_view a, std::string_view b);

} // namespace carbon3d
