// SPDX-License-Identifier: MIT
#include "config/JsonObjectReader.h"

#include "domain/InputError.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d {

namespace {
// A key longer than this is no typo of ours: it is quoted cut short and gets no suggestion (the edit
// distance to every known key would cost its length times theirs).
constexpr std::size_t kLongestSuggestedKey = 64;
const std::vector<std::string> kNoKeys;
} // namespace

std::string formatNumber(double value) {
    return JsonValue::makeNumber(value).dump(-1);
}

int editDistance(std::string_view a, std::string_view b) {
    std::vector<int> previous(b.size() + 1);
    std::vector<int> current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        previous[j] = static_cast<int>(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = static_cast<int>(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

JsonObjectReader::JsonObjectReader(const JsonValue& object, std::string file, std::string path)
    : m_object(object)
    , m_file(std::move(file))
    , m_path(std::move(path)) {
    if (!object.isObject()) {
        const std::string what = m_path.empty() ? std::string("the file") : "'" + m_path + "'";
        throw InputError(m_file, object.line(), object.column(),
                         what + " must be a JSON object {...}, found " + JsonValue::typeName(object.type()));
    }
}

bool JsonObjectReader::has(std::string_view key) const {
    return m_object.find(key) != nullptr;
}

std::string JsonObjectReader::qualified(std::string_view key) const {
    return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

void JsonObjectReader::failAt(const JsonValue& value, const std::string& problem) const {
    throw InputError(m_file, value.line(), value.column(), problem);
}

void JsonObjectReader::failAtKey(std::string_view key, const std::string& problem) const {
    for (const JsonValue::Member& m : m_object.members()) {
        if (m.key == key)
            throw InputError(m_file, m.line, m.column, problem);
    }
    throw InputError(m_file, m_object.line(), m_object.column(), problem);
}

const JsonValue::Member* JsonObjectReader::member(std::string_view key) {
    if (std::find(m_known.begin(), m_known.end(), key) == m_known.end())
        m_known.emplace_back(key);
    for (const JsonValue::Member& m : m_object.members()) {
        if (m.key == key)
            return &m;
    }
    return nullptr;
}

const JsonValue::Member& JsonObjectReader::required(std::string_view key, const char* what) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr) {
        // A required key is most often "missing" because it is misspelt: point at the misspelling.
        for (const JsonValue::Member& other : m_object.members()) {
            if (std::find(m_known.begin(), m_known.end(), other.key) != m_known.end())
                continue;
            if (other.key.size() <= kLongestSuggestedKey &&
                editDistance(other.key, key) <= std::max<int>(2, static_cast<int>(key.size()) / 3)) {
                throw InputError(m_file, other.line, other.column,
                                 "unknown key '" + qualified(other.key) + "'; did you mean '" +
                                     std::string(key) + "'? ('" + qualified(key) + "' is required: " + what +
                                     ")");
            }
        }
        // The object's opening brace is the best position for something that is not there.
        throw InputError(m_file, m_object.line(), m_object.column(),
                         "missing key '" + qualified(key) + "' (expected " + what + ")");
    }
    return *m;
}

void JsonObjectReader::failType(const JsonValue::Member& m, const char* expected,
                                std::string_view unit) const {
    std::string text = "'" + qualified(m.key) + "' must be " + expected;
    if (!unit.empty())
        text += " (" + std::string(unit) + ")";
    text += ", found " + std::string(JsonValue::typeName(m.value.type()));
    failAt(m.value, text);
}

namespace {

std::string rangeText(double min, double max, std::string_view unit) {
    std::string text = formatNumber(min) + " to " + formatNumber(max);
    if (!unit.empty())
        text += " " + std::string(unit);
    return text;
}

} // namespace

std::optional<double> JsonObjectReader::optionalNumber(std::string_view key, double min, double max,
                                                       std::string_view unit) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr)
        return std::nullopt;
    if (!m->value.isNumber())
        failType(*m, "a number", unit);
    const double v = m->value.toNumber();
    if (!(v >= min && v <= max)) {
        failAt(m->value, "'" + qualified(key) + "' = " + formatNumber(v) + (unit.empty() ? "" : " ") +
                             std::string(unit) + " is out of range; expected " + rangeText(min, max, unit));
    }
    return v;
}

double JsonObjectReader::number(std::string_view key, double min, double max, std::string_view unit) {
    const std::string what = "a number in " + rangeText(min, max, unit);
    required(key, what.c_str());
    return *optionalNumber(key, min, max, unit);
}

std::optional<int> JsonObjectReader::optionalInteger(std::string_view key, int min, int max,
                                                     std::string_view unit) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr)
        return std::nullopt;
    if (!m->value.isNumber())
        failType(*m, "an integer", unit);
    const double v = m->value.toNumber();
    if (v != std::floor(v)) {
        failAt(m->value, "'" + qualified(key) + "' must be an integer" +
                             (unit.empty() ? std::string() : " (" + std::string(unit) + ")") + ", found " +
                             formatNumber(v));
    }
    if (!(v >= min && v <= max)) {
        failAt(m->value, "'" + qualified(key) + "' = " + formatNumber(v) + (unit.empty() ? "" : " ") +
                             std::string(unit) + " is out of range; expected " + rangeText(min, max, unit));
    }
    return static_cast<int>(v);
}

int JsonObjectReader::integer(std::string_view key, int min, int max, std::string_view unit) {
    const std::string what = "an integer in " + rangeText(min, max, unit);
    required(key, what.c_str());
    return *optionalInteger(key, min, max, unit);
}

std::optional<std::string> JsonObjectReader::optionalString(std::string_view key) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr)
        return std::nullopt;
    if (!m->value.isString())
        failType(*m, "a string", {});
    if (m->value.toString().empty())
        failAt(m->value, "'" + qualified(key) + "' must not be empty");
    return m->value.toString();
}

std::string JsonObjectReader::string(std::string_view key) {
    required(key, "a string");
    return *optionalString(key);
}

std::optional<bool> JsonObjectReader::optionalBoolean(std::string_view key) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr)
        return std::nullopt;
    if (!m->value.isBool())
        failType(*m, "true or false", {});
    return m->value.toBool();
}

bool JsonObjectReader::boolean(std::string_view key) {
    required(key, "true or false");
    return *optionalBoolean(key);
}

const JsonValue* JsonObjectReader::optionalObject(std::string_view key) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr)
        return nullptr;
    if (!m->value.isObject())
        failType(*m, "an object {...}", {});
    return &m->value;
}

const JsonValue& JsonObjectReader::object(std::string_view key) {
    required(key, "an object {...}");
    return *optionalObject(key);
}

const JsonValue* JsonObjectReader::optionalArray(std::string_view key) {
    const JsonValue::Member* m = member(key);
    if (m == nullptr)
        return nullptr;
    if (!m->value.isArray())
        failType(*m, "an array [...]", {});
    return &m->value;
}

const JsonValue& JsonObjectReader::array(std::string_view key) {
    required(key, "an array [...]");
    return *optionalArray(key);
}

const JsonValue* JsonObjectReader::optionalValue(std::string_view key) {
    const JsonValue::Member* m = member(key);
    return m == nullptr ? nullptr : &m->value;
}

const JsonValue& JsonObjectReader::value(std::string_view key) {
    return required(key, "a value").value;
}

int JsonObjectReader::optionalSchema() {
    const JsonValue::Member* m = member("schema");
    if (m == nullptr)
        return 0;
    if (!m->value.isNumber() || m->value.toNumber() != std::floor(m->value.toNumber()))
        failAt(m->value, "'schema' must be an integer (the file format version, " +
                             std::to_string(kConfigSchemaVersion) + " for this version of Carbon3D)");
    const double v = m->value.toNumber();
    if (v > kConfigSchemaVersion) {
        failAt(m->value, "schema " + formatNumber(v) +
                             " was written by a newer Carbon3D; this version reads schema " +
                             std::to_string(kConfigSchemaVersion) + " and older");
    }
    if (v < 1)
        failAt(m->value,
               "'schema' = " + formatNumber(v) + " is not a valid file format version (expected 1)");
    return static_cast<int>(v);
}

int JsonObjectReader::schema() {
    if (!has("schema")) {
        throw InputError(m_file, m_object.line(), m_object.column(),
                         "missing key 'schema' (every Carbon3D file starts with \"schema\": " +
                             std::to_string(kConfigSchemaVersion) + ")");
    }
    return optionalSchema();
}

void JsonObjectReader::finish() const {
    for (const JsonValue::Member& m : m_object.members()) {
        if (std::find(m_known.begin(), m_known.end(), m.key) != m_known.end())
            continue;
        std::string text = "unknown key " + quotedExcerpt(qualified(m.key), kLongestSuggestedKey);
        // Suggest the closest expected key when it is a plausible typo (a third of the letters or fewer).
        std::string best;
        int bestDistance = std::numeric_limits<int>::max();
        for (const std::string& known : m.key.size() <= kLongestSuggestedKey ? m_known : kNoKeys) {
            const int d = editDistance(m.key, known);
            if (d < bestDistance) {
                bestDistance = d;
                best = known;
            }
        }
        if (!best.empty() && bestDistance <= std::max<int>(2, static_cast<int>(best.size()) / 3))
            text += "; did you mean '" + best + "'?";
        text += text.back() == '?' ? " Expected one of: " : "; expected one of: ";
        std::vector<std::string> sorted = m_known;
        std::sort(sorted.begin(), sorted.end());
        text += joinedText(sorted);
        throw InputError(m_file, m.line, m.column, text);
    }
}

} // namespace carbon3d
