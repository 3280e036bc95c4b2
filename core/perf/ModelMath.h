// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ModelSpec.h"

namespace carbon3d {

// Counting formulas for a decoder-only transformer (docs/MODEL.md section 2). GPT: learned position
// embeddings, output layer tied to the input embedding, biases and two layer norms per layer (SC21 Eq. 2).
// Gated-MLP models (Llama): rotary positions (no position table), untied output layer, no biases, two
// RMSNorm vectors per layer.

// Weights of one transformer layer (attention + MLP + norms + biases).
// A GPT-2/3-shaped model (multi-head attention, a 4h MLP, no gating): the shape of the Megatron and vTrain
// validation runs.
ModelSpec gptModel(int layers, int hidden, int heads, int seqLen, int vocab);

// Weights of a dense layer (attention, an MLP of ffn_hidden, norms and, for GPT, biases).
double layerParameters(const ModelSpec& model);
// A mixture of experts (docs/MODEL.md section 2): which layers are MoE (the first first_dense_layers are
// dense, then every layer_interval-th), how many, and the weights of one: every routed expert, the shared
// ones and the router; "active", those one token meets (experts_per_token routed ones).
bool isMoeLayer(const ModelSpec& model, int layer);
int moeLayerCount(const ModelSpec& model);
double moeLayerParameters(const ModelSpec& model);
double activeMoeLayerParameters(const ModelSpec& model);
// The widths one layer's attention works with, per token (all heads together), for the performance model's
// GEMM shapes and stored activations (docs/MODEL.md section 2): h, h, h, h and the KV heads' share for
// hidden/heads-sized heads.
struct AttentionWidths {
    double queryKey = 0.0;     // what a query and a key are scored over (MLA: heads x (nope + rope))
    double key = 0.0;          // the keys stored for the backward pass (GQA: kv_heads x head size)
    double value = 0.0;        // the values (GQA: kv_heads x head size; MLA: heads x v_head_dim)
    double projectionIn = 0.0; // the output projection's input (heads x value head size)
    double latent = 0.0; // MLA's compressed query and key/value latents (and shared rotary keys); 0 else
    double inputWeights = 0.0;      // the weights that make Q, K and V (MLA: down- and up-projections)
    double projectionWeights = 0.0; // the output projection's
};
AttentionWidths attentionWidths(const ModelSpec& model);
// One routed (or shared) expert's parameters: its MLP's matrices (and, for GPT, biases).
double expertParameters(const ModelSpec& model);
// Every routed expert of every MoE layer: the parameters expert parallelism splits (0 for a dense model).
double routedExpertParameterCount(const ModelSpec& model);
// Input embedding (+ position table for GPT) and, for untied models, the output layer.
double embeddingParameters(const ModelSpec& model);
// Total parameter count N (every expert).
double parameterCount(const ModelSpec& model);
// The parameters one token's forward pass uses: N for a dense model; for a mixture of experts, its
// experts_per_token routed experts (and the shared ones and the router) in each MoE layer.
double activeParameterCount(const ModelSpec& model);
// SC21 Eq. 2 exactly: 12 l h^2 (1 + 13/(12h) + (V+s)/(12 l h)); equals parameterCount() for GPT shapes.
double sc21ParameterCount(const ModelSpec& model);

// Matrix-multiplication FLOPs of one forward pass over one sequence of model.seqLen tokens.
struct ForwardFlops {
    // QKV, output projection and MLP GEMMs of one layer (for a mixture of experts, the mean over its dense
    // and MoE layers, each counting the experts a token goes to and the router)
    double linearPerLayer = 0.0;
    double attentionPerLayer = 0.0; // the two s x s batched GEMMs (scores and weighted values) of one layer
    double logits = 0.0;            // output layer (2 s h V)
    double total(int layers) const { return layers * (linearPerLayer + attentionPerLayer) + logits; }
};
ForwardFlops forwardFlopsPerSequence(const ModelSpec& model);

// FLOPs of one training iteration of globalBatch sequences. Model FLOPs count forward + backward (3x forward,
// the MFU convention); hardware FLOPs add what recomputation repeats (SC21 Table 1 convention with full
// recomputation: 4x the layers' forward).
double modelFlopsPerIteration(const ModelSpec& model, int globalBatch);
// SC21 Eq. 3 exactly: 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) (full recomputation).
double sc21FlopsPerIteration(const ModelSpec& model, int globalBatch);

} // namespace carbon3d
