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
    int vocab = 0;  // vocabulary size V
    int seqLen = 0; // training sequence length s, tokens

    // Attention other than hidden/heads dimensions per head (docs/MODEL.md section 2, "Mixture of experts
    // and latent attention"). Each 0 when not used; model files give them in an "attention" object.
    int headDim = 0; // per-head size set apart from hidden/heads (Qwen3: 128 with hidden 4096 and 64 heads)
    // Multi-head latent attention (DeepSeek-V2/V3) when kvLoraRank > 0: keys and values are rebuilt from a
    // kvLoraRank-wide latent (plus qkRopeHeadDim shared rotary dimensions), queries from a qLoraRank-wide
    // one (0: a full-rank query projection); each head scores with qkNope + qkRope dimensions and returns
    // vHeadDim.
    int qLoraRank = 0;
    int kvLoraRank = 0;
    int qkNopeHeadDim = 0;
    int qkRopeHeadDim = 0;
    int vHeadDim = 0;

    // Mixture of experts when experts > 0 (same section; a "moe" object in model files): in an MoE layer
    // the MLP is `experts` routed experts of expertFfnHidden each, of which a router sends every token to
    // expertsPerToken, plus sharedExperts every token passes through.
    int experts = 0;
    int expertsPerToken = 0;
    int sharedExperts = 0;
    int expertFfnHidden = 0;
    int firstDenseLayers = 0;    // the first layers keep a dense MLP of ffnHidden (DeepSeek-V3: 3)
    int moeLayerInterval = 1;    // after them every n-th layer is MoE (1: all; 2: every other)
    double capacityFactor = 0.0; // tokens an expert takes, in multiples of its even share; 0: dropless

    std::string source; // where the shape comes from (paper, model card)

    bool mixtureOfExperts() const { return experts > 0; }
    bool latentAttention() const { return kvLoraRank > 0; }
};

} // namespace carbon3d
