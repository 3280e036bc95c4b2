// SPDX-License-Identifier: MIT
#include "perf/ModelMath.h"

#include <algorithm>

namespace carbon3d {

namespace {

double kvHidden(const ModelSpec& m) {
    // GQA: K and V have g heads of h/a each (g = a for classic multi-head attention), or of head_dim.
    const int g = m.kvHeads > 0 ? m.kvHeads : m.heads;
    return m.headDim > 0 ? static_cast<double>(g) * m.headDim : static_cast<double>(m.hidden) * g / m.heads;
}

// All query heads together: h, unless the head size is set apart.
double queryHidden(const ModelSpec& m) {
    return m.headDim > 0 ? static_cast<double>(m.heads) * m.headDim : m.hidden;
}

double ffn(const ModelSpec& m) {
    return m.ffnHidden > 0 ? m.ffnHidden : 4.0 * m.hidden;
}

// The attention's matrix weights (what its GEMMs multiply by).
double attentionWeights(const ModelSpec& m) {
    const double h = m.hidden;
    if (m.latentAttention()) {
        const double heads = m.heads;
        const double qkHead = static_cast<double>(m.qkNopeHeadDim) + m.qkRopeHeadDim;
        const double query = m.qLoraRank > 0
                                 ? h * m.qLoraRank + static_cast<double>(m.qLoraRank) * heads * qkHead
                                 : h * heads * qkHead;
        const double keyValue = h * (static_cast<double>(m.kvLoraRank) + m.qkRopeHeadDim) +
                                static_cast<double>(m.kvLoraRank) * heads * (m.qkNopeHeadDim + m.vHeadDim);
        return query + keyValue + heads * m.vHeadDim * h; // ... and the output projection
    }
    return h * (queryHidden(m) + 2.0 * kvHidden(m)) + queryHidden(m) * h; // QKV + output projection
}

// Everything else of the attention: the latent projections' RMSNorms, or GPT's QKV and projection biases.
double attentionExtras(const ModelSpec& m) {
    if (m.latentAttention())
        return static_cast<double>(m.qLoraRank) + m.kvLoraRank;
    return m.gatedMlp ? 0.0 : queryHidden(m) + 2.0 * kvHidden(m) + m.hidden;
}

// One MLP (dense, or one expert) of hidden size f: its matrices, and for GPT its two biases.
double mlpWeights(const ModelSpec& m, double f) {
    return (m.gatedMlp ? 3.0 : 2.0) * m.hidden * f;
}
double mlpBiases(const ModelSpec& m, double f) {
    return m.gatedMlp ? 0.0 : f + m.hidden;
}

// A layer's two norms: RMSNorm scales (gated models) or LayerNorm scale and shift (GPT).
double layerNorms(const ModelSpec& m) {
    return (m.gatedMlp ? 2.0 : 4.0) * m.hidden;
}

// Parameters of an MoE layer's MLP when `experts` of its routed experts count: the shared experts and
// the router (h x E) always do.
double moeMlpParameters(const ModelSpec& m, int experts) {
    return (static_cast<double>(experts) + m.sharedExperts) * expertParameters(m) +
           static_cast<double>(m.hidden) * m.experts;
}

double layerStructure(const ModelSpec& m) {
    return attentionWeights(m) + attentionExtras(m) + layerNorms(m);
}

} // namespace

AttentionWidths attentionWidths(const ModelSpec& m) {
    AttentionWidths w;
    const double h = m.hidden;
    if (m.latentAttention()) {
        w.queryKey = static_cast<double>(m.heads) * (m.qkNopeHeadDim + m.qkRopeHeadDim);
        w.key = w.queryKey;
        w.value = static_cast<double>(m.heads) * m.vHeadDim;
        w.projectionIn = w.value;
        w.latent = static_cast<double>(m.qLoraRank) + m.kvLoraRank + m.qkRopeHeadDim;
    } else {
        w.queryKey = queryHidden(m);
        w.key = kvHidden(m);
        w.value = kvHidden(m);
        w.projectionIn = queryHidden(m);
    }
    w.projectionWeights = w.projectionIn * h;
    w.inputWeights = attentionWeights(m) - w.projectionWeights;
    return w;
}

double expertParameters(const ModelSpec& m) {
    return mlpWeights(m, m.expertFfnHidden) + mlpBiases(m, m.expertFfnHidden);
}

double routedExpertParameterCount(const ModelSpec& m) {
    return moeLayerCount(m) * (static_cast<double>(m.experts) * expertParameters(m));
}

bool isMoeLayer(const ModelSpec& m, int layer) {
    return m.mixtureOfExperts() && layer >= m.firstDenseLayers &&
           (layer - m.firstDenseLayers + 1) % m.moeLayerInterval == 0;
}

int moeLayerCount(const ModelSpec& m) {
    return m.mixtureOfExperts() ? std::max(0, m.layers - m.firstDenseLayers) / m.moeLayerInterval : 0;
}

double layerParameters(const ModelSpec& m) {
    return layerStructure(m) + mlpWeights(m, ffn(m)) + mlpBiases(m, ffn(m));
}

double moeLayerParameters(const ModelSpec& m) {
    return layerStructure(m) + moeMlpParameters(m, m.experts);
}

double activeMoeLayerParameters(const ModelSpec& m) {
    return layerStructure(m) + moeMlpParameters(m, m.expertsPerToken);
}

double embeddingParameters(const ModelSpec& m) {
    const double h = m.hidden;
    if (m.gatedMlp)
        return 2.0 * m.vocab * h; // untied input and output embeddings, rotary positions
    return (static_cast<double>(m.vocab) + m.seqLen) * h;
}

double parameterCount(const ModelSpec& m) {
    const int moe = moeLayerCount(m);
    return (m.layers - moe) * layerParameters(m) + moe * moeLayerParameters(m) + embeddingParameters(m);
}

double activeParameterCount(const ModelSpec& m) {
    const int moe = moeLayerCount(m);
    return (m.layers - moe) * layerParameters(m) + moe * activeMoeLayerParameters(m) + embeddingParameters(m);
}

double sc21ParameterCount(const ModelSpec& m) {
    const double l = m.layers;
    const double h = m.hidden;
    return 12.0 * l * h * h *
           (1.0 + 13.0 / (12.0 * h) + (m.vocab + static_cast<double>(m.seqLen)) / (12.0 * l * h));
}

ForwardFlops forwardFlopsPerSequence(const ModelSpec& m) {
    const double s = m.seqLen;
    const double h = m.hidden;
    ForwardFlops flops;
    // 2 FLOPs per multiply-add of every weight a token meets: QKV 2h(h + 2 h_kv), projection 2h^2, MLP
    // 2hf per matrix; in an MoE layer its k routed and the shared experts and the router (2hE).
    const double dense = attentionWeights(m) + mlpWeights(m, ffn(m));
    const double moe =
        attentionWeights(m) +
        (static_cast<double>(m.expertsPerToken) + m.sharedExperts) * mlpWeights(m, m.expertFfnHidden) +
        h * m.experts;
    const int moeLayers = moeLayerCount(m);
    flops.linearPerLayer = moeLayers == 0
                               ? 2.0 * s * dense
                               : 2.0 * s * ((m.layers - moeLayers) * dense + moeLayers * moe) / m.layers;
    // Q K^T and softmax(.) V: 2 s^2 per query dimension and per value dimension (2 s^2 h each for
    // hidden/heads-sized heads).
    const double queryKey = m.latentAttention()
                                ? static_cast<double>(m.heads) * (m.qkNopeHeadDim + m.qkRopeHeadDim)
                                : queryHidden(m);
    const double value = m.latentAttention() ? static_cast<double>(m.heads) * m.vHeadDim : queryHidden(m);
    flops.attentionPerLayer = 2.0 * s * s * (queryKey + value);
    flops.logits = 2.0 * s * h * m.vocab;
    return flops;
}

double modelFlopsPerIteration(const ModelSpec& m, int globalBatch) {
    return 3.0 * globalBatch * forwardFlopsPerSequence(m).total(m.layers);
}

double sc21FlopsPerIteration(const ModelSpec& m, int globalBatch) {
    const double l = m.layers;
    const double h = m.hidden;
    const double s = m.seqLen;
    return 96.0 * globalBatch * s * l * h * h * (1.0 + s / (6.0 * h) + m.vocab / (16.0 * l * h));
}

ModelSpec gptModel(int layers, int hidden, int heads, int seqLen, int vocab) {
    ModelSpec m;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = heads;
    m.ffnHidden = 4 * hidden;
    m.seqLen = seqLen;
    m.vocab = vocab;
    return m;
}

} // namespace carbon3d
