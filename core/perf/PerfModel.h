// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ParallelConfig.h"
#include "domain/TrainingJob.h"
#include "perf/PowerLimit.h"

#include <string>
#include <vector>

namespace carbon3d {

// Why a configuration cannot run. Plain enum so the hot path never builds strings.
enum class Infeasibility {
    None,
    BadDegrees,                // a degree < 1, or d*t*p does not match
    BatchNotDivisible,         // B is not a multiple of d*b
    HeadsNotDivisible,         // t does not divide the attention heads, KV heads, hidden or FFN size
    LayersNotDivisible,        // more stages than layers, or v > 1 without equal chunks (interleaveFits)
    InterleaveNeedsPipeline,   // v > 1 needs p > 1 and a micro-batch count that is a multiple of p
    SequenceParallelNeedsTp,   // SP with t = 1 is meaningless
    OutOfMemory,               // model states + activations + reserve exceed the GPU memory
    PrecisionUnsupported,      // the accelerator has no matrix-unit peak for the precision
    TpCrossesNodes,            // t does not divide the GPUs per node and cross-node TP was not asked for
    ContextParallelNeedsFlash, // cp > 1 runs ring attention, which is built on the fused (flash) kernel
    SequenceNotDivisible,      // cp > 1 needs the sequence length to be a multiple of 2 x cp
    ExpertsNotDivisible, // ep must divide the routed experts, ep x etp the stage's GPUs, etp the expert FFN
    ExpertLayout,        // expert parallelism without experts, MoE with t > 1 but no SP, or MoE under FSDP
};
// How many reasons there are (None included), for tables indexed by them; the last enumerator above sets it.
inline constexpr int kInfeasibilityCount = static_cast<int>(Infeasibility::ExpertLayout) + 1;
const char* infeasibilityText(Infeasibility reason);

// Everything about job and cluster the per-configuration model needs, precomputed once (plain numbers).
struct PerfProblem {
    // Model shape
    int layers = 0;
    int heads = 0;
    int kvHeads = 0;
    int hidden = 0;
    int ffn = 0;
    int vocab = 0;
    int seqLen = 0;
    int globalBatch = 0;
    double layerParams = 0.0;
    double firstStageExtraParams = 0.0; // input embedding (+ positions) on the first stage
    double lastStageExtraParams = 0.0;  // output layer on the last stage (tied copy for GPT when p > 1)
    double totalParams = 0.0;
    double linearFlopsPerTokenLayer = 0.0;    // forward GEMM FLOPs per token per layer (QKV, proj, MLP)
    double attentionFlopsPerTokenLayer = 0.0; // forward s x s batched GEMM FLOPs per token per layer (4 s h,
                                              // the Megatron convention: no causal saving counted)
    double logitFlopsPerToken = 0.0;
    // Mixture of experts (docs/MODEL.md#expert-parallel); all 0 (and moeLayersBefore empty) for a dense
    // model. The fields above describe its dense layers; an MoE layer has the same attention, and in
    // place of the dense MLP its shared experts (split over t like a dense MLP), the router and its routed
    // experts (split over ep x etp).
    int experts = 0;
    int expertsPerToken = 0;
    int expertFfn = 0;
    std::vector<int> moeLayersBefore;             // [i]: MoE layers among the first i (size layers + 1)
    double moeLayerDenseParams = 0.0;             // an MoE layer but its routed experts
    double routedExpertParams = 0.0;              // one routed expert
    double sharedMlpFlopsPerMatrixPerToken = 0.0; // the shared experts, one matrix, per token
    double routedFlopsPerMatrixPerToken = 0.0;    // one routed expert's matrix, per token it takes
    double routerFlopsPerToken = 0.0;
    double moeLinearFlopsPerTokenLayer =
        0.0;                          // as linearFlopsPerTokenLayer: attention, shared, k routed, router
    double moeActivationsSplit = 0.0; // as activationsSplit, the routed experts left out
    // Per token copy an expert takes, in s b h 16-bit values: its input and the MLP's intermediates
    // (Korthikanti's count for one MLP of expert_ffn_hidden).
    double routedActivationsPerCopy = 0.0;
    double moeFp8CastElementsPerToken = 0.0;
    // The busiest expert-parallel rank's token copies over the mean: the calibration's
    // expertLoadImbalance, capped by the model's capacity factor when it drops tokens.
    double busiestExpertLoad = 1.0;
    bool mixtureOfExperts() const { return experts > 0; }
    // Elements in and out of the layer's linear GEMMs per token (QKV, projection, MLP matrices), before the
    // division by t; what FP8 quantizes (PerfCalibration::fp8CastBytesPerElement). 0 outside FP8.
    double fp8CastElementsPerToken = 0.0;
    double qkvFlopsPerToken = 0.0, projFlopsPerToken = 0.0, mlpFlopsPerMatrixPerToken = 0.0;
    int mlpMatrices = 2;
    bool gated = false;
    double modelFlopsPerIteration = 0.0; // 3x forward, no recomputation
    double forwardFlopsPerIteration = 0.0;
    double tokensPerIteration = 0.0;
    // Precision
    double peakFlops = 0.0; // dense matrix-unit FLOP/s per GPU at this precision
    // Peak of the GEMMs that stay in 16 bits: the attention core and the output layer, which FP8 training
    // (Transformer Engine) keeps in BF16; equal to peakFlops otherwise.
    double sixteenBitPeakFlops = 0.0;
    bool flashAttention = false; // the attention kernel (TrainingJob::attention resolved for the accelerator)
    int kvHeadDim = 0;           // hidden x kv_heads / heads: the K and V width context parallelism sends
    // Korthikanti's activations of one layer split over t (Q, K, V, the projection's input, the MLP's
    // intermediates), in units of s b h 16-bit values, for this shape (docs/MODEL.md#activations); 24 for
    // GPT, the published figure.
    double activationsSplit = 24.0;
    // The rest of Korthikanti's count (docs/MODEL.md#activations), in the same units: what every tensor-
    // parallel rank keeps whole (10 with dropout: two norm inputs, the QKV and MLP inputs, two dropout
    // masks; 8 without) and the stored scores per a s / h (5 with dropout: softmax output, dropout mask and
    // output; 2 without).
    double sharedActivations = 10.0;
    double scoreActivations = 5.0;
    double weightBytes = 2.0;   // per parameter, as forward/backward read them (1 for FP8 weights)
    double gradientBytes = 4.0; // per parameter held for the gradient buffer (2 when the stack keeps 16 bits)
    double activationBytes = 2.0;
    // Per value of the tokens an expert dispatch sends: 1 under FP8 (DeepSeek-V3 and DeepEP dispatch in
    // FP8 and combine in BF16), the activations' bytes otherwise.
    double dispatchBytes = 2.0;
    // Cluster
    int gpusPerNode = 8;
    // A tensor-parallel group may straddle nodes (priced at the network's bandwidth); off by default, since
    // Megatron-LM places each group inside a node and one that straddles runs far slower.
    bool crossNodeTp = false;
    double memoryBytes = 0.0;
    double hbmBytesPerS = 0.0;
    double intraBytesPerS = 0.0; // nominal, per GPU one direction (x calibration efficiency when used)
    double interBytesPerS = 0.0;
    double tdpW = 0.0;
    double idleW = 0.0;
    double waitW = 0.0; // AcceleratorSpec::waitW: 0 when not measured
    double nodeOverheadW = 0.0;
    double pue = 1.0;
    double embodiedGPerGpuSecond = 0.0;
    PerfCalibration calibration;
    PowerLimitModel powerLimits;
};

PerfProblem makePerfProblem(const TrainingJob& job, const ClusterProfile& cluster);

struct MemoryBreakdown {
    double weightsBytes = 0.0;
    double gradientsBytes = 0.0;
    double optimizerBytes = 0.0;
    double activationsBytes = 0.0;
    double reserveBytes = 0.0;
    // Weights, gradients and optimizer states: what Korthikanti et al. call the model states.
    double modelStatesBytes() const { return weightsBytes + gradientsBytes + optimizerBytes; }
    double totalBytes() const { return modelStatesBytes() + activationsBytes + reserveBytes; }
};

struct TimeBreakdown {
    double computeS = 0.0;        // m micro-batches through the slowest stage (incl. recomputation)
    double pipelineBubbleS = 0.0; // (p - 1)/v stage times of fill and drain
    double tpCommS = 0.0;         // tensor-parallel all-reduce / reduce-scatter + all-gather (not overlapped)
    double ppCommS = 0.0;         // pipeline point-to-point sends
    double cpCommExposedS = 0.0;  // context-parallel K/V ring traffic not hidden behind attention
    double epCommExposedS = 0.0;  // expert dispatch and combine (all-to-all) not hidden behind compute
    double dpCommExposedS = 0.0;  // gradient all-reduce not hidden behind backward
    double stragglerWaitS = 0.0;  // every GPU waits for the slowest of those it synchronises with
    double optimizerS = 0.0;      // Adam step, HBM-bound
    double total() const;
    // The parts the GPU spends waiting (drawing its waiting power, docs/MODEL.md#phase-powers).
    double waitingS() const;
};

// The parts of a step, once, for every place that lists or sums them (the estimate's text and JSON, the
// studio's breakdown plot).
struct TimeBreakdownField {
    const char* key;   // JSON key under "breakdown_s", e.g. "dp_comm_exposed"
    const char* label; // short label for text and plots, e.g. "DP comm"
    double TimeBreakdown::*member;
    bool waiting; // the GPU waits (communication, bubble, stragglers) rather than computes
};
const std::vector<TimeBreakdownField>& timeBreakdownFields();

// Per-GPU power by phase (W) and the resulting averages.
struct PowerBreakdown {
    double forwardW = 0.0, backwardW = 0.0, optimizerW = 0.0, commW = 0.0,
           idleW = 0.0;          // per GPU, at the limit
    double computeW = 0.0;       // average over the compute phase: GEMMs as saturated as they run (MODEL 5.1)
    double gpuAverageW = 0.0;    // time-weighted over one step, per active GPU
    double nodeOverheadW = 0.0;  // all occupied nodes
    double itPowerW = 0.0;       // active GPUs + their nodes' overhead
    double facilityPowerW = 0.0; // itPowerW x PUE
};

// How the layers spread over the pipeline's stages (docs/MODEL.md#stage-split): as evenly as possible, the
// extra layers on the middle stages first, since the first stage holds the embedding and the most
// micro-batches in flight and the last runs the output layer.
struct StageSplit {
    int first = 0;  // layers on stage 0
    int middle = 0; // layers on the most loaded middle stage (stage 1); 0 when p < 3
    int last = 0;   // layers on stage p - 1
    // Of those, the MoE layers (countMoeLayers; 0 for a dense model); middleMoe is the most any middle stage
    // of `middle` layers holds.
    int firstMoe = 0;
    int middleMoe = 0;
    int lastMoe = 0;
    bool even() const { return first == last && (middle == 0 || middle == first); }
};
// `stages` >= 1 and <= layers.
StageSplit splitLayers(int layers, int stages);
// Whether v virtual stages per GPU split the layers into equal model chunks, as Megatron's interleaved
// schedule needs: p x v divides the layers, or p x v divides the layers + 2 with the first and the last
// stage one layer short (the embedding and the loss each counted as a layer: Megatron-Core's
// account-for-embedding/loss split, the layout of Llama 3 405B: 126 layers as 128 slots on 16 stages).
bool interleaveFits(int layers, int stages, int interleave);
// Fills the split's MoE layer counts from problem.moeLayersBefore (the extra layers of an uneven split on
// the first middle stages).
void countMoeLayers(const PerfProblem& problem, int stages, StageSplit& split);
// The splits the search offers: p divides the layers, or p divides the layers + 2 (the embedding and the
// loss each take a layer's slot: Megatron-Core's account-for-embedding/loss split, Llama 3 405B's 126 layers
// on 16 stages, BLOOM's 70 on 12). Any other uneven split is estimated when named, not searched.
bool balancedSplit(int layers, int stages);

struct PerfEstimate {
    bool feasible = false;
    Infeasibility reason = Infeasibility::None;
    int gpus = 0;
    int microBatches = 0;   // m = B / (d b)
    StageSplit stages;      // transformer layers per pipeline stage
    MemoryBreakdown memory; // per GPU, on the most loaded stage
    TimeBreakdown time;
    double stepTimeS = 0.0;
    double tokensPerS = 0.0;
    double modelFlopsPerGpu = 0.0;    // FLOP/s, no recomputation counted (MFU convention)
    double hardwareFlopsPerGpu = 0.0; // FLOP/s, recomputation counted (SC21 Table 1 convention)
    double mfu = 0.0;
    PowerBreakdown power;
    PowerLimitEffect powerLimit;
    double energyPerTokenJ = 0.0;   // facility energy per token
    double embodiedGPerToken = 0.0; // embodied emissions of the active GPUs per token
};

// Memory only (cheap): fills estimate.memory, feasible and reason. Used by the search to prune.
void estimateMemory(const PerfProblem& problem, const ParallelConfig& config, PerfEstimate& estimate);

// The whole model for one configuration. No allocation. powerLimitW <= 0: the default (TDP) limit.
void estimate(const PerfProblem& problem, const ParallelConfig& config, double powerLimitW,
              PerfEstimate& estimate);
PerfEstimate estimate(const PerfProblem& problem, const ParallelConfig& config, double powerLimitW = 0.0);

// Ring all-reduce time of `bytes` over k ranks: 2 (k-1)/k bytes / bandwidth + latency (docs/MODEL.md
// section 4.3).
double ringAllReduceS(double bytes, int ranks, double bytesPerS, double latencyS);
// The fixed time of one collective over ranks on `nodes` nodes: the calibration's per-call latency, and
// beyond one node the network's, which grows with the depth of the tree NCCL runs small messages on
// (docs/MODEL.md#collective-latency).
double collectiveLatencyS(const PerfCalibration& calibration, int nodes);
// Matrix-unit efficiency of one GEMM of `flops` FLOPs under the calibration's saturation curve.
double gemmEfficiency(const PerfCalibration& calibration, double flops);

} // namespace carbon3d
