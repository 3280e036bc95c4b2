// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace carbon3d {

// A JSON value that remembers where it stood in its file (1-based line and column), so that a
// loader can say "scenario.json:12:5: unknown key 'deadine'" rather than "invalid scenario".
// QJsonDocument only reports a byte offset for syntax errors and nothing for semantic ones,
// which is why the core has its own small parser. Objects keep their members in file order and
// reject duplicate keys (a duplicate would silently shadow the first value).
class JsonValue {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };
    struct Member;

    JsonValue() = default;
    static JsonValue makeNull(int line = 0, int column = 0);
    static JsonValue makeBool(bool value, int line = 0, int column = 0);
    static JsonValue makeNumber(double value, int line = 0, int column = 0);
    static JsonValue makeString(std::string value, int line = 0, int column = 0);
    static JsonValue makeArray(int line = 0, int column = 0);
    static JsonValue makeObject(int line = 0, int column = 0);

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }
    int line() const { return m_line; }
    int column() const { return m_column; }

    bool toBool() const { return m_bool; }
    double toNumber() const { return m_number; }
    const std::string& toString() const { return m_string; }
    const std::vector<JsonValue>& items() const { return m_items; }
    const std::vector<Member>& members() const { return m_members; }

    // Object member lookup; nullptr when absent (or when this is not an object).
    const JsonValue* find(std::string_view key) const;

    // Building values (writers, tests).
    void append(JsonValue value);
    Member& insert(std::string key, JsonValue value); // replaces an existing key

    // Serialises with sorted-as-inserted keys; indent < 0 gives the compact form. Numbers are
    // written with the shortest text that reads back to the same double.
    std::string dump(int indent = 2) const;

    static const char* typeName(Type type);

private:
    void dumpTo(std::string& out, int indent, int depth) const;

    Type m_type = Type::Null;
    int m_line = 0;
    int m_column = 0;
    bool m_bool = false;
    double m_number = 0.0;
    std::string m_string;
    std::vector<JsonValue> m_items;
    std::vector<Member> m_members;
};

struct JsonValue::Member {
    std::string key;
    int line = 0; // where the key itself stands
    int column = 0;
    JsonValue value;
};

// The most values one document may hold: 2^21. Read, a value costs about 100 to 200 bytes (an object's
// member more than an array's number), so a document at the cap takes about 430 MB (bench_memory). The
// largest real files we read stay far below it: a year of one UK region's Carbon Intensity JSON with its
// generation mix is about 610,000 values, a year of 5-minute Carbon Aware SDK rows about 530,000, a study
// axis at most 100,000. A file of bare digits (2 bytes a value) is refused at 4 MB of its text instead of
// taking 3.4 GB at 63 MB.
inline constexpr std::size_t kMaxJsonValues = std::size_t{1} << 21;

// Parses RFC 8259 JSON. Throws InputError(fileName, line, column, what was expected), also past
// kMaxJsonValues values.
JsonValue parseJson(std::string_view text, const std::string& fileName);

// The text dump() writes for a string and for a number (null when it is not finite), for a writer of a flat
// object that need not build the tree: a study's cells, tens of thousands of them.
void appendJsonString(std::string& out, const std::string& raw);
void appendJsonNumber(std::string& out, double value);

// Arrays of plain values, as the writers of scenarios, studies and run records build them.
JsonValue jsonStrings(const std::vector<std::string>& items);
JsonValue jsonNumbers(const std::vector<double>& items);

} // namespace carbon3d
