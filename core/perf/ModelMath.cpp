// SPDX-License-Identifier: MIT
#include "perf/ModelMath.h"

namespace carbon3d {

namespace {

double kvHidden(const ModelSpec& m) {
    // GQA: K and V have g heads of h/a each (g = a for classic multi-head attention).
    const int g = m.kvHeads > 0 ? m.kvHeads : m.heads;
    return static_cast<double>(m.hidden) * g / m.heads;
}

double ffn(const ModelSpec& m) {
    return m.ffnHidden > 0 ? m.ffnHidden : 4.0 * m.hidden;
}

} // namespace

double layerParameters(const ModelSpec& m) {
    const double h = m.hidden;
    const double f = ffn(m);
    const double attention = h * (h + 2.0 * kvHidden(m)) + h * h; // QKV + output projection
    const double mlp = (m.gatedMlp ? 3.0 : 2.0) * h * f;
    if (m.gatedMlp)
        return attention + mlp + 2.0 * h; // two RMSNorm scales, no biases
    // Biases of QKV, projection, both MLP matrices, plus two layer norms (scale + shift): 13h for f = 4h.
    const double biasesAndNorms = (h + 2.0 * kvHidden(m)) + h + f + h + 4.0 * h;
    return attention + mlp + biasesAndNorms;
}

double embeddingParameters(const ModelSpec& m) {
    const double h = m.hidden;
    if (m.gatedMlp)
        return 2.0 * m.vocab * h; // untied input and output embeddings, rotary positions
    return (static_cast<double>(m.vocab) + m.seqLen) * h;
}

double parameterCount(const ModelSpec& m) {
    return m.layers * layerParameters(m) + embeddingParameters(m);
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
    // 2 FLOPs per multiply-add; per token: QKV 2h(h + 2 h_kv), projection 2h^2, MLP 2hf per matrix.
    flops.linearPerLayer =
        s * (2.0 * h * (h + 2.0 * kvHidden(m)) + 2.0 * h * h + (m.gatedMlp ? 3.0 : 2.0) * 2.0 * h * ffn(m));
    flops.attentionPerLayer = 4.0 * s * s * h; // Q K^T and softmax(.) V: 2 s^2 h each
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
