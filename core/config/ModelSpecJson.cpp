// SPDX-License-Identifier: MIT
#include "config/ModelSpecJson.h"

#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "domain/ModelShape.h"

#include <algorithm>

namespace carbon3d {

namespace {

// One integer field of the shape. The reader checks that it is present (when required) and a whole number;
// the range is the shared shape rule, checked on the number as written so 1e12 is reported as itself rather
// than as whatever it would become as an int.
std::optional<int> readShapeField(JsonObjectReader& reader, const ModelShapeField& field, bool required) {
    const std::string_view key = field.key;
    if (required && !reader.has(key))
        reader.integer(key, field.min, field.max, field.unit); // throws the missing-key error with the range
    const JsonValue* value = reader.optionalValue(key);
    if (value == nullptr)
        return std::nullopt;
    if (value->isNumber()) {
        if (auto problem = checkModelShapeRange(field, value->toNumber(), reader.qualified("")))
            reader.failAt(*value, problem->message);
    }
    // In range (or not a number): only the type and whole-number checks are left for the reader.
    return reader.optionalInteger(key, field.min, field.max, field.unit);
}

std::optional<int> readShapeField(JsonObjectReader& reader, std::string_view key, bool required) {
    return readShapeField(reader, *findModelShapeField(key), required);
}

// One of the optional objects (attention, moe): each field of its table read into the model when given;
// `required` ones must be.
void readShapeObject(JsonObjectReader& parent, std::string_view object,
                     const std::vector<ModelShapeField>& fields,
                     const std::vector<std::string_view>& required, ModelSpec& model) {
    const JsonValue* json = parent.optionalObject(object);
    if (json == nullptr)
        return;
    JsonObjectReader reader(*json, parent.file(), parent.qualified(object));
    for (const ModelShapeField& field : fields) {
        const bool needed = std::find(required.begin(), required.end(), field.key) != required.end();
        if (std::optional<int> value = readShapeField(reader, field, needed))
            model.*field.member = *value;
    }
    if (object == kMoeObject)
        model.capacityFactor =
            reader.optionalNumber(kCapacityFactorKey, 0.0, kMaxCapacityFactor, "").value_or(0.0);
    reader.finish();
}

// The first broken shape rule, at the offending key's value (at the object when it took its default);
// "moe.experts_per_token" is looked up inside its object.
void checkShape(JsonObjectReader& reader, const ModelSpec& model) {
    const std::vector<ModelShapeProblem> problems = checkModelShape(model, reader.qualified(""));
    if (problems.empty())
        return;
    const ModelShapeProblem& first = problems.front();
    const std::size_t dot = first.field.find('.');
    if (dot != std::string::npos) {
        const std::string object = first.field.substr(0, dot);
        if (const JsonValue* json = reader.optionalObject(object)) {
            const JsonValue* value = json->find(first.field.substr(dot + 1));
            reader.failAt(value != nullptr ? *value : *json, first.message);
        }
        reader.failAtKey(object, first.message);
    }
    if (const JsonValue* value = reader.optionalValue(first.field))
        reader.failAt(*value, first.message);
    reader.failAtKey(first.field, first.message);
}

} // namespace

ModelSpec readModelSpec(JsonObjectReader& reader) {
    ModelSpec model;
    model.id = reader.optionalString("id").value_or(std::string());
    model.name = reader.optionalString("name").value_or(model.id);
    model.layers = *readShapeField(reader, "layers", true);
    model.hidden = *readShapeField(reader, "hidden", true);
    model.heads = *readShapeField(reader, "heads", true);
    model.kvHeads = readShapeField(reader, "kv_heads", false).value_or(model.heads);
    model.ffnHidden = readShapeField(reader, "ffn_hidden", false).value_or(4 * model.hidden);
    model.gatedMlp = reader.optionalBoolean("gated_mlp").value_or(false);
    model.dropout = reader.optionalBoolean("dropout").value_or(true);
    model.vocab = *readShapeField(reader, "vocab", true);
    model.seqLen = *readShapeField(reader, "seq_len", true);
    readShapeObject(reader, kAttentionObject, attentionShapeFields(), {}, model);
    readShapeObject(reader, kMoeObject, moeShapeFields(),
                    {"experts", "experts_per_token", "expert_ffn_hidden"}, model);
    model.source = reader.optionalString("source").value_or(std::string());
    checkShape(reader, model);
    return model;
}

ModelSpec parseModelSpec(const JsonValue& json, const std::string& file) {
    JsonObjectReader reader(json, file);
    reader.schema();
    ModelSpec model = readModelSpec(reader);
    reader.finish();
    return model;
}

ModelSpec loadModelSpec(const std::string& path) {
    return parseModelSpec(readJsonFile(path), path);
}

JsonValue toJson(const ModelSpec& model) {
    JsonValue json = JsonValue::makeObject();
    json.insert("schema", JsonValue::makeNumber(kConfigSchemaVersion));
    if (!model.id.empty())
        json.insert("id", JsonValue::makeString(model.id));
    if (!model.name.empty())
        json.insert("name", JsonValue::makeString(model.name));
    json.insert("layers", JsonValue::makeNumber(model.layers));
    json.insert("hidden", JsonValue::makeNumber(model.hidden));
    json.insert("heads", JsonValue::makeNumber(model.heads));
    json.insert("kv_heads", JsonValue::makeNumber(model.kvHeads));
    json.insert("ffn_hidden", JsonValue::makeNumber(model.ffnHidden));
    json.insert("gated_mlp", JsonValue::makeBool(model.gatedMlp));
    json.insert("dropout", JsonValue::makeBool(model.dropout));
    json.insert("vocab", JsonValue::makeNumber(model.vocab));
    json.insert("seq_len", JsonValue::makeNumber(model.seqLen));
    JsonValue attention = JsonValue::makeObject();
    for (const ModelShapeField& field : attentionShapeFields())
        if (model.*field.member != 0)
            attention.insert(std::string(field.key), JsonValue::makeNumber(model.*field.member));
    if (!attention.members().empty())
        json.insert(std::string(kAttentionObject), std::move(attention));
    if (model.mixtureOfExperts()) {
        JsonValue moe = JsonValue::makeObject();
        for (const ModelShapeField& field : moeShapeFields())
            moe.insert(std::string(field.key), JsonValue::makeNumber(model.*field.member));
        moe.insert(std::string(kCapacityFactorKey), JsonValue::makeNumber(model.capacityFactor));
        json.insert(std::string(kMoeObject), std::move(moe));
    }
    if (!model.source.empty())
        json.insert("source", JsonValue::makeString(model.source));
    return json;
}

} // namespace carbon3d
