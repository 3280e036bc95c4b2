// SPDX-License-Identifier: MIT
#include "domain/Json.h"

#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/PrintableText.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace carbon3d {

JsonValue JsonValue::makeNull(int line, int column) {
    JsonValue v;
    v.m_line = line;
    v.m_column = column;
    return v;
}

JsonValue JsonValue::makeBool(bool value, int line, int column) {
    JsonValue v = makeNull(line, column);
    v.m_type = Type::Bool;
    v.m_bool = value;
    return v;
}

JsonValue JsonValue::makeNumber(double value, int line, int column) {
    JsonValue v = makeNull(line, column);
    v.m_type = Type::Number;
    v.m_number = value;
    return v;
}

JsonValue JsonValue::makeString(std::string value, int line, int column) {
    JsonValue v = makeNull(line, column);
    v.m_type = Type::String;
    v.m_string = std::move(value);
    return v;
}

JsonValue JsonValue::makeArray(int line, int column) {
    JsonValue v = makeNull(line, column);
    v.m_type = Type::Array;
    return v;
}

JsonValue JsonValue::makeObject(int line, int column) {
    JsonValue v = makeNull(line, column);
    v.m_type = Type::Object;
    return v;
}

const JsonValue* JsonValue::find(std::string_view key) const {
    for (const Member& member : m_members) {
        if (member.key == key)
            return &member.value;
    }
    return nullptr;
}

void JsonValue::append(JsonValue value) {
    m_items.push_back(std::move(value));
}

JsonValue::Member& JsonValue::insert(std::string key, JsonValue value) {
    for (Member& member : m_members) {
        if (member.key == key) {
            member.value = std::move(value);
            return member;
        }
    }
    m_members.push_back(Member{std::move(key), 0, 0, std::move(value)});
    return m_members.back();
}

const char* JsonValue::typeName(Type type) {
    switch (type) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return "a boolean";
    case Type::Number:
        return "a number";
    case Type::String:
        return "a string";
    case Type::Array:
        return "an array";
    case Type::Object:
        return "an object";
    }
    return "?";
}

void appendJsonString(std::string& out, const std::string& raw) {
    // Most strings are printable ASCII with nothing to escape (every key, most values): they go out as they
    // are, without the UTF-8 check's copy (a study saves tens of thousands of cells, each a JSON object).
    const bool plain = std::all_of(raw.begin(), raw.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
    });
    if (plain) {
        out += '"';
        out += raw;
        out += '"';
        return;
    }
    // Output is UTF-8 whatever came in (a CSV trace's zone name, an old database's run name).
    const std::string text = validUtf8(raw);
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                std::array<char, 8> buffer{};
                std::snprintf(buffer.data(), buffer.size(), "\\u%04x", static_cast<unsigned>(c));
                out += buffer.data();
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void appendJsonNumber(std::string& out, double value) {
    if (!std::isfinite(value)) {
        out += "null"; // JSON has no NaN or infinity
        return;
    }
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        out += std::to_string(static_cast<long long>(value));
        return;
    }
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    out.append(buffer.data(), result.ptr);
}

namespace {

void newline(std::string& out, int indent, int depth) {
    if (indent < 0)
        return;
    out += '\n';
    out.append(static_cast<size_t>(indent) * static_cast<size_t>(depth), ' ');
}

} // namespace

std::string JsonValue::dump(int indent) const {
    std::string out;
    dumpTo(out, indent, 0);
    return out;
}

void JsonValue::dumpTo(std::string& out, int indent, int depth) const {
    switch (m_type) {
    case Type::Null:
        out += "null";
        return;
    case Type::Bool:
        out += m_bool ? "true" : "false";
        return;
    case Type::Number:
        appendJsonNumber(out, m_number);
        return;
    case Type::String:
        appendJsonString(out, m_string);
        return;
    case Type::Array:
        if (m_items.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (size_t i = 0; i < m_items.size(); ++i) {
            if (i > 0)
                out += ',';
            newline(out, indent, depth + 1);
            m_items[i].dumpTo(out, indent, depth + 1);
        }
        newline(out, indent, depth);
        out += ']';
        return;
    case Type::Object:
        if (m_members.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        for (size_t i = 0; i < m_members.size(); ++i) {
            if (i > 0)
                out += ',';
            newline(out, indent, depth + 1);
            appendJsonString(out, m_members[i].key);
            out += indent < 0 ? ":" : ": ";
            m_members[i].value.dumpTo(out, indent, depth + 1);
        }
        newline(out, indent, depth);
        out += '}';
        return;
    }
}

namespace {

// Recursive-descent parser that tracks line and column of every token.
class JsonParser {
public:
    JsonParser(std::string_view text, const std::string& fileName)
        : m_text(text)
        , m_file(fileName) {}

    JsonValue parseDocument() {
        skipWhitespace();
        if (atEnd())
            fail("expected a JSON value, found an empty file");
        JsonValue value = parseValue(0);
        skipWhitespace();
        if (!atEnd())
            fail("expected end of file after the JSON value, found " +
                 quotedExcerpt(std::string_view(&m_text[m_pos], 1)));
        return value;
    }

private:
    static constexpr int kMaxDepth = 200; // deeper nesting is not a real input file

    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(m_file, m_line, m_column, problem);
    }

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }

    char advance() {
        const char c = m_text[m_pos++];
        if (c == '\n') {
            ++m_line;
            m_column = 1;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++m_column; // count code points, not UTF-8 continuation bytes
        }
        return c;
    }

    void skipWhitespace() {
        while (!atEnd()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                advance();
            else
                break;
        }
    }

    void expectWord(std::string_view word) {
        const int line = m_line;
        const int column = m_column;
        for (const char c : word) {
            if (atEnd() || peek() != c)
                throw InputError(m_file, line, column, "expected '" + std::string(word) + "'");
            advance();
        }
    }

    JsonValue parseValue(int depth) {
        if (depth > kMaxDepth)
            fail("JSON nested deeper than 200 levels");
        // Counted as they are read: every value costs about a hundred bytes in memory, so a file of tiny
        // values (a 63 MB array of digits took 3.4 GB) is refused before it is built.
        if (++m_values > kMaxJsonValues)
            fail("more than " + std::to_string(kMaxJsonValues) +
                 " JSON values (numbers, strings, arrays, objects) in one file; Carbon3D reads at most that "
                 "many");
        const int line = m_line;
        const int column = m_column;
        switch (peek()) {
        case '{':
            return parseObject(depth);
        case '[':
            return parseArray(depth);
        case '"':
            return JsonValue::makeString(parseString(), line, column);
        case 't':
            expectWord("true");
            return JsonValue::makeBool(true, line, column);
        case 'f':
            expectWord("false");
            return JsonValue::makeBool(false, line, column);
        case 'n':
            expectWord("null");
            return JsonValue::makeNull(line, column);
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
                return parseNumber();
            if (atEnd())
                fail("expected a JSON value, found end of file");
            fail("expected a JSON value, found " + quotedExcerpt(m_text.substr(m_pos, atEnd() ? 0 : 1)));
        }
    }

    JsonValue parseObject(int depth) {
        JsonValue object = JsonValue::makeObject(m_line, m_column);
        advance(); // {
        skipWhitespace();
        if (peek() == '}') {
            advance();
            return object;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"')
                fail("expected a quoted key");
            const int keyLine = m_line;
            const int keyColumn = m_column;
            std::string key = parseString();
            if (object.find(key) != nullptr)
                throw InputError(m_file, keyLine, keyColumn, "duplicate key '" + key + "'");
            skipWhitespace();
            if (peek() != ':')
                fail("expected ':' after key '" + key + "'");
            advance();
            skipWhitespace();
            JsonValue value = parseValue(depth + 1);
            JsonValue::Member& member = object.insert(key, std::move(value));
            member.line = keyLine;
            member.column = keyColumn;
            skipWhitespace();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == '}') {
                advance();
                return object;
            }
            fail("expected ',' or '}' in object");
        }
    }

    JsonValue parseArray(int depth) {
        JsonValue array = JsonValue::makeArray(m_line, m_column);
        advance(); // [
        skipWhitespace();
        if (peek() == ']') {
            advance();
            return array;
        }
        while (true) {
            skipWhitespace();
            array.append(parseValue(depth + 1));
            skipWhitespace();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == ']') {
                advance();
                return array;
            }
            fail("expected ',' or ']' in array");
        }
    }

    JsonValue parseNumber() {
        const int line = m_line;
        const int column = m_column;
        const size_t start = m_pos;
        if (peek() == '-')
            advance();
        if (peek() == '0') {
            advance();
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9')
                advance();
        } else {
            fail("expected a digit");
        }
        if (peek() == '.') {
            advance();
            if (!(peek() >= '0' && peek() <= '9'))
                fail("expected a digit after the decimal point");
            while (peek() >= '0' && peek() <= '9')
                advance();
        }
        if (peek() == 'e' || peek() == 'E') {
            advance();
            if (peek() == '+' || peek() == '-')
                advance();
            if (!(peek() >= '0' && peek() <= '9'))
                fail("expected a digit in the exponent");
            while (peek() >= '0' && peek() <= '9')
                advance();
        }
        double value = 0.0;
        const auto result = std::from_chars(m_text.data() + start, m_text.data() + m_pos, value);
        if (result.ec != std::errc() || !std::isfinite(value))
            throw InputError(m_file, line, column, "number out of range");
        return JsonValue::makeNumber(value, line, column);
    }

    static void appendUtf8(std::string& out, unsigned codePoint) {
        if (codePoint < 0x80) {
            out += static_cast<char>(codePoint);
        } else if (codePoint < 0x800) {
            out += static_cast<char>(0xC0 | (codePoint >> 6));
            out += static_cast<char>(0x80 | (codePoint & 0x3F));
        } else if (codePoint < 0x10000) {
            out += static_cast<char>(0xE0 | (codePoint >> 12));
            out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (codePoint & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (codePoint >> 18));
            out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (codePoint & 0x3F));
        }
    }

    unsigned parseHex4() {
        unsigned value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = atEnd() ? '\0' : advance();
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= static_cast<unsigned>(c - 'A' + 10);
            else
                fail("expected four hexadecimal digits after \\u");
        }
        return value;
    }

    std::string parseString() {
        advance(); // opening quote
        std::string out;
        while (true) {
            if (atEnd())
                fail("unterminated string");
            const char c = advance();
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character inside a string (escape it)");
            if (static_cast<unsigned char>(c) >= 0x80) {
                // JSON text is UTF-8 (RFC 8259): a Latin-1 byte or a cut sequence would pass on into
                // names, the database and --json output, which strict parsers then refuse.
                const std::size_t length = utf8SequenceLength(m_text, m_pos - 1);
                if (length == 0)
                    fail("invalid UTF-8 inside a string (byte " + excerpt(std::string_view(&c, 1)) +
                         "): expected UTF-8 text");
                out.append(m_text.substr(m_pos - 1, length));
                m_pos += length - 1;
                continue;
            }
            if (c != '\\') {
                out += c;
                continue;
            }
            if (atEnd())
                fail("unterminated escape sequence");
            const char e = advance();
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned codePoint = parseHex4();
                if (codePoint >= 0xD800 && codePoint <= 0xDBFF) {
                    if (peek() != '\\')
                        fail("expected a low surrogate after a high surrogate");
                    advance();
                    if (peek() != 'u')
                        fail("expected a low surrogate after a high surrogate");
                    advance();
                    const unsigned low = parseHex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        fail("invalid low surrogate");
                    codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, codePoint);
                break;
            }
            default:
                fail(std::string("invalid escape '\\") + e + "'");
            }
        }
    }

    std::string_view m_text;
    const std::string& m_file;
    size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;
    std::size_t m_values = 0; // values read so far (kMaxJsonValues)
};

} // namespace

JsonValue parseJson(std::string_view text, const std::string& fileName) {
    text = withoutByteOrderMark(text);
    JsonParser parser(text, fileName);
    return parser.parseDocument();
}

JsonValue jsonStrings(const std::vector<std::string>& items) {
    JsonValue array = JsonValue::makeArray();
    for (const std::string& item : items)
        array.append(JsonValue::makeString(item));
    return array;
}

JsonValue jsonNumbers(const std::vector<double>& items) {
    JsonValue array = JsonValue::makeArray();
    for (const double item : items)
        array.append(JsonValue::makeNumber(item));
    return array;
}

} // namespace carbon3d
