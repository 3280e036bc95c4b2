// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "domain/ModelSpec.h"

#include <string>

namespace carbon3d {

class JsonObjectReader;

// Model shape files (sample_data/models/<id>.json):
//   {"schema": 1, "id": "llama2-70b", "name": "Llama 2 70B", "layers": 80, "hidden": 8192,
//    "heads": 64, "kv_heads": 8, "ffn_hidden": 28672, "gated_mlp": true, "vocab": 32000,
//    "seq_len": 4096, "source": "..."}
// kv_heads defaults to heads (multi-head attention), ffn_hidden to 4 * hidden, gated_mlp to false.
// Checked by checkModelShape (domain/ModelShape.h): ranges, hidden % heads == 0, heads % kv_heads == 0;
// the first broken rule is reported at the offending key's value.
ModelSpec loadModelSpec(const std::string& path);
ModelSpec parseModelSpec(const JsonValue& json, const std::string& file);
JsonValue toJson(const ModelSpec& model);

// The fields of a model spec from an open reader, without "schema" and without finish(): used for
// model objects embedded in a scenario.
ModelSpec readModelSpec(JsonObjectReader& reader);

} // namespace carbon3d
