// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d {

// The shape of a decoder-only transformer (GPT or Llama style). Counts only; formulas that use
// them (parameters, FLOPs, memory) live in core/perf.
struct ModelSpec {
    std::string id;        // preset id, e.g. "gpt3-175b"; empty for a custom shape
    std::string name;      // human-readable, e.g. "GPT-3 175B"
    int layers = 0;        // transformer layers l
    int hidden = 0;        // hidden size h
    int heads = 0;         // attention heads a
    int kvHeads = 0;       // key/value heads g (GQA); equals heads for classic multi-head attention
    int ffnHidden = 0;     // MLP hidden size f (4h for GPT)
    bool gatedMlp = false; // SwiGLU-style gated MLP with three matrices (Llama)
    // Trained with dropout (GPT, Megatron's defaults): its masks are stored activations. Llama-style models
    // train without (docs/MODEL.md#activations).
    bool dropout = true;
    int vocab = 0;      // vocabulary size V
    int seqLen = 0;     // training sequence length s, tokens
    std::string source; // where the shape comes from (paper, model card)
};

} // namespace carbon3d
