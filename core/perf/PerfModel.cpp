// SPDX-License-Identifier: MIT
#include "perf/PerfModel.h"

#include "perf/ModelMath.h"
#include "perf/Stragglers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace carbon3d {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Megatron keeps fp32 "main" gradients (accumulate/all-reduce in fp32) and fp32 Adam master weights, m and v:
// 2 (bf16 weights) + 4 (fp32 grads) + 12 = 18 bytes per parameter. This is the count behind the Korthikanti
// model-state GiB in docs/MODEL.md section 3 (45.56 GiB = 2.72e9 parameters per GPU x 18 B for 22B at t = 8).
// A stack that keeps 16-bit gradients (TrainingJob::bf16Gradients) holds 2 instead.
constexpr double kGradientBytes = 4.0;
constexpr double kOptimizerBytes = 12.0;
// FSDP holds the whole weights of the layer in use and of the next, which it prefetches.
constexpr double kFsdpGatheredLayers = 2.0;
// Adam step traffic per parameter: read grad, master, m, v (16 B), write master, m, v (12 B), the bf16 copy
// (2 B), zero the grad (4 B) and read it for the norm (4 B): about 38 B; memory-bound.
constexpr double kOptimizerTrafficBytes = 38.0;
// Phase powers of the dynamic-parallelism prototype on 300 W (48 GB-class) cards, docs/MODEL.md 5.1:
// forward 280 W, backward 320 W, optimizer 250 W, communication 180 W, idle 70 W; scaled by TDP / 300 W.
constexpr double kPrototypeTdpW = 300.0;
constexpr double kForwardW = 280.0, kBackwardW = 320.0, kOptimizerW = 250.0, kCommW = 180.0, kIdleW = 70.0;
constexpr double kSecondsPerYear = 365.25 * 86400.0;
// FlashAttention on a causal (decoder) mask skips the key blocks above the diagonal: it executes about half
// of the 4 s h FLOPs per token the Megatron convention counts (Dao, FlashAttention-2, 2023, section 3.1).
constexpr double kCausalExecutedShare = 0.5;
// Its backward pass recomputes the scores and runs five matrix products against the forward's two
// (Dao 2023, algorithm 2): 2.5 x the forward's FLOPs, where a materialized attention's backward is 2 x.
constexpr double kFlashBackwardRatio = 2.5;
constexpr double kMaterializedBackwardRatio = 2.0;
// Korthikanti's per-layer activations every tensor-parallel rank keeps whole (two norm inputs 4, the QKV and
// MLP inputs 2 each, two dropout masks 2; split only by sequence parallelism) and the stored scores (softmax
// output 2, dropout mask 1 and output 2, per a s / h), both in s b h 16-bit values. A model trained without
// dropout stores no masks and no dropout output (ModelSpec::dropout).
constexpr double kSharedActivations = 10.0, kSharedActivationsWithoutDropout = 8.0;
constexpr double kScoreActivations = 5.0, kScoreActivationsWithoutDropout = 2.0;

} // namespace

const char* infeasibilityText(Infeasibility reason) {
    switch (reason) {
    case Infeasibility::None:
        return "";
    case Infeasibility::BadDegrees:
        return "parallel degrees must be >= 1, d*t*p must equal the GPU count, and a recomputed block "
               "needs full recomputation";
    case Infeasibility::BatchNotDivisible:
        return "global batch is not a multiple of data-parallel degree x micro-batch size";
    case Infeasibility::HeadsNotDivisible:
        return "tensor-parallel degree does not divide the attention heads, KV heads, hidden or FFN size";
    case Infeasibility::LayersNotDivisible:
        return "the layers do not split over the pipeline: p must not exceed the layers, and with "
               "interleaving (v > 1) p x v must divide them, or divide them + 2 with the first and last "
               "stage a layer short";
    case Infeasibility::InterleaveNeedsPipeline:
        return "interleaving needs p > 1 and a number of micro-batches that is a multiple of p";
    case Infeasibility::SequenceParallelNeedsTp:
        return "sequence parallelism needs tensor parallelism (t > 1)";
    case Infeasibility::OutOfMemory:
        return "does not fit in GPU memory";
    case Infeasibility::PrecisionUnsupported:
        return "the accelerator has no peak FLOP/s for this precision";
    case Infeasibility::TpCrossesNodes:
        return "tensor parallelism must stay inside a node: t must divide the GPUs per node (ask for "
               "cross-node tensor parallelism to price a group that straddles nodes at the network's "
               "bandwidth)";
    case Infeasibility::ContextParallelNeedsFlash:
        return "context parallelism (cp > 1) needs the FlashAttention kernel";
    case Infeasibility::SequenceNotDivisible:
        return "context parallelism needs the sequence length to be a multiple of 2 x cp";
    case Infeasibility::ExpertsNotDivisible:
        return "expert parallelism must divide the routed experts, ep x etp must divide the stage's GPUs "
               "(d x t x cp: Megatron-Core's expert-data-parallel groups), and etp the expert FFN size";
    case Infeasibility::ExpertLayout:
        return "expert parallelism needs a mixture of experts; a mixture of experts needs sequence "
               "parallelism when t > 1 (Megatron-Core) and is not modelled under FSDP";
    }
    return "?";
}

StageSplit splitLayers(int layers, int stages) {
    StageSplit split;
    const int base = layers / stages;
    const int extra = layers % stages;
    if (stages == 1)
        return {layers, 0, layers};
    const int middleStages = stages - 2;
    const int onMiddle = std::min(extra, middleStages);
    split.first = base + (extra - onMiddle); // at most one more, only when every middle stage has one
    split.middle = middleStages > 0 ? base + (onMiddle > 0 ? 1 : 0) : 0;
    split.last = base;
    return split;
}

bool interleaveFits(int layers, int stages, int interleave) {
    if (interleave <= 1)
        return stages <= layers;
    const int chunks = stages * interleave;
    if (layers % chunks == 0)
        return true;
    // Embedding and loss as a layer each: splitLayers then puts (l + 2)/p - 1 layers on the first and last
    // stage and (l + 2)/p on every middle one, which is that layout.
    const StageSplit split = splitLayers(layers, stages);
    return (layers + 2) % chunks == 0 && split.first == (layers + 2) / stages - 1 &&
           split.last == split.first;
}

void countMoeLayers(const PerfProblem& p, int stages, StageSplit& split) {
    if (p.moeLayersBefore.empty())
        return;
    auto moeIn = [&](int begin, int end) {
        return p.moeLayersBefore[static_cast<std::size_t>(end)] -
               p.moeLayersBefore[static_cast<std::size_t>(begin)];
    };
    split.firstMoe = moeIn(0, split.first);
    split.lastMoe = moeIn(p.layers - split.last, p.layers);
    split.middleMoe = 0;
    if (stages < 3)
        return;
    // Middle stages in order; the layers an uneven split leaves over go to the first of them.
    const int middleLayers = p.layers - split.first - split.last;
    const int base = middleLayers / (stages - 2);
    const int extra = middleLayers % (stages - 2);
    int begin = split.first;
    for (int stage = 1; stage <= stages - 2; ++stage) {
        const int layers = base + (stage <= extra ? 1 : 0);
        if (layers == split.middle)
            split.middleMoe = std::max(split.middleMoe, moeIn(begin, begin + layers));
        begin += layers;
    }
}

bool balancedSplit(int layers, int stages) {
    return stages >= 1 && stages <= layers && (layers % stages == 0 || (layers + 2) % stages == 0);
}

double ringAllReduceS(double bytes, int ranks, double bytesPerS, double latencyS) {
    if (ranks <= 1)
        return 0.0;
    return 2.0 * (ranks - 1) / ranks * bytes / bytesPerS + latencyS;
}

double gemmEfficiency(const PerfCalibration& c, double flops) {
    const double x = std::pow(flops * 1e-9 / c.gemmHalfSaturationGflop, c.gemmSaturationExponent);
    return c.gemmEfficiencyMax * x / (1.0 + x);
}

double collectiveLatencyS(const PerfCalibration& calibration, int nodes) {
    if (nodes <= 1)
        return calibration.collectiveLatencyS;
    return calibration.collectiveLatencyS + calibration.networkLatencyS +
           calibration.networkLatencyPerDoublingS * std::log2(static_cast<double>(nodes));
}

namespace {

// What the cluster and the job's numerics set: peak rates for the job's precision, the attention kernel,
// bytes per value, the calibration, bandwidths, power and embodied carbon.
void setHardware(PerfProblem& p, const TrainingJob& job, const ClusterProfile& cluster) {
    const auto peak = cluster.accelerator.peakFlops.find(job.precision);
    p.peakFlops = peak != cluster.accelerator.peakFlops.end() ? peak->second : 0.0;
    const auto bf16 = cluster.accelerator.peakFlops.find(Precision::BF16);
    p.sixteenBitPeakFlops = job.precision == Precision::FP8 && bf16 != cluster.accelerator.peakFlops.end()
                                ? bf16->second
                                : p.peakFlops;
    const AttentionKernel hardwareDefault =
        cluster.accelerator.flashAttention ? AttentionKernel::Flash : AttentionKernel::Materialized;
    p.flashAttention = job.attention.value_or(hardwareDefault) == AttentionKernel::Flash;
    // FP8 training (Transformer Engine) keeps BF16 activations between layers; its weights are FP8 when
    // the job holds them so (TrainingJob::fp8Weights), else a BF16 copy.
    p.activationBytes = job.precision == Precision::FP32 || job.precision == Precision::TF32 ? 4.0 : 2.0;
    p.weightBytes = job.precision == Precision::FP8 && job.fp8Weights ? 1.0 : p.activationBytes;
    p.gradientBytes = holdsBf16Gradients(job) ? 2.0 : kGradientBytes;
    p.dispatchBytes = job.precision == Precision::FP8 ? 1.0 : p.activationBytes;

    p.calibration = cluster.calibration;
    p.gpusPerNode = std::max(1, cluster.gpusPerNode);
    p.memoryBytes = cluster.accelerator.memoryBytes;
    p.hbmBytesPerS = cluster.accelerator.hbmBytesPerS;
    p.intraBytesPerS = cluster.intraNodeBytesPerS;
    p.interBytesPerS = cluster.interNodeBytesPerS;
    p.tdpW = cluster.accelerator.tdpW;
    p.idleW = cluster.accelerator.idleW > 0.0 ? cluster.accelerator.idleW : kIdleW / kPrototypeTdpW * p.tdpW;
    p.waitW = cluster.accelerator.waitW;
    p.nodeOverheadW = cluster.nodeOverheadW;
    p.pue = cluster.pue;
    p.embodiedGPerGpuSecond =
        cluster.serviceLifeYears > 0.0
            ? cluster.embodiedKgPerGpu * 1000.0 / (cluster.serviceLifeYears * kSecondsPerYear)
            : 0.0;
    p.powerLimits = PowerLimitModel(cluster);
}

} // namespace

namespace {

// An MLP of width f's stored intermediates in s b h units: 2 x 4h/h x 2 for GPT; gate, up and their product,
// 3 x 2 f/h, for a gated MLP (Korthikanti's count).
double mlpActivations(const ModelSpec& m, double f) {
    return (m.gatedMlp ? 6.0 : 4.0) * (f / m.hidden);
}

// A mixture of experts' MoE layers (docs/MODEL.md#expert-parallel): where they are, their parameters
// beside the routed experts, their GEMMs per token and their activations. `attentionCast` is the
// attention's FP8-quantized elements per token (0 outside FP8).
template <typename MlpCast>
void setExperts(PerfProblem& p, const ModelSpec& m, double attentionCast, const MlpCast& mlpCast) {
    if (!m.mixtureOfExperts())
        return;
    const double h = m.hidden;
    p.experts = m.experts;
    p.expertsPerToken = m.expertsPerToken;
    p.expertFfn = m.expertFfnHidden;
    p.moeLayersBefore.assign(static_cast<std::size_t>(m.layers) + 1, 0);
    for (int layer = 0; layer < m.layers; ++layer)
        p.moeLayersBefore[static_cast<std::size_t>(layer) + 1] =
            p.moeLayersBefore[static_cast<std::size_t>(layer)] + (isMoeLayer(m, layer) ? 1 : 0);
    p.routedExpertParams = expertParameters(m);
    p.moeLayerDenseParams = moeLayerParameters(m) - m.experts * p.routedExpertParams;
    const double shared = static_cast<double>(m.sharedExperts) * m.expertFfnHidden;
    p.sharedMlpFlopsPerMatrixPerToken = 2.0 * h * shared;
    p.routedFlopsPerMatrixPerToken = 2.0 * h * m.expertFfnHidden;
    p.routerFlopsPerToken = 2.0 * h * m.experts;
    p.moeLinearFlopsPerTokenLayer = p.qkvFlopsPerToken + p.projFlopsPerToken +
                                    p.mlpMatrices * (p.sharedMlpFlopsPerMatrixPerToken +
                                                     m.expertsPerToken * p.routedFlopsPerMatrixPerToken) +
                                    p.routerFlopsPerToken;
    p.moeActivationsSplit = p.activationsSplit - mlpActivations(m, p.ffn) + mlpActivations(m, shared);
    p.routedActivationsPerCopy = 2.0 + mlpActivations(m, m.expertFfnHidden);
    if (attentionCast > 0.0)
        p.moeFp8CastElementsPerToken = attentionCast + (shared > 0.0 ? mlpCast(shared) : 0.0) +
                                       m.expertsPerToken * mlpCast(m.expertFfnHidden);
}

} // namespace

PerfProblem makePerfProblem(const TrainingJob& job, const ClusterProfile& cluster) {
    const ModelSpec& m = job.model;
    PerfProblem p;
    p.layers = m.layers;
    p.heads = m.heads;
    p.kvHeads = m.kvHeads > 0 ? m.kvHeads : m.heads;
    p.hidden = m.hidden;
    p.ffn = m.ffnHidden > 0 ? m.ffnHidden : 4 * m.hidden;
    p.vocab = m.vocab;
    p.seqLen = m.seqLen;
    p.globalBatch = job.globalBatch;
    p.gated = m.gatedMlp;
    p.layerParams = layerParameters(m);
    const double vocabParams = static_cast<double>(m.vocab) * m.hidden;
    p.firstStageExtraParams =
        m.gatedMlp ? vocabParams : vocabParams + static_cast<double>(m.seqLen) * m.hidden;
    p.lastStageExtraParams = vocabParams;
    p.totalParams = parameterCount(m);

    const double h = m.hidden;
    const AttentionWidths a = attentionWidths(m);
    p.qkvFlopsPerToken = 2.0 * a.inputWeights;
    p.projFlopsPerToken = 2.0 * a.projectionWeights;
    p.mlpMatrices = m.gatedMlp ? 3 : 2;
    p.mlpFlopsPerMatrixPerToken = 2.0 * h * p.ffn;
    p.linearFlopsPerTokenLayer =
        p.qkvFlopsPerToken + p.projFlopsPerToken + p.mlpMatrices * p.mlpFlopsPerMatrixPerToken;
    // Scores over the query/key width, weighted values over every query head's value width (4 s h for
    // hidden/heads-sized heads).
    p.attentionFlopsPerTokenLayer = 2.0 * m.seqLen * (a.queryKey + a.projectionIn);
    p.kvHeadDim = static_cast<int>((a.key + a.value) / 2.0);
    // Korthikanti's 34 s b h (GPT) counted tensor by tensor: two norm inputs (4), the QKV input (2), the MLP
    // input (2) and two dropout masks (2) are whole on every rank; Q (2), K and V (2 each, x g/a with GQA),
    // the projection's input (2) and the MLP's intermediates (2 x 4h/h x 2 for GPT; gate, up and their
    // product, 3 x 2 f/h, for a gated MLP) are split over t. Without dropout the masks and the dropped-out
    // scores are not stored. Heads of another size scale Q, K, V and the projection's input by their width
    // over h; latent attention also keeps its latents whole on every rank.
    const double attentionSplit =
        2.0 * (a.queryKey / h + a.projectionIn / h) + 2.0 * (a.key / h + a.value / h);
    p.activationsSplit = attentionSplit + mlpActivations(m, p.ffn);
    p.sharedActivations =
        (m.dropout ? kSharedActivations : kSharedActivationsWithoutDropout) + 2.0 * a.latent / h;
    p.scoreActivations = m.dropout ? kScoreActivations : kScoreActivationsWithoutDropout;
    p.logitFlopsPerToken = 2.0 * h * m.vocab;
    // What FP8 quantizes: the inputs and outputs of the attention's GEMMs and of one MLP of width f.
    const double attentionCast = (h + (a.queryKey + a.key + a.value)) + (a.projectionIn + h);
    auto mlpCast = [&](double f) { return m.gatedMlp ? (h + 2.0 * f) + (f + h) : 2.0 * (h + f); };
    if (job.precision == Precision::FP8)
        p.fp8CastElementsPerToken = attentionCast + mlpCast(p.ffn);
    setExperts(p, m, job.precision == Precision::FP8 ? attentionCast : 0.0, mlpCast);
    p.tokensPerIteration = static_cast<double>(job.globalBatch) * m.seqLen;
    const int moeLayers = moeLayerCount(m);
    p.forwardFlopsPerIteration =
        p.tokensPerIteration *
        ((m.layers - moeLayers) * (p.linearFlopsPerTokenLayer + p.attentionFlopsPerTokenLayer) +
         moeLayers * (p.moeLinearFlopsPerTokenLayer + p.attentionFlopsPerTokenLayer) + p.logitFlopsPerToken);
    p.modelFlopsPerIteration = 3.0 * p.forwardFlopsPerIteration;

    setHardware(p, job, cluster);
    p.busiestExpertLoad = m.capacityFactor > 0.0
                              ? std::min(p.calibration.expertLoadImbalance, m.capacityFactor)
                              : p.calibration.expertLoadImbalance;
    return p;
}

namespace {

// The tokens of one sequence a GPU holds: the sequence split over the context-parallel ranks.
double localSeqLen(const PerfProblem& p, const ParallelConfig& c) {
    return static_cast<double>(p.seqLen) / c.cp;
}

// Korthikanti et al. 2022, activation bytes of one layer for one micro-batch on one GPU (bf16 activations).
// FlashAttention stores no s x s scores: the 5as/h term goes, selective recomputation (which rebuilds just
// those scores) keeps what no recomputation keeps, and the kernel keeps an fp32 log-sum-exp per row and head.
// An MoE layer (`moeLayer`) keeps, in place of the dense MLP's intermediates, the shared experts' and,
// per token copy the busiest rank's experts take (k per token, x the load), its input and intermediates;
// expert tensor parallelism gathers etp ranks' copies, each with 1/etp of the intermediates.
double activationBytesPerLayer(const PerfProblem& p, const ParallelConfig& c, Recompute recompute,
                               bool moeLayer = false) {
    const double s = localSeqLen(p, c);
    const double sbh = s * c.microBatch * p.hidden;
    const double t = c.tp;
    const double split =
        moeLayer ? p.moeActivationsSplit + p.expertsPerToken * p.busiestExpertLoad *
                                               (p.routedActivationsPerCopy + 2.0 * (c.expertTp - 1))
                 : p.activationsSplit;
    // The layer without its scores: 34 s b h / t with SP, s b h (10 + 24/t) without, for GPT.
    const double layer = c.sequenceParallel ? (p.sharedActivations + split) * sbh / t
                                            : sbh * (p.sharedActivations + split / t);
    if (p.flashAttention && recompute != Recompute::Full) {
        const double logSumExp = 4.0 * p.heads * s * c.microBatch / t;
        return layer * p.activationBytes / 2.0 + logSumExp;
    }
    // The scores: 5 a s / h (x s b h) for GPT, split over t.
    const double scores = p.scoreActivations * p.heads * static_cast<double>(p.seqLen) / p.hidden;
    double bytes = 0.0;
    switch (recompute) {
    case Recompute::None:
        bytes = layer + sbh * scores / t;
        break;
    case Recompute::Selective:
        bytes = layer;
        break;
    case Recompute::Full:
        bytes = c.sequenceParallel ? 2.0 * sbh / t : 2.0 * sbh; // the layer input only
        break;
    }
    return bytes * p.activationBytes / 2.0;
}

// A stage of `layers` layers, `moe` of them MoE: its parameters beside the routed experts (all of its
// tensor-parallel group's), and its routed experts' (all of its expert-parallel group's).
double stageDenseParams(const PerfProblem& p, int layers, int moe) {
    return (layers - moe) * p.layerParams + moe * p.moeLayerDenseParams;
}
double stageExpertParams(const PerfProblem& p, int moe) {
    return moe * (p.experts * p.routedExpertParams);
}

// Of a stage's `recomputed` layers (a block recomputes the first ones of each chunk), how many are MoE
// layers: dense ones first, since a model's dense layers come before its MoE layers (first_dense_layers;
// an alternating pattern is taken the same way).
int recomputedMoeLayers(int layers, int moe, int recomputed) {
    return std::max(0, recomputed - (layers - moe));
}

bool divides(int divisor, int value) {
    return divisor > 0 && value % divisor == 0;
}

// Whether the configuration is well-formed for the job and the cluster: the first problem found, in the
// order messages rank them. `microBatches` is set once the batch divides.
Infeasibility shapeProblem(const PerfProblem& p, const ParallelConfig& c, int& microBatches) {
    if (c.dp < 1 || c.tp < 1 || c.pp < 1 || c.cp < 1 || c.microBatch < 1 || c.interleave < 1 || c.ep < 1 ||
        c.expertTp < 1 || c.recomputeLayers < 0 || (c.recomputeLayers > 0 && c.recompute != Recompute::Full))
        return Infeasibility::BadDegrees;
    if (p.peakFlops <= 0.0)
        return Infeasibility::PrecisionUnsupported;
    if (!divides(c.tp, p.heads) || !divides(c.tp, p.kvHeads) || !divides(c.tp, p.hidden) ||
        !divides(c.tp, p.ffn))
        return Infeasibility::HeadsNotDivisible;
    if (!p.crossNodeTp && p.gpusPerNode % c.tp != 0)
        return Infeasibility::TpCrossesNodes;
    if (c.cp > 1 && !p.flashAttention)
        return Infeasibility::ContextParallelNeedsFlash;
    if (c.cp > 1 && !contextParallelSplits(p.seqLen, c.cp))
        return Infeasibility::SequenceNotDivisible;
    // Megatron's interleaved schedule needs equal model chunks; without it stages may be uneven.
    if (c.pp > p.layers || !interleaveFits(p.layers, c.pp, c.interleave))
        return Infeasibility::LayersNotDivisible;
    if (!divides(c.dp * c.microBatch, p.globalBatch))
        return Infeasibility::BatchNotDivisible;
    microBatches = p.globalBatch / (c.dp * c.microBatch);
    if (c.interleave > 1 && (c.pp == 1 || microBatches % c.pp != 0))
        return Infeasibility::InterleaveNeedsPipeline;
    if (c.sequenceParallel && c.tp == 1)
        return Infeasibility::SequenceParallelNeedsTp;
    if (!p.mixtureOfExperts())
        return c.ep > 1 || c.expertTp > 1 ? Infeasibility::ExpertLayout : Infeasibility::None;
    if (!divides(c.ep, p.experts) || !divides(c.expertTp, p.expertFfn) || c.expertDataParallel() == 0)
        return Infeasibility::ExpertsNotDivisible;
    // Megatron-Core splits an MoE layer's tokens over the tensor-parallel ranks (sequence parallelism)
    // before it dispatches them; FSDP's per-layer gathers of expert weights are not modelled.
    if ((c.tp > 1 && !c.sequenceParallel) || c.fullySharded)
        return Infeasibility::ExpertLayout;
    return Infeasibility::None;
}

// What one pipeline stage holds: its parameters (all of its tensor-parallel group's; the routed experts'
// apart, all of the stage's) and its activations (per GPU).
struct StageHolding {
    double params = 0.0;
    double expertParams = 0.0;
    double activations = 0.0;
};

// Bytes per GPU of the model states: per parameter of the dense part (split over t) and of the routed
// experts (split over ep x etp).
struct StateBytes {
    double perParam = 0.0;
    double perExpertParam = 0.0;
};

// The stage that needs the most memory, the front of the pipeline or its last stage (which also holds the
// output layer and the logits).
StageHolding peakStage(const PerfProblem& p, const ParallelConfig& c, const PerfEstimate& e,
                       const StateBytes& bytes) {
    const double t = c.tp;
    // One micro-batch's activations on a stage: a recomputed layer keeps its input only, the others what
    // their mode keeps (a block recomputes some layers fully and keeps everything of the rest; dense layers
    // first, as stageLayers counts them).
    const double checkpointPerLayer = activationBytesPerLayer(p, c, Recompute::Full);
    const Recompute keptMode = c.recompute == Recompute::Full ? Recompute::None : c.recompute;
    const double keptPerLayer = activationBytesPerLayer(p, c, keptMode);
    const double keptPerMoeLayer = p.mixtureOfExperts() ? activationBytesPerLayer(p, c, keptMode, true) : 0.0;
    auto stageActivations = [&](int layers, int moe) {
        const int recomputed = c.recomputedLayers(layers);
        const int keptMoe = moe - recomputedMoeLayers(layers, moe, recomputed);
        return recomputed * checkpointPerLayer + (layers - recomputed - keptMoe) * keptPerLayer +
               keptMoe * keptPerMoeLayer;
    };
    // Full recomputation rebuilds one layer's activations at a time during backward. Under a block the
    // recomputed layers come first in their chunk, so they are rebuilt after the kept layers behind them
    // have been freed: only a stage that recomputes every layer needs the room on top. Under full
    // recomputation a kept layer is a layer without recomputation, so it is the room one rebuilt layer needs.
    auto workingSet = [&](int layers, int moe) {
        if (c.recompute != Recompute::Full || c.recomputedLayers(layers) != layers)
            return 0.0;
        return moe > 0 ? std::max(keptPerLayer, keptPerMoeLayer) : keptPerLayer;
    };
    auto stageParams = [&](int layers, int moe) { return stageDenseParams(p, layers, moe); };
    auto stageExperts = [&](int moe) { return stageExpertParams(p, moe); };
    // fp32 logits of the output layer for the loss, vocabulary-parallel over t.
    const double logits = 4.0 * c.microBatch * localSeqLen(p, c) * p.vocab / t;
    // Under 1F1B the first stage holds min(p, m) micro-batches in flight; interleaving adds (1 + (p-1)/(p
    // v)).
    const double inFlight = std::min(c.pp, e.microBatches);
    const double interleaveFactor = c.interleave > 1 ? 1.0 + (c.pp - 1.0) / (c.pp * c.interleave) : 1.0;
    const StageSplit& split = e.stages;
    StageHolding first{stageParams(split.first, split.firstMoe) + p.firstStageExtraParams,
                       stageExperts(split.firstMoe),
                       inFlight * interleaveFactor * stageActivations(split.first, split.firstMoe) +
                           workingSet(split.first, split.firstMoe)};
    StageHolding last{
        stageParams(split.last, split.lastMoe) + p.lastStageExtraParams, stageExperts(split.lastMoe),
        stageActivations(split.last, split.lastMoe) + workingSet(split.last, split.lastMoe) + logits};
    // Per GPU: the stage's dense parameters over t, its experts over ep x etp.
    const double denseBytesPerParam = bytes.perParam / t;
    const double expertBytesPerParam = bytes.perExpertParam / (c.ep * c.expertTp);
    auto holdingBytes = [&](const StageHolding& h) {
        return h.params * denseBytesPerParam + h.expertParams * expertBytesPerParam + h.activations;
    };
    if (split.middle > split.first) {
        // An uneven split: stage 1 holds one micro-batch fewer than stage 0 and no embedding, but one layer
        // more; whichever needs more memory stands for the front of the pipeline.
        const StageHolding middle{stageParams(split.middle, split.middleMoe), stageExperts(split.middleMoe),
                                  std::min(c.pp - 1, e.microBatches) * interleaveFactor *
                                          stageActivations(split.middle, split.middleMoe) +
                                      workingSet(split.middle, split.middleMoe)};
        if (holdingBytes(middle) > holdingBytes(first))
            first = middle;
    }
    if (c.pp == 1) {
        // One stage holds everything: the output layer (untied models) and the logits too.
        first.params += p.gated ? p.lastStageExtraParams : 0.0;
        first.activations += logits;
        last = first;
    }
    return holdingBytes(first) >= holdingBytes(last) ? first : last;
}

} // namespace

void estimateMemory(const PerfProblem& p, const ParallelConfig& c, PerfEstimate& e) {
    e = PerfEstimate{};
    e.gpus = c.gpus();
    e.feasible = false;
    e.reason = shapeProblem(p, c, e.microBatches);
    if (e.reason != Infeasibility::None)
        return;
    const double t = c.tp;
    e.stages = splitLayers(p.layers, c.pp);
    countMoeLayers(p, c.pp, e.stages);
    // The distributed optimizer shards over every replica of the weights: the data- and context-parallel
    // ranks, and for the routed experts the expert-data-parallel ranks. FSDP shards the weights and
    // gradients there too.
    const double replicaShare = 1.0 / (c.dp * c.cp);
    const double optimizerShare = c.distributedOptimizer || c.fullySharded ? replicaShare : 1.0;
    const double stateShare = c.fullySharded ? replicaShare : 1.0;
    const double expertOptimizerShare =
        c.distributedOptimizer && p.mixtureOfExperts() ? 1.0 / c.expertDataParallel() : 1.0;
    StateBytes bytes;
    bytes.perParam = (p.weightBytes + p.gradientBytes) * stateShare + kOptimizerBytes * optimizerShare;
    bytes.perExpertParam = p.weightBytes + p.gradientBytes + kOptimizerBytes * expertOptimizerShare;
    const StageHolding peak = peakStage(p, c, e, bytes);
    const double params = peak.params / t;
    const double experts = peak.expertParams / (c.ep * c.expertTp);
    e.memory.weightsBytes = params * p.weightBytes * stateShare + experts * p.weightBytes;
    e.memory.gradientsBytes = params * p.gradientBytes * stateShare + experts * p.gradientBytes;
    if (c.fullySharded && c.dp * c.cp > 1) {
        // The whole weights of the layer in use and of the next one, prefetched, and the full gradient of
        // the layer being reduce-scattered.
        const double layerParams = p.layerParams / t;
        e.memory.weightsBytes += kFsdpGatheredLayers * layerParams * p.weightBytes;
        e.memory.gradientsBytes += layerParams * p.gradientBytes;
    }
    e.memory.optimizerBytes =
        params * kOptimizerBytes * optimizerShare + experts * kOptimizerBytes * expertOptimizerShare;
    e.memory.activationsBytes = peak.activations;
    e.memory.reserveBytes = p.calibration.memoryReserveGib * kGiB;
    if (e.memory.totalBytes() > p.memoryBytes) {
        e.reason = Infeasibility::OutOfMemory;
        return;
    }
    e.feasible = true;
}

namespace {

// What the pieces of one step share: achieved bandwidths, one micro-batch's tokens on one GPU, and the
// compute and memory rates under the configuration's power limit.
struct StepRates {
    double intraBw = 0.0; // achieved, per GPU one direction
    double interBw = 0.0;
    double t = 1.0;
    double tokens = 0.0; // per micro-batch on one GPU
    double speed = 0.0;
    double speed16 = 0.0;
    double hbm = 0.0;
};

StepRates stepRates(const PerfProblem& p, const ParallelConfig& c, const PerfEstimate& e) {
    const PerfCalibration& cal = p.calibration;
    StepRates r;
    r.intraBw = p.intraBytesPerS * cal.intraNodeCommEfficiency;
    r.interBw = p.interBytesPerS * cal.interNodeCommEfficiency;
    r.t = c.tp;
    r.tokens = static_cast<double>(c.microBatch) * localSeqLen(p, c);
    r.speed = p.peakFlops * e.powerLimit.throughputFactor;
    r.speed16 = p.sixteenBitPeakFlops * e.powerLimit.throughputFactor;
    r.hbm = p.hbmBytesPerS * e.powerLimit.throughputFactor;
    return r;
}

// One layer's kernels for one micro-batch on one GPU: GEMMs at their size-dependent efficiency, memory-bound
// kernels in proportion to the activation bytes, plus a fixed per-layer overhead; and the same GEMMs at the
// best efficiency the calibration allows (the time the matrix units are saturated), which the energy needs.
struct LayerKernels {
    double linear = 0.0;
    double attention = 0.0;
    double attentionExecutedFlops = 0.0;
    double attentionBackwardRatio = 0.0;
    double layerTraffic = 0.0;
    double softmaxTraffic = 0.0;
    double fp8Cast = 0.0;
    double forward = 0.0;
    double backward = 0.0;
    bool rebuildsScores = false;
    double selectiveRecompute = 0.0;
    double fullRecompute = 0.0;
    double logits = 0.0;
    double linearSaturated = 0.0;
    double attentionSaturated = 0.0;
    double logitsSaturated = 0.0;
    double layer() const { return forward + backward + selectiveRecompute; }
};

// An MoE layer's MLP on one GPU: the shared experts and the router like a dense MLP split over t, and the
// routed experts as one grouped GEMM per matrix over the E/ep local experts. The busiest rank takes k x load
// token copies per token of its t-th of the micro-batch (etp ranks gather each other's and each computes
// 1/etp of the width, so the FLOPs per GPU are the same); each local expert's GEMM runs at the efficiency of
// its own size, since its tokens are what fill the matrix units (docs/MODEL.md#expert-parallel).
struct MoeMlp {
    double time = 0.0;
    double flopsPerToken = 0.0; // per token of the micro-batch on this GPU, the busiest rank's
};

template <typename GemmTime>
MoeMlp moeMlp(const PerfProblem& p, const ParallelConfig& c, double tokens, const GemmTime& gemmTime) {
    MoeMlp mlp;
    const double t = c.tp;
    const double copiesPerToken = p.expertsPerToken * p.busiestExpertLoad;
    const double localExperts = static_cast<double>(p.experts) / c.ep;
    const double routedPerMatrix = tokens * copiesPerToken * p.routedFlopsPerMatrixPerToken / t;
    mlp.time = p.mlpMatrices * (gemmTime(tokens * p.sharedMlpFlopsPerMatrixPerToken / t) +
                                localExperts * gemmTime(routedPerMatrix / localExperts)) +
               gemmTime(tokens * p.routerFlopsPerToken / t);
    mlp.flopsPerToken = p.mlpMatrices * (p.sharedMlpFlopsPerMatrixPerToken +
                                         copiesPerToken * p.routedFlopsPerMatrixPerToken) +
                        p.routerFlopsPerToken;
    return mlp;
}

LayerKernels layerKernels(const PerfProblem& p, const ParallelConfig& c, const StepRates& r,
                          bool moeLayer = false) {
    const PerfCalibration& cal = p.calibration;
    const double t = r.t;
    const double tokens = r.tokens;
    auto gemmTimeAt = [&](double flops, double peak) {
        return flops > 0.0 ? flops / (peak * gemmEfficiency(cal, flops)) : 0.0;
    };
    auto gemmTime = [&](double flops) { return gemmTimeAt(flops, r.speed); };
    LayerKernels k;
    const MoeMlp moe = moeLayer ? moeMlp(p, c, tokens, gemmTime) : MoeMlp{};
    const double mlp =
        moeLayer ? moe.time : p.mlpMatrices * gemmTime(tokens * p.mlpFlopsPerMatrixPerToken / t);
    k.linear = gemmTime(tokens * p.qkvFlopsPerToken / t) + gemmTime(tokens * p.projFlopsPerToken / t) + mlp;
    // The attention core runs in 16 bits. Materialized: two batched GEMMs of half the FLOPs each. Flash: one
    // fused kernel executing the causal half; its backward costs kFlashBackwardRatio x its forward.
    const double attentionFlops = tokens * p.attentionFlopsPerTokenLayer / t;
    k.attentionExecutedFlops = p.flashAttention ? kCausalExecutedShare * attentionFlops : attentionFlops;
    k.attention = p.flashAttention ? gemmTimeAt(k.attentionExecutedFlops, r.speed16)
                                   : 2.0 * gemmTimeAt(attentionFlops / 2.0, r.speed16);
    k.attentionBackwardRatio = p.flashAttention ? kFlashBackwardRatio : kMaterializedBackwardRatio;
    k.layerTraffic =
        cal.memoryTrafficPerActivationByte * activationBytesPerLayer(p, c, Recompute::None, moeLayer);
    k.softmaxTraffic = cal.memoryTrafficPerActivationByte * p.scoreActivations * p.heads * tokens * p.seqLen /
                       t * p.activationBytes / 2.0;
    const double castElements = moeLayer ? p.moeFp8CastElementsPerToken : p.fp8CastElementsPerToken;
    k.fp8Cast = cal.fp8CastBytesPerElement * tokens * castElements / t / r.hbm;
    k.forward = k.linear + k.attention + (k.layerTraffic / r.hbm + k.fp8Cast) + cal.kernelOverheadS;
    // Two GEMMs (data and weight gradients) per forward GEMM; the attention core as its kernel needs.
    k.backward = 2.0 * (k.forward - k.attention) + k.attentionBackwardRatio * k.attention;
    // Selective recomputation rebuilds every layer's attention core (flash stores no scores: nothing to
    // rebuild); full recomputation runs a recomputed layer's forward pass again.
    k.rebuildsScores = c.recompute == Recompute::Selective && !p.flashAttention;
    k.selectiveRecompute = k.rebuildsScores ? k.attention + k.softmaxTraffic / r.hbm : 0.0;
    k.fullRecompute = k.forward;
    k.logits = 3.0 * gemmTimeAt(tokens * p.logitFlopsPerToken / t, r.speed16); // fwd + 2 backward
    auto saturatedTime = [&](double flops, double peak) { return flops / (peak * cal.gemmEfficiencyMax); };
    const double linearFlops =
        moeLayer ? p.qkvFlopsPerToken + p.projFlopsPerToken + moe.flopsPerToken : p.linearFlopsPerTokenLayer;
    k.linearSaturated = saturatedTime(tokens * linearFlops / t, r.speed); // QKV + projection + MLP matrices
    k.attentionSaturated = saturatedTime(k.attentionExecutedFlops, r.speed16);
    k.logitsSaturated = 3.0 * saturatedTime(tokens * p.logitFlopsPerToken / t, r.speed16);
    return k;
}

// Communication a layer waits for, per micro-batch: tensor and context parallelism.
struct LayerComm {
    double tpPerLayer = 0.0;
    double tpPerRecomputedLayer = 0.0; // the recomputed forward's two all-reduces
    double cpPerLayer = 0.0;
    double cpPerRecomputedLayer = 0.0;
    double epPerLayer = 0.0; // an MoE layer's dispatch and combine, forward and backward, as exposed
    double epPerRecomputedLayer = 0.0;
    double perLayer() const { return tpPerLayer + cpPerLayer + epPerLayer; }
    double perRecomputedLayer() const {
        return tpPerRecomputedLayer + cpPerRecomputedLayer + epPerRecomputedLayer;
    }
};

// The share of tokens that go to at least one of `groups` equal groups of a layer's experts (an expert-
// parallel rank's, or a node's): 1 minus the chance that none of a token's k experts, drawn evenly without
// repetition from E, is in the group. Times the groups, the destinations a token has.
double destinationsPerToken(int experts, int perToken, int groups) {
    const double inGroup = static_cast<double>(experts) / groups;
    double none = 1.0;
    for (int pick = 0; pick < perToken; ++pick)
        none *= std::max(0.0, (experts - inGroup - pick) / (experts - pick));
    return groups * (1.0 - none);
}

// The all-to-alls of an MoE layer (its dispatch and its combine) on the busiest rank
// (docs/MODEL.md#expert-parallel). A GPU sends its t-th of the micro-batch's tokens; each token goes once
// to every expert-parallel rank holding one of its experts (over NVLink, forwarded there inside a node
// when it came over the network) and once to every node among them (over the network), the GPU's own
// counted as DeepEP counts them, at the bandwidths its measurements reach. The ep ranks are etp apart
// (Megatron-Core's expert order: etp, ep, then expert data parallelism), so an expert-parallel group spans
// ep x etp consecutive GPUs. NVLink and the network carry their shares at once: the slower sets the time.
// A call takes perValueByteS x its bytes per value (FP8 or 16-bit) + the latency; the routing, and so the
// destinations, are the same for both.
struct ExpertAllToAll {
    double perValueByteS = 0.0;
    double latencyS = 0.0;
    double callS(double valueBytes) const { return perValueByteS * valueBytes + latencyS; }
};

ExpertAllToAll expertAllToAll(const PerfProblem& p, const ParallelConfig& c, const StepRates& r) {
    if (c.ep <= 1)
        return {};
    const PerfCalibration& cal = p.calibration;
    const double tokenValues = r.tokens / c.tp * p.hidden;
    const int span = c.ep * c.expertTp;
    const int nodes = span > p.gpusPerNode ? (span + p.gpusPerNode - 1) / p.gpusPerNode : 1;
    const double nvlink = tokenValues * destinationsPerToken(p.experts, p.expertsPerToken, c.ep) /
                          (p.intraBytesPerS * cal.intraNodeAllToAllEfficiency);
    const double network = nodes > 1
                               ? tokenValues * destinationsPerToken(p.experts, p.expertsPerToken, nodes) /
                                     (p.interBytesPerS * cal.interNodeAllToAllEfficiency)
                               : 0.0;
    return {std::max(nvlink, network) * p.busiestExpertLoad, collectiveLatencyS(cal, nodes)};
}

// An MoE layer's communication: tensor parallelism for its attention only (its tokens stay split over the
// t ranks through the experts); expert tensor parallelism's gather of the routed copies before the
// experts and reduce-scatter after, inside a node; and the dispatch and combine, forward and backward, as
// much as the stack leaves exposed (PerfCalibration::expertCommOverlap).
void setExpertComm(const PerfProblem& p, const ParallelConfig& c, const StepRates& r, const LayerKernels& k,
                   double tpCall, LayerComm& comm) {
    const PerfCalibration& cal = p.calibration;
    double etpCall = 0.0;
    if (c.expertTp > 1) {
        const double copyBytes =
            r.tokens / c.tp * p.expertsPerToken * p.busiestExpertLoad * p.hidden * p.activationBytes;
        const bool inNode = c.expertTp <= p.gpusPerNode;
        etpCall = ringAllReduceS(copyBytes, c.expertTp, inNode ? r.intraBw : r.interBw,
                                 collectiveLatencyS(cal, inNode ? 1 : c.expertTp / p.gpusPerNode) * 2.0);
    }
    comm.tpPerLayer = 2.0 * tpCall + 2.0 * etpCall;
    comm.tpPerRecomputedLayer = tpCall + etpCall;
    const ExpertAllToAll allToAll = expertAllToAll(p, c, r);
    const double dispatch = allToAll.callS(p.dispatchBytes);
    const double combine = allToAll.callS(p.activationBytes);
    auto exposed = [&](double transfer, double compute) {
        return transfer - cal.expertCommOverlap * std::min(transfer, compute);
    };
    // Forward: dispatch and combine; backward: their transposes, both on 16-bit gradients.
    comm.epPerLayer = exposed(dispatch + 3.0 * combine, k.layer());
    comm.epPerRecomputedLayer = exposed(dispatch + combine, k.fullRecompute);
}

LayerComm layerComm(const PerfProblem& p, const ParallelConfig& c, const StepRates& r, const LayerKernels& k,
                    bool moeLayer = false) {
    const PerfCalibration& cal = p.calibration;
    LayerComm comm;
    // Tensor parallelism: 2 all-reduces forward and 2 backward per layer (+2 when the forward is recomputed);
    // with SP the same volume as reduce-scatter + all-gather, i.e. twice the calls. A group inside a node
    // runs over NVLink; one that straddles nodes (cross-node TP) over the NICs of the fewest GPUs it has in
    // a node, gcd(t, K) (docs/MODEL.md#step-time-comm).
    double tpCall = 0.0;
    if (c.tp > 1) {
        const double bytes = r.tokens * p.hidden * p.activationBytes;
        const bool inNode = p.gpusPerNode % c.tp == 0;
        const int perNode = std::gcd(c.tp, p.gpusPerNode);
        const double bw = inNode ? r.intraBw : std::min(r.intraBw, r.interBw * perNode);
        const double latency =
            collectiveLatencyS(cal, inNode ? 1 : c.tp / perNode) * (c.sequenceParallel ? 2.0 : 1.0);
        tpCall = ringAllReduceS(bytes, c.tp, bw, latency);
    }
    comm.tpPerLayer = 4.0 * tpCall;
    comm.tpPerRecomputedLayer = 2.0 * tpCall;
    if (moeLayer)
        setExpertComm(p, c, r, k, tpCall, comm);
    // Context parallelism (ring attention): each rank passes its chunk's K and V around the cp ranks, cp - 1
    // steps forward and, with their gradients, twice that backward. Each step's transfer overlaps the
    // attention of the chunk in hand, so only the excess over the attention time shows. The ranks are t
    // apart (Megatron's order tp-cp-dp-pp): inside a node while t x cp <= K.
    if (c.cp > 1) {
        const double kvBytes = 2.0 * r.tokens * p.kvHeadDim / r.t * p.activationBytes;
        const double bw = c.tp * c.cp <= p.gpusPerNode ? r.intraBw : r.interBw;
        const double ring = (c.cp - 1.0) * (kvBytes / bw + cal.collectiveLatencyS);
        const double forwardExposed = std::max(0.0, ring - k.attention);
        comm.cpPerLayer = forwardExposed + std::max(0.0, 2.0 * ring - k.attentionBackwardRatio * k.attention);
        comm.cpPerRecomputedLayer = forwardExposed;
    }
    return comm;
}

// One kind of layer's kernels and communication: a dense layer, or an MoE layer (all 0 for a dense model).
struct LayerCosts {
    LayerKernels k;
    LayerComm comm;
};
struct LayerKinds {
    LayerCosts dense;
    LayerCosts moe;
};

LayerKinds layerKinds(const PerfProblem& p, const ParallelConfig& c, const StepRates& r) {
    LayerKinds kinds;
    kinds.dense.k = layerKernels(p, c, r);
    kinds.dense.comm = layerComm(p, c, r, kinds.dense.k);
    if (p.mixtureOfExperts()) {
        kinds.moe.k = layerKernels(p, c, r, true);
        kinds.moe.comm = layerComm(p, c, r, kinds.moe.k, true);
    }
    return kinds;
}

// The layers of a stage (or of the model): how many, how many of them MoE, how many recomputed and how
// many of those MoE (recomputedMoeLayers).
struct StageLayers {
    int layers = 0;
    int moe = 0;
    int recomputed = 0;
    int recomputedMoe = 0;
};

StageLayers stageLayers(int layers, int moe, int recomputed) {
    return {layers, moe, recomputed, recomputedMoeLayers(layers, moe, recomputed)};
}

// A per-layer quantity summed over the stage's layers of each kind, plus a per-recomputed-layer one over its
// recomputed layers.
template <typename PerLayer, typename PerRecomputed>
double overLayers(const StageLayers& s, const LayerKinds& kinds, const PerLayer& perLayer,
                  const PerRecomputed& perRecomputed) {
    return (s.layers - s.moe) * perLayer(kinds.dense) + s.moe * perLayer(kinds.moe) +
           (s.recomputed - s.recomputedMoe) * perRecomputed(kinds.dense) +
           s.recomputedMoe * perRecomputed(kinds.moe);
}

// The pipeline's pace: the slowest stage sets it. The last stage also runs the output layer, and an uneven
// split gives another stage a layer more (or more MoE layers).
struct StagePace {
    bool lastIsSlowest = false;
    StageLayers stage;         // the slowest stage's layers
    StageLayers model;         // every layer of the model
    double slowestStage = 0.0; // compute of one micro-batch on the slowest stage
    double averageStage = 0.0; // a stage's mean compute and the communication of the slowest, per micro-batch
};

StagePace stagePace(const PerfProblem& p, const ParallelConfig& c, const PerfEstimate& e,
                    const LayerKinds& kinds) {
    const double logits = kinds.dense.k.logits;
    auto compute = [](const LayerCosts& l) { return l.k.layer(); };
    auto recompute = [](const LayerCosts& l) { return l.k.fullRecompute; };
    // One micro-batch on a stage: compute and the communication it waits for.
    auto stageSeconds = [&](const StageLayers& stage) {
        return overLayers(
            stage, kinds, [](const LayerCosts& l) { return l.k.layer() + l.comm.perLayer(); },
            [](const LayerCosts& l) { return l.k.fullRecompute + l.comm.perRecomputedLayer(); });
    };
    auto layersOf = [&](int layers, int moe) { return stageLayers(layers, moe, c.recomputedLayers(layers)); };
    const StageSplit& split = e.stages;
    const StageLayers first = layersOf(split.first, split.firstMoe);
    const StageLayers middle = layersOf(split.middle, split.middleMoe);
    const StageLayers last = layersOf(split.last, split.lastMoe);
    const StageLayers busiestOther = stageSeconds(middle) > stageSeconds(first) ? middle : first;
    StagePace pace;
    pace.lastIsSlowest = stageSeconds(last) + logits >= stageSeconds(busiestOther);
    pace.stage = pace.lastIsSlowest ? last : busiestOther;
    pace.slowestStage =
        overLayers(pace.stage, kinds, compute, recompute) + (pace.lastIsSlowest ? logits : 0.0);
    const int recomputedInModel = c.pp == 1 ? c.recomputedLayers(p.layers)
                                            : c.recomputedLayers(split.first) +
                                                  (c.pp - 2) * c.recomputedLayers(split.middle) +
                                                  c.recomputedLayers(split.last);
    const int moeInModel = p.moeLayersBefore.empty() ? 0 : p.moeLayersBefore.back();
    pace.model = stageLayers(p.layers, moeInModel, recomputedInModel);
    pace.averageStage = (overLayers(pace.model, kinds, compute, recompute) + logits) / c.pp +
                        overLayers(
                            pace.stage, kinds, [](const LayerCosts& l) { return l.comm.perLayer(); },
                            [](const LayerCosts& l) { return l.comm.perRecomputedLayer(); });
    return pace;
}

// Pipeline point-to-point: b s h activations (scattered over t) forward and their gradients backward, v times
// per micro-batch with interleaving. Neighbouring stages are t*d*cp ranks apart. Without sequence parallelism
// a stage needs the whole tensor on every tensor-parallel rank, so the receiving group all-gathers the t
// pieces over NVLink before it can start (SC21's scatter/gather); with sequence parallelism the pieces are
// what each rank works on.
double pipelineCommS(const PerfProblem& p, const ParallelConfig& c, const StepRates& r, double m,
                     const StagePace& pace) {
    if (c.pp <= 1)
        return 0.0;
    const PerfCalibration& cal = p.calibration;
    const double bytes = r.tokens * p.hidden * p.activationBytes / r.t;
    // A stage's two sends (activations forward, gradients backward) go to its two neighbours. When
    // neighbours are fewer than K ranks apart, several stages share a node and the pace is set by a stage at
    // a node's edge: one send over the network, the other over NVLink.
    const int stride = c.tp * c.dp * c.cp;
    const double wire = c.gpus() <= p.gpusPerNode ? bytes / r.intraBw
                        : stride < p.gpusPerNode  ? (bytes / r.interBw + bytes / r.intraBw) / 2.0
                                                  : bytes / r.interBw;
    double transfer = wire + cal.collectiveLatencyS;
    if (c.tp > 1 && !c.sequenceParallel)
        transfer += (r.t - 1.0) * bytes / r.intraBw + cal.collectiveLatencyS;
    // Blocking: every exchange waits, and pays the fixed synchronisation cost on top.
    const double blocking =
        2.0 * (c.interleave * m + c.pp - 1.0) * (transfer + cal.pipelineTransferOverheadS);
    if (!(c.interleave > 1 && cal.pipelineOverlap > 0.0))
        return blocking;
    // Overlapped: the fill and drain still wait; in steady state each transfer hides behind one forward or
    // backward pass of a chunk and only its excess shows.
    const double pass = pace.slowestStage / (2.0 * c.interleave);
    const double overlapped =
        2.0 * (c.pp - 1.0) * transfer + 2.0 * c.interleave * m * std::max(0.0, transfer - pass);
    return (1.0 - cal.pipelineOverlap) * blocking + cal.pipelineOverlap * overlapped;
}

// The parameters of the largest stage on one GPU: the dense part (split over t) and the routed experts
// (split over ep x etp).
struct StageParams {
    double dense = 0.0;
    double experts = 0.0;
};

StageParams stageParamsPerGpu(const PerfProblem& p, const ParallelConfig& c, const PerfEstimate& e) {
    const StageSplit& split = e.stages;
    StageParams params;
    params.dense = std::max({stageDenseParams(p, split.first, split.firstMoe) + p.firstStageExtraParams,
                             stageDenseParams(p, split.middle, split.middleMoe),
                             stageDenseParams(p, split.last, split.lastMoe) + p.lastStageExtraParams}) /
                   c.tp;
    params.experts = stageExpertParams(p, std::max({split.firstMoe, split.middleMoe, split.lastMoe})) /
                     (c.ep * c.expertTp);
    return params;
}

// Megatron-Core's default gradient bucket (DistributedDataParallelConfig.bucket_size left unset): 40 million
// parameters, or a million per data-parallel rank when that is more.
double gradientBucketParams(int replicas) {
    return std::max(40e6, 1e6 * replicas);
}

// A transfer a stack launches bucket by bucket while a pass runs: only what exceeds the pass shows, and never
// less than the bucket that is ready last (it starts when the pass ends).
double exposedBehindPass(double transferS, double passS, double lastBucketShare) {
    return std::max(lastBucketShare * transferS, transferS - passS);
}

// One group's gradient reduction and weight gather as a blocking stack runs them: `params` per GPU over
// `replicas` ranks `stride` GPUs apart, so that a node holds K/stride of them and the ring runs over that
// many NICs. An all-reduce, or with the distributed optimizer a reduce-scatter, then the updated weights'
// all-gather.
struct GradientSync {
    double reduce = 0.0;
    double gather = 0.0;
};

// A ring over `replicas` ranks `stride` GPUs apart: a node holds K/stride of them, so the ring runs over
// that many NICs; its bandwidth, its per-call latency and the share of the data each rank sends.
struct ReplicaRing {
    double bw = 0.0;
    double latencyS = 0.0;
    double share = 0.0;
};

ReplicaRing replicaRing(const PerfProblem& p, const StepRates& r, int replicas, int stride) {
    const int perNode = std::max(1, std::min(replicas, p.gpusPerNode / stride));
    const bool inNode = stride * replicas <= p.gpusPerNode;
    ReplicaRing ring;
    ring.bw = inNode ? r.intraBw : std::min(r.intraBw, r.interBw * perNode);
    ring.latencyS = collectiveLatencyS(p.calibration, inNode ? 1 : (replicas + perNode - 1) / perNode);
    ring.share = (replicas - 1.0) / replicas;
    return ring;
}

GradientSync gradientSync(const PerfProblem& p, const ParallelConfig& c, const StepRates& r, double params,
                          int replicas, int stride) {
    if (replicas <= 1 || params <= 0.0)
        return {};
    const double gradBytes = params * p.calibration.dpGradientBytes;
    const ReplicaRing ring = replicaRing(p, r, replicas, stride);
    GradientSync sync;
    sync.reduce = c.distributedOptimizer ? ring.share * gradBytes / ring.bw + ring.latencyS
                                         : ringAllReduceS(gradBytes, replicas, ring.bw, ring.latencyS);
    sync.gather =
        c.distributedOptimizer ? ring.share * params * p.weightBytes / ring.bw + ring.latencyS : 0.0;
    return sync;
}

// Data parallelism: gradients of the largest stage, dpGradientBytes per parameter, reduced over every replica
// of the weights: the dense part over d x cp ranks t apart, the routed experts over the expert-data-parallel
// ranks ep x etp apart. Returns the exposed time.
double dataParallelCommS(const PerfProblem& p, const ParallelConfig& c, const StepRates& r, double m,
                         const LayerKinds& kinds, const StagePace& pace, const StageParams& stageParams) {
    const PerfCalibration& cal = p.calibration;
    const int replicas = c.dp * c.cp;
    const GradientSync dense = gradientSync(p, c, r, stageParams.dense, replicas, c.tp);
    const GradientSync experts =
        gradientSync(p, c, r, stageParams.experts, c.expertDataParallel(), c.ep * c.expertTp);
    if (replicas <= 1 && experts.reduce <= 0.0)
        return 0.0;
    const double forwardPass = overLayers(
        pace.stage, kinds, [](const LayerCosts& l) { return l.k.forward; },
        [](const LayerCosts&) { return 0.0; });
    const double backwardPass = overLayers(
        pace.stage, kinds, [](const LayerCosts& l) { return l.k.backward + l.k.selectiveRecompute; },
        [](const LayerCosts& l) { return l.k.fullRecompute; });
    if (c.fullySharded) {
        // FSDP, per micro-batch (dense models only): the stage's weights are gathered before the forward
        // pass and again before the backward pass (they are dropped in between), and the gradients
        // reduce-scattered during it. Each layer's transfer is prefetched behind the previous layer's
        // compute, so only what exceeds the pass shows, plus the first layer's gather of each pass.
        const ReplicaRing ring = replicaRing(p, r, replicas, c.tp);
        const double layersLatency = pace.stage.layers * ring.latencyS;
        const double gather = ring.share * stageParams.dense * p.weightBytes / ring.bw + layersLatency;
        const double gradBytes = stageParams.dense * cal.dpGradientBytes;
        const double reduce = ring.share * gradBytes / ring.bw + layersLatency;
        const double firstLayers = 2.0 * gather / pace.stage.layers;
        return m * (std::max(0.0, gather - forwardPass) + std::max(0.0, gather + reduce - backwardPass) +
                    firstLayers);
    }
    const double reduce = dense.reduce + experts.reduce;
    const double gather = dense.gather + experts.gather;
    const double blocking = reduce + gather;
    if (cal.dpOverlap <= 0.0)
        return blocking;
    // An overlapping stack (Megatron-Core's overlap_grad_reduce and overlap_param_gather, docs/MODEL.md#dp)
    // reduces each bucket of gradients as the last micro-batch's backward pass finishes it, and gathers each
    // bucket of weights as the next step's first forward pass reaches it.
    const double lastBucket =
        std::min(1.0, gradientBucketParams(replicas) / (stageParams.dense + stageParams.experts));
    const double overlapped = exposedBehindPass(reduce, backwardPass, lastBucket) +
                              exposedBehindPass(gather, forwardPass, lastBucket);
    return (1.0 - cal.dpOverlap) * blocking + cal.dpOverlap * overlapped;
}

// Throughput and FLOP rates from the step time.
void fillRates(const PerfProblem& p, const ParallelConfig& c, const LayerKernels& k, const StagePace& pace,
               PerfEstimate& e) {
    const int recomputedMoe = pace.model.recomputedMoe;
    e.stepTimeS = e.time.total();
    e.tokensPerS = p.tokensPerIteration / e.stepTimeS;
    const double n = c.gpus();
    e.modelFlopsPerGpu = p.modelFlopsPerIteration / (n * e.stepTimeS);
    double recomputeFlops = 0.0;
    if (c.recompute == Recompute::Full)
        recomputeFlops = p.tokensPerIteration * (pace.model.recomputed - recomputedMoe) *
                             (p.linearFlopsPerTokenLayer + p.attentionFlopsPerTokenLayer) +
                         p.tokensPerIteration * recomputedMoe *
                             (p.moeLinearFlopsPerTokenLayer + p.attentionFlopsPerTokenLayer);
    else if (k.rebuildsScores)
        recomputeFlops = p.tokensPerIteration * p.layers * p.attentionFlopsPerTokenLayer;
    e.hardwareFlopsPerGpu = (p.modelFlopsPerIteration + recomputeFlops) / (n * e.stepTimeS);
    e.mfu = e.modelFlopsPerGpu / p.peakFlops;
}

// Power by phase, capped at the limit; compute phases scaled by the power-limit curve; then the step's
// energy, the cluster's power and the energy and embodied carbon per token.
void fillPower(const PerfProblem& p, const ParallelConfig& c, const StepRates& r, const LayerKinds& kinds,
               const StagePace& pace, PerfEstimate& e) {
    const PerfCalibration& cal = p.calibration;
    const double scale = p.tdpW / kPrototypeTdpW * cal.gpuPowerScale;
    const double limit = e.powerLimit.limitW > 0.0 ? e.powerLimit.limitW : p.tdpW;
    PowerBreakdown& pw = e.power;
    pw.forwardW = std::min(kForwardW * scale * e.powerLimit.powerFactor, limit);
    pw.backwardW = std::min(kBackwardW * scale * e.powerLimit.powerFactor, limit);
    pw.optimizerW = std::min(kOptimizerW * scale, limit);
    // A measured waiting power replaces the prototype's communication phase (docs/MODEL.md#phase-powers).
    pw.commW = std::min(p.waitW > 0.0 ? p.waitW * cal.gpuPowerScale : kCommW * scale, limit);
    pw.idleW = std::min(p.idleW, limit);
    // Within compute (docs/MODEL.md#phase-powers): a GEMM draws its phase's power only for the share of its
    // time its matrix units are saturated; the rest of its time the SMs stall on memory and latency at full
    // clock, drawing what memory-bound work draws (the optimizer's power). Memory-bound kernels draw that
    // too, and the per-layer launch gaps what a GPU waiting in a collective draws.
    auto passEnergy = [&](double gemmS, double saturatedS, double memoryS, double gapS, double phaseW) {
        return phaseW * saturatedS + pw.optimizerW * (gemmS - saturatedS + memoryS) + pw.commW * gapS;
    };
    // One layer of a kind: its forward pass, and its whole pass (forward, backward, rebuilt scores).
    auto forwardJ = [&](const LayerCosts& l) {
        const LayerKernels& k = l.k;
        return passEnergy(k.linear + k.attention, k.linearSaturated + k.attentionSaturated,
                          k.layerTraffic / r.hbm + k.fp8Cast, cal.kernelOverheadS, pw.forwardW);
    };
    auto layerJ = [&](const LayerCosts& l) {
        const LayerKernels& k = l.k;
        const double layerMemoryS = k.layerTraffic / r.hbm + k.fp8Cast;
        const double backwardJ =
            passEnergy(2.0 * k.linear + k.attentionBackwardRatio * k.attention,
                       2.0 * k.linearSaturated + k.attentionBackwardRatio * k.attentionSaturated,
                       2.0 * layerMemoryS, 2.0 * cal.kernelOverheadS, pw.backwardW);
        const double selectiveJ = k.rebuildsScores ? passEnergy(k.attention, k.attentionSaturated,
                                                                k.softmaxTraffic / r.hbm, 0.0, pw.forwardW)
                                                   : 0.0;
        return forwardJ(l) + backwardJ + selectiveJ;
    };
    const LayerKernels& k = kinds.dense.k;
    const double logitsJ =
        passEnergy(k.logits, k.logitsSaturated, 0.0, 0.0, (pw.forwardW + 2.0 * pw.backwardW) / 3.0);
    const double stageJ =
        overLayers(pace.stage, kinds, layerJ, forwardJ) + (pace.lastIsSlowest ? logitsJ : 0.0);
    pw.computeW = stageJ / pace.slowestStage;
    const double energyPerGpu =
        e.time.computeS * pw.computeW + e.time.waitingS() * pw.commW + e.time.optimizerS * pw.optimizerW;
    pw.gpuAverageW = energyPerGpu / e.stepTimeS;
    const double n = c.gpus();
    const int nodes = (c.gpus() + p.gpusPerNode - 1) / p.gpusPerNode;
    pw.nodeOverheadW = nodes * p.nodeOverheadW;
    pw.itPowerW = n * pw.gpuAverageW + pw.nodeOverheadW;
    pw.facilityPowerW = pw.itPowerW * p.pue;
    e.energyPerTokenJ = pw.facilityPowerW / e.tokensPerS;
    e.embodiedGPerToken = p.embodiedGPerGpuSecond * n / e.tokensPerS;
}

} // namespace

const std::vector<TimeBreakdownField>& timeBreakdownFields() {
    static const std::vector<TimeBreakdownField> fields{
        {"compute", "compute", &TimeBreakdown::computeS, false},
        {"pipeline_bubble", "bubble", &TimeBreakdown::pipelineBubbleS, true},
        {"tp_comm", "TP comm", &TimeBreakdown::tpCommS, true},
        {"pp_comm", "PP comm", &TimeBreakdown::ppCommS, true},
        {"cp_comm_exposed", "CP comm", &TimeBreakdown::cpCommExposedS, true},
        {"ep_comm_exposed", "EP comm", &TimeBreakdown::epCommExposedS, true},
        {"dp_comm_exposed", "DP comm", &TimeBreakdown::dpCommExposedS, true},
        {"straggler_wait", "stragglers", &TimeBreakdown::stragglerWaitS, true},
        {"optimizer", "optimizer", &TimeBreakdown::optimizerS, false},
    };
    return fields;
}

double TimeBreakdown::total() const {
    double sum = 0.0;
    for (const TimeBreakdownField& field : timeBreakdownFields())
        sum += this->*field.member;
    return sum;
}

double TimeBreakdown::waitingS() const {
    double sum = 0.0;
    for (const TimeBreakdownField& field : timeBreakdownFields())
        sum += field.waiting ? this->*field.member : 0.0;
    return sum;
}

void estimate(const PerfProblem& p, const ParallelConfig& c, double powerLimitW, PerfEstimate& e) {
    estimateMemory(p, c, e);
    if (e.reason != Infeasibility::None && e.reason != Infeasibility::OutOfMemory)
        return; // the configuration is not well-formed: no time to report
    e.powerLimit = p.powerLimits.at(powerLimitW);
    const StepRates r = stepRates(p, c, e);
    const LayerKinds kinds = layerKinds(p, c, r);
    const StagePace pace = stagePace(p, c, e, kinds);
    const double m = e.microBatches;
    e.time.computeS = m * pace.slowestStage;
    e.time.tpCommS = m * overLayers(
                             pace.stage, kinds, [](const LayerCosts& l) { return l.comm.tpPerLayer; },
                             [](const LayerCosts& l) { return l.comm.tpPerRecomputedLayer; });
    e.time.cpCommExposedS = m * overLayers(
                                    pace.stage, kinds, [](const LayerCosts& l) { return l.comm.cpPerLayer; },
                                    [](const LayerCosts& l) { return l.comm.cpPerRecomputedLayer; });
    e.time.epCommExposedS = m * overLayers(
                                    pace.stage, kinds, [](const LayerCosts& l) { return l.comm.epPerLayer; },
                                    [](const LayerCosts& l) { return l.comm.epPerRecomputedLayer; });
    e.time.pipelineBubbleS = (c.pp - 1.0) / c.interleave * pace.averageStage;
    e.time.ppCommS = pipelineCommS(p, c, r, m, pace);
    const StageParams stageParams = stageParamsPerGpu(p, c, e);
    e.time.dpCommExposedS = dataParallelCommS(p, c, r, m, kinds, pace, stageParams);
    // Compute and the pipeline's fill and drain run in lockstep over every GPU of the job (each micro-batch
    // waits for its neighbours, each step for the gradient reduction), so the slowest GPU sets their pace.
    e.time.stragglerWaitS =
        stragglerWaitS(p.calibration.gpuSpeedSpread, c.gpus(), e.time.computeS + e.time.pipelineBubbleS);
    const double optimizerParams =
        stageParams.dense / (c.distributedOptimizer || c.fullySharded ? c.dp * c.cp : 1) +
        stageParams.experts / (c.distributedOptimizer ? c.expertDataParallel() : 1);
    e.time.optimizerS = optimizerParams * kOptimizerTrafficBytes / p.hbmBytesPerS;
    fillRates(p, c, kinds.dense.k, pace, e);
    fillPower(p, c, r, kinds, pace, e);
}

PerfEstimate estimate(const PerfProblem& problem, const ParallelConfig& config, double powerLimitW) {
    PerfEstimate result;
    estimate(problem, config, powerLimitW, result);
    return result;
}

} // namespace carbon3d
