// SPDX-License-Identifier: MIT
#include "config/ModelSpecJson.h"

#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"

namespace carbon3d {

namespace {

// Bounds are far beyond any published model (Llama 3 405B: 126 layers, hidden 16384) but catch
// unit slips and typos such as an extra digit or a negative number.
constexpr int kMaxLayers = 4096;
constexpr int kMaxHidden = 1 << 20;
constexpr int kMaxHeads = 8192;
constexpr int kMaxFfn = 1 << 23;
constexpr int kMaxVocab = 16 * 1000 * 1000;
constexpr int kMaxSeqLen = 64 * 1024 * 1024;

} // namespace

ModelSpec readModelSpec(JsonObjectReader& reader) {
    ModelSpec model;
    model.id = reader.optionalString("id").value_or(std::string());
    model.name = reader.optionalString("name").value_or(model.id);
    model.layers = reader.integer("layers", 1, kMaxLayers, "layers");
    model.hidden = reader.integer("hidden", 1, kMaxHidden, "elements");
    model.heads = reader.integer("heads", 1, kMaxHeads, "attention heads");
    model.kvHeads = reader.optionalInteger("kv_heads", 1, kMaxHeads, "key/value heads").value_or(model.heads);
    model.ffnHidden = reader.optionalInteger("ffn_hidden", 1, kMaxFfn, "elements").value_or(4 * model.hidden);
    model.gatedMlp = reader.optionalBoolean("gated_mlp").value_or(false);
    model.vocab = reader.integer("vocab", 1, kMaxVocab, "tokens");
    model.seqLen = reader.integer("seq_len", 1, kMaxSeqLen, "tokens");
    model.source = reader.optionalString("source").value_or(std::string());

    // Each attention head gets hidden/heads dimensions and each key/value head serves
    // heads/kv_heads query heads: a remainder means the shape cannot be built.
    if (model.hidden % model.heads != 0) {
        reader.failAt(*reader.optionalValue("heads"),
                      "'" + reader.qualified("hidden") + "' = " + std::to_string(model.hidden) +
                          " is not divisible by '" + reader.qualified("heads") + "' = " +
                          std::to_string(model.heads) + " (each head needs hidden/heads dimensions)");
    }
    if (model.kvHeads > model.heads || model.heads % model.kvHeads != 0) {
        reader.failAt(*reader.optionalValue("kv_heads"),
                      "'" + reader.qualified("heads") + "' = " + std::to_string(model.heads) +
                          " is not a multiple of '" + reader.qualified("kv_heads") +
                          "' = " + std::to_string(model.kvHeads) +
                          " (grouped-query attention shares each key/value head "
                          "among heads/kv_heads query heads)");
    }
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
    json.insert("vocab", JsonValue::makeNumber(model.vocab));
    json.insert("seq_len", JsonValue::makeNumber(model.seqLen));
    if (!model.source.empty())
        json.insert("source", JsonValue::makeString(model.source));
    return json;
}

} // namespace carbon3d
