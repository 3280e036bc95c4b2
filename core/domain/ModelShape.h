// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ModelSpec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d {

// The rules a transformer shape must keep, written once: the model-file loader, the studio's shape form and
// the estimate/search shape flags all ask checkModelShape(), so a shape is refused with the same words
// wherever it is entered.

// One integer field of ModelSpec as the rules see it: its key in model files ("kv_heads"), the unit that
// messages give its values in, and the range a plausible model lies in.
struct ModelShapeField {
    std::string_view key;
    int ModelSpec::*member = nullptr;
    int min = 1;
    int max = 1;
    std::string_view unit;
    std::string_view label; // what a form calls it, e.g. "KV heads"
};

// layers, hidden, heads, kv_heads, ffn_hidden, vocab, seq_len: the order checkModelShape reports them in.
const std::vector<ModelShapeField>& modelShapeFields();
// The field with this key; nullptr when none.
const ModelShapeField* findModelShapeField(std::string_view key);

// The fields of a model file's optional objects, keyed inside them: "attention" (head_dim and the latent
// attention ranks; 0, their default, where not used) and "moe" (mixture of experts; experts,
// experts_per_token and expert_ffn_hidden required in it). A problem names them "attention.head_dim".
inline constexpr std::string_view kAttentionObject = "attention";
inline constexpr std::string_view kMoeObject = "moe";
const std::vector<ModelShapeField>& attentionShapeFields();
const std::vector<ModelShapeField>& moeShapeFields();
// The moe object's one fractional field: 0 (dropless routing) or kMinCapacityFactor to kMaxCapacityFactor.
inline constexpr std::string_view kCapacityFactorKey = "capacity_factor";
inline constexpr double kMinCapacityFactor = 1.0;
inline constexpr double kMaxCapacityFactor = 16.0;
// The field with this key in one of the tables above; nullptr when none.
const ModelShapeField* findShapeField(const std::vector<ModelShapeField>& fields, std::string_view key);

// A rule the shape breaks, attributed to one field: a form marks that field, a loader points at its value.
struct ModelShapeProblem {
    std::string field;   // the key of the offending field ("heads" when hidden is not divisible by heads)
    std::string message; // what is wrong and what was expected, naming fields by their keys
};

// `keyPrefix` qualifies the keys messages name ("job.model." gives 'job.model.hidden'); `field` stays bare.

// The range rule alone, for a value that may not fit in an int (a loader checks the number as written
// before converting it, so 1e12 is reported as itself).
std::optional<ModelShapeProblem> checkModelShapeRange(const ModelShapeField& field, double value,
                                                      std::string_view keyPrefix = {});
// Every rule `model` breaks: the fields' ranges in field order, then hidden divisible by heads (unless the
// head size is set apart), then heads a multiple of kv_heads, then the attention object's and (for a
// mixture of experts) the moe object's fields and rules. Empty when the shape can be built.
std::vector<ModelShapeProblem> checkModelShape(const ModelSpec& model, std::string_view keyPrefix = {});

} // namespace carbon3d
