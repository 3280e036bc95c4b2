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

// Each attention head gets hidden/heads dimensions: a remainder means the shape cannot be built.
std::optional<ModelShapeProblem> headsDivideHidden(const ModelSpec& m, std::string_view keyPrefix) {
    if (m.heads <= 0 || m.hidden % m.heads == 0)
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

} // namespace

const std::vector<ModelShapeField>& modelShapeFields() {
    // Bounds are far beyond any published model (Llama 3 405B: 126 layers, hidden 16384) but catch unit
    // slips and typos such as an extra digit or a negative number.
    static const std::vector<ModelShapeField> fields{
        {"layers", &ModelSpec::layers, 1, 4096, "layers"},
        {"hidden", &ModelSpec::hidden, 1, 1 << 20, "elements"},
        {"heads", &ModelSpec::heads, 1, 8192, "attention heads"},
        {"kv_heads", &ModelSpec::kvHeads, 1, 8192, "key/value heads"},
        {"ffn_hidden", &ModelSpec::ffnHidden, 1, 1 << 23, "elements"},
        {"vocab", &ModelSpec::vocab, 1, 16 * 1000 * 1000, "tokens"},
        {"seq_len", &ModelSpec::seqLen, 1, 64 * 1024 * 1024, "tokens"},
    };
    return fields;
}

const ModelShapeField* findModelShapeField(std::string_view key) {
    for (const ModelShapeField& field : modelShapeFields()) {
        if (field.key == key)
            return &field;
    }
    return nullptr;
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
    return problems;
}

} // namespace carbon3d
