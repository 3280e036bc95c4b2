// SPDX-License-Identifier: MIT
#include "domain/ModelShape.h"

#include "domain/NumberText.h"

#include <cmath>

namespace carbon3d {

namespace {

// Whole numbers in full ("16000000", where shortestNumber would write "1.6e+07"), as the model loader's
// messages always wrote them; anything else (a fractional 4096.5 in a file) as its shortest text.
std::string number(double value) {
    return value == std::floor(value) && std::fabs(value) < 1e15 ? fixedNumber(value, 0)
                                                                 : shortestNumber(value);
}

std::string quoted(std::string_view keyPrefix, std::string_view key) {
    return "'" + std::string(keyPrefix) + std::string(key) + "'";
}

// "'hidden' = 1600", the way every message names a field and its value.
std::string fieldValue(std::string_view keyPrefix, std::string_view key, double value) {
    return quoted(keyPrefix, key) + " = " + number(value);
}

std::string withUnit(double value, std::string_view unit) {
    return number(value) + " " + std::string(unit);
}

// Each attention head gets hidden/heads dimensions unless its size is set apart: a remainder means the
// shape cannot be built.
std::optional<ModelShapeProblem> headsDivideHidden(const ModelSpec& m, std::string_view keyPrefix) {
    if (m.heads <= 0 || m.hidden % m.heads == 0 || m.headDim > 0 || m.latentAttention())
        return std::nullopt;
    return ModelShapeProblem{"heads", fieldValue(keyPrefix, "hidden", m.hidden) + " is not divisible by " +
                                          fieldValue(keyPrefix, "heads", m.heads) +
                                          " (each head needs hidden/heads dimensions)"};
}

// Each key/value head serves heads/kv_heads query heads: a remainder (or more key/value heads than heads)
// means the shape cannot be built.
std::optional<ModelShapeProblem> kvHeadsDivideHeads(const ModelSpec& m, std::string_view keyPrefix) {
    if (m.heads <= 0 || m.kvHeads <= 0 || m.heads % m.kvHeads == 0)
        return std::nullopt;
    return ModelShapeProblem{"kv_heads", fieldValue(keyPrefix, "heads", m.heads) + " is not a multiple of " +
                                             fieldValue(keyPrefix, "kv_heads", m.kvHeads) +
                                             " (grouped-query attention shares each key/value head "
                                             "among heads/kv_heads query heads)"};
}

// "attention." or "moe." after the caller's prefix: how problems name the objects' fields.
std::string objectPrefix(std::string_view keyPrefix, std::string_view object) {
    return std::string(keyPrefix) + std::string(object) + ".";
}

// A field's problem, named inside its object.
ModelShapeProblem objectProblem(std::string_view object, std::string_view key, std::string message) {
    return {std::string(object) + "." + std::string(key), std::move(message)};
}

// Latent attention needs its head dimensions and no separate head size; its ranks mean nothing without
// kv_lora_rank.
void checkAttention(const ModelSpec& m, std::string_view keyPrefix,
                    std::vector<ModelShapeProblem>& problems) {
    const std::string prefix = objectPrefix(keyPrefix, kAttentionObject);
    if (m.latentAttention()) {
        for (const ModelShapeField& field : attentionShapeFields())
            if (field.key != "head_dim" && field.key != "q_lora_rank" && m.*field.member == 0) {
                std::string message = "multi-head latent attention (" + quoted(prefix, "kv_lora_rank");
                message += ") needs " + quoted(prefix, field.key) + ", the per-head dimension it names";
                problems.push_back(objectProblem(kAttentionObject, field.key, std::move(message)));
            }
        if (m.headDim > 0)
            problems.push_back(
                objectProblem(kAttentionObject, "head_dim",
                              fieldValue(prefix, "head_dim", m.headDim) +
                                  " with latent attention: its head sizes are qk_nope_head_dim "
                                  "+ qk_rope_head_dim and v_head_dim"));
        return;
    }
    for (const ModelShapeField& field : attentionShapeFields())
        if (field.key != "head_dim" && m.*field.member != 0)
            problems.push_back(objectProblem(kAttentionObject, field.key,
                                             fieldValue(prefix, field.key, m.*field.member) + " needs '" +
                                                 prefix +
                                                 "kv_lora_rank' (it is a multi-head latent attention size)"));
}

// A mixture of experts routes each token to at most all its experts, keeps at least one MoE layer, and
// caps an expert at a capacity that can hold its even share.
void checkMoe(const ModelSpec& m, std::string_view keyPrefix, std::vector<ModelShapeProblem>& problems) {
    const std::string prefix = objectPrefix(keyPrefix, kMoeObject);
    for (const ModelShapeField& field : moeShapeFields())
        if (auto problem = checkModelShapeRange(field, m.*field.member, prefix))
            problems.push_back(objectProblem(kMoeObject, field.key, problem->message));
    if (m.expertsPerToken > m.experts)
        problems.push_back(objectProblem(kMoeObject, "experts_per_token",
                                         fieldValue(prefix, "experts_per_token", m.expertsPerToken) +
                                             " is more than " + fieldValue(prefix, "experts", m.experts)));
    if (m.firstDenseLayers + m.moeLayerInterval > m.layers)
        problems.push_back(
            objectProblem(kMoeObject, "first_dense_layers",
                          fieldValue(prefix, "first_dense_layers", m.firstDenseLayers) + " and " +
                              fieldValue(prefix, "layer_interval", m.moeLayerInterval) +
                              " leave no MoE layer among " + fieldValue(keyPrefix, "layers", m.layers)));
    if (m.capacityFactor != 0.0 &&
        (m.capacityFactor < kMinCapacityFactor || m.capacityFactor > kMaxCapacityFactor))
        problems.push_back(objectProblem(kMoeObject, kCapacityFactorKey,
                                         fieldValue(prefix, kCapacityFactorKey, m.capacityFactor) +
                                             " is out of range; expected 0 (dropless) or " +
                                             number(kMinCapacityFactor) + " to " +
                                             number(kMaxCapacityFactor)));
}

} // namespace

const std::vector<ModelShapeField>& attentionShapeFields() {
    static const std::vector<ModelShapeField> fields{
        {"head_dim", &ModelSpec::headDim, 0, 1 << 16, "elements", "Head size"},
        {"q_lora_rank", &ModelSpec::qLoraRank, 0, 1 << 20, "elements", "Query latent rank"},
        {"kv_lora_rank", &ModelSpec::kvLoraRank, 0, 1 << 20, "elements", "Key/value latent rank"},
        {"qk_nope_head_dim", &ModelSpec::qkNopeHeadDim, 0, 1 << 16, "elements", "Query/key size, not rotary"},
        {"qk_rope_head_dim", &ModelSpec::qkRopeHeadDim, 0, 1 << 16, "elements", "Query/key size, rotary"},
        {"v_head_dim", &ModelSpec::vHeadDim, 0, 1 << 16, "elements", "Value head size"},
    };
    return fields;
}

const std::vector<ModelShapeField>& moeShapeFields() {
    // DeepSeek-V3 routes among 256 experts; bounds catch typos, not designs.
    static const std::vector<ModelShapeField> fields{
        {"experts", &ModelSpec::experts, 1, 1 << 16, "experts", "Routed experts"},
        {"experts_per_token", &ModelSpec::expertsPerToken, 1, 1 << 16, "experts", "Experts per token"},
        {"shared_experts", &ModelSpec::sharedExperts, 0, 1 << 10, "experts", "Shared experts"},
        {"expert_ffn_hidden", &ModelSpec::expertFfnHidden, 1, 1 << 23, "elements", "Expert FFN size"},
        {"first_dense_layers", &ModelSpec::firstDenseLayers, 0, 4096, "layers", "First dense layers"},
        {"layer_interval", &ModelSpec::moeLayerInterval, 1, 4096, "layers", "MoE every n-th layer"},
    };
    return fields;
}

const ModelShapeField* findShapeField(const std::vector<ModelShapeField>& fields, std::string_view key) {
    for (const ModelShapeField& field : fields)
        if (field.key == key)
            return &field;
    return nullptr;
}

const std::vector<ModelShapeField>& modelShapeFields() {
    // Bounds are far beyond any published model (Llama 3 405B: 126 layers, hidden 16384) but catch unit
    // slips and typos such as an extra digit or a negative number.
    static const std::vector<ModelShapeField> fields{
        {"layers", &ModelSpec::layers, 1, 4096, "layers", "Layers"},
        {"hidden", &ModelSpec::hidden, 1, 1 << 20, "elements", "Hidden"},
        {"heads", &ModelSpec::heads, 1, 8192, "attention heads", "Heads"},
        {"kv_heads", &ModelSpec::kvHeads, 1, 8192, "key/value heads", "KV heads"},
        {"ffn_hidden", &ModelSpec::ffnHidden, 1, 1 << 23, "elements", "FFN size"},
        {"vocab", &ModelSpec::vocab, 1, 16 * 1000 * 1000, "tokens", "Vocabulary"},
        {"seq_len", &ModelSpec::seqLen, 1, 64 * 1024 * 1024, "tokens", "Sequence"},
    };
    return fields;
}

const ModelShapeField* findModelShapeField(std::string_view key) {
    return findShapeField(modelShapeFields(), key);
}

std::optional<ModelShapeProblem> checkModelShapeRange(const ModelShapeField& field, double value,
                                                      std::string_view keyPrefix) {
    if (value >= field.min && value <= field.max)
        return std::nullopt;
    return ModelShapeProblem{std::string(field.key), quoted(keyPrefix, field.key) + " = " +
                                                         withUnit(value, field.unit) +
                                                         " is out of range; expected " + number(field.min) +
                                                         " to " + withUnit(field.max, field.unit)};
}

std::vector<ModelShapeProblem> checkModelShape(const ModelSpec& model, std::string_view keyPrefix) {
    std::vector<ModelShapeProblem> problems;
    for (const ModelShapeField& field : modelShapeFields()) {
        if (auto problem = checkModelShapeRange(field, model.*field.member, keyPrefix))
            problems.push_back(std::move(*problem));
    }
    for (auto* rule : {headsDivideHidden, kvHeadsDivideHeads}) {
        if (auto problem = rule(model, keyPrefix))
            problems.push_back(std::move(*problem));
    }
    const std::string attention = objectPrefix(keyPrefix, kAttentionObject);
    for (const ModelShapeField& field : attentionShapeFields())
        if (auto problem = checkModelShapeRange(field, model.*field.member, attention))
            problems.push_back(objectProblem(kAttentionObject, field.key, problem->message));
    checkAttention(model, keyPrefix, problems);
    if (model.mixtureOfExperts())
        checkMoe(model, keyPrefix, problems);
    return problems;
}

} // namespace carbon3d
