// SPDX-License-Identifier: MIT
#include "cli/PerfCli.h"

#include "config/Presets.h"
#include "domain/ModelShape.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d::cli {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

JsonValue number(double value) {
    return JsonValue::makeNumber(std::isfinite(value) ? value : 0.0);
}

// The shape flags and the model-file keys they set, in the order the flags are documented.
struct ShapeFlag {
    const char* flag;
    const char* key;
};
constexpr ShapeFlag kShapeFlags[] = {{"layers", "layers"},     {"hidden", "hidden"},  {"heads", "heads"},
                                     {"kv-heads", "kv_heads"}, {"ffn", "ffn_hidden"}, {"vocab", "vocab"},
                                     {"seq-len", "seq_len"}};

bool anyShapeFlag(const CliArguments& args) {
    bool any = args.has("gated-mlp") || args.has("no-dropout");
    for (const ShapeFlag& shape : kShapeFlags)
        any = any || args.has(shape.flag);
    return any;
}

// The flag's whole number, any int: the range is a shape rule, checked with the others by checkModelShape.
std::optional<int> shapeFlagValue(const CliArguments& args, const char* flag) {
    return args.intValue(flag, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
}

int requiredShapeFlag(const CliArguments& args, const char* flag) {
    const auto value = shapeFlagValue(args, flag);
    if (!value)
        throw UsageError(std::string("--") + flag + " is required with a custom model shape");
    return *value;
}

// The first broken shape rule as a usage error naming the flag of the offending field, in the words a model
// file with the same shape gets.
void checkShapeFlags(const ModelSpec& model) {
    const std::vector<ModelShapeProblem> problems = checkModelShape(model);
    if (problems.empty())
        return;
    const ModelShapeProblem& first = problems.front();
    for (const ShapeFlag& shape : kShapeFlags) {
        if (first.field == shape.key)
            throw UsageError(std::string("--") + shape.flag + ": " + first.message);
    }
    throw UsageError(first.message);
}

// GPT's 4 x hidden. An out-of-range hidden is reported before ffn_hidden, so its default only has to not
// overflow.
int defaultFfn(int hidden) {
    constexpr long long kLowest = std::numeric_limits<int>::min();
    constexpr long long kHighest = std::numeric_limits<int>::max();
    return static_cast<int>(std::clamp(4LL * hidden, kLowest, kHighest));
}

ModelSpec customModelFromArgs(const CliArguments& args) {
    ModelSpec m;
    m.layers = requiredShapeFlag(args, "layers");
    m.hidden = requiredShapeFlag(args, "hidden");
    m.heads = requiredShapeFlag(args, "heads");
    m.vocab = requiredShapeFlag(args, "vocab");
    m.seqLen = requiredShapeFlag(args, "seq-len");
    m.kvHeads = shapeFlagValue(args, "kv-heads").value_or(m.heads);
    m.ffnHidden = shapeFlagValue(args, "ffn").value_or(defaultFfn(m.hidden));
    m.gatedMlp = args.has("gated-mlp");
    m.dropout = !args.has("no-dropout");
    m.name = "custom";
    checkShapeFlags(m);
    return m;
}

// The model from --model PRESET|FILE or from the shape flags (UsageError when both or neither).
ModelSpec modelFromArgs(const CliArguments& args) {
    const bool anyShape = anyShapeFlag(args);
    if (const auto model = args.value("model")) {
        if (anyShape)
            throw UsageError("give either --model or the shape flags (--layers ...), not both");
        return resolveModel(*model);
    }
    if (!anyShape)
        throw UsageError("no model: give --model PRESET|FILE or --layers --hidden --heads --vocab --seq-len");
    return customModelFromArgs(args);
}

ClusterProfile clusterFromArgs(const CliArguments& args) {
    const auto id = args.value("cluster");
    if (!id)
        throw UsageError("--cluster PRESET|FILE is required");
    ClusterProfile cluster = resolveCluster(*id);
    if (const auto k = args.intValue("gpus-per-node", 1, 1024))
        cluster.gpusPerNode = *k;
    if (const auto x = args.doubleValue("intra-bw", 1e-3, 1e6))
        cluster.intraNodeBytesPerS = *x * 1e9;
    if (const auto y = args.doubleValue("inter-bw", 1e-3, 1e6))
        cluster.interNodeBytesPerS = *y * 1e9;
    return cluster;
}

Precision precisionFromArgs(const CliArguments& args) {
    const std::string text = args.value("precision").value_or("bf16");
    if (const auto precision = parsePrecision(text))
        return *precision; // whether the accelerator has it is the model's to say (PrecisionUnsupported)
    throw UsageError("--precision expects one of " + precisionNames() + ", found '" + text + "'");
}

double powerLimitFromArgs(const CliArguments& args, const ClusterProfile& cluster) {
    const auto limit = args.doubleValue("power-limit", 1.0, 100000.0);
    if (!limit)
        return 0.0;
    if (cluster.accelerator.tdpW > 0.0 &&
        (*limit > cluster.accelerator.tdpW || *limit < cluster.accelerator.minPowerLimitW))
        throw UsageError("--power-limit must lie between the accelerator's minimum (" +
                         std::to_string(static_cast<int>(cluster.accelerator.minPowerLimitW)) +
                         " W) and TDP (" + std::to_string(static_cast<int>(cluster.accelerator.tdpW)) +
                         " W)");
    return *limit;
}

} // namespace

std::vector<FlagSpec> perfModelFlags() {
    return {
        {"model", true, false, "PRESET|FILE", "model preset id or model JSON file"},
        {"layers", true, false, "L", "transformer layers (instead of --model)"},
        {"hidden", true, false, "H", "hidden size"},
        {"heads", true, false, "A", "attention heads"},
        {"kv-heads", true, false, "G", "key/value heads (GQA; default = heads)"},
        {"ffn", true, false, "F", "MLP hidden size (default 4H)"},
        {"gated-mlp", false, false, "", "SwiGLU-style gated MLP (Llama)"},
        {"no-dropout", false, false, "", "trained without dropout (Llama): no dropout masks stored"},
        {"vocab", true, false, "V", "vocabulary size"},
        {"seq-len", true, false, "S", "sequence length, tokens"},
        {"cluster", true, false, "PRESET|FILE", "cluster preset id or cluster JSON file"},
        {"gpus-per-node", true, false, "K", "override GPUs per node"},
        {"intra-bw", true, false, "X", "override intra-node bandwidth, GB/s per GPU per direction"},
        {"inter-bw", true, false, "Y", "override inter-node bandwidth, GB/s per GPU per direction"},
        {"precision", true, false, precisionNames("|"), "training precision (default bf16)"},
        {"bf16-weights", false, false, "",
         "fp8 only: keep a BF16 copy of the weights (Megatron-LM's default; NeMo's FP8 recipes hold them in "
         "FP8)"},
        {"bf16-grads", false, false, "",
         "16-bit and fp8 only: hold the gradient buffer in 16 bits (NeMo's grad_sync_dtype bf16; Megatron-LM "
         "keeps fp32)"},
        {"attention", true, false, "flash|materialized",
         "attention kernel (default: flash where the accelerator has it)"},
        {"cross-node-tp", false, false, "", "let a tensor-parallel group straddle nodes (network bandwidth)"},
        {"cp", true, false, "C", "context-parallel degree: each sequence split over C GPUs (default 1)"},
        {"power-limit", true, false, "W", "per-GPU power limit, W (default: TDP)"},
        {"json", false, false, "", "print JSON"},
    };
}

PerfModelInputs perfModelInputsFromArgs(const CliArguments& args) {
    PerfModelInputs in;
    in.job.model = modelFromArgs(args);
    in.cluster = clusterFromArgs(args);
    in.job.precision = precisionFromArgs(args);
    in.powerLimitW = powerLimitFromArgs(args, in.cluster);
    if (const auto text = args.value("attention")) {
        in.job.attention = parseAttentionKernel(*text);
        if (!in.job.attention)
            throw UsageError("--attention expects flash or materialized, found '" + *text + "'");
    }
    if (args.has("bf16-weights")) {
        if (in.job.precision != Precision::FP8)
            throw UsageError("--bf16-weights applies to --precision fp8 only");
        in.job.fp8Weights = false;
    }
    if (args.has("bf16-grads")) {
        if (const std::string problem = bf16GradientsProblem(in.job); !problem.empty())
            throw UsageError("--bf16-grads " + problem);
        in.job.bf16Gradients = true;
    }
    in.crossNodeTp = args.has("cross-node-tp");
    in.contextParallel = args.intValue("cp", 1, 4096).value_or(1);
    return in;
}

PerfProblem PerfModelInputs::problem() const {
    PerfProblem p = makePerfProblem(job, cluster);
    p.crossNodeTp = crossNodeTp;
    return p;
}

namespace {

// What each number of an estimate rests on. The analytic model produced them; a measured operating-points
// table is used by the engine's menu (buildExecutionMenu(table, cluster)), not by this command. The waiting
// phase is the board's measured draw when the cluster gives one (docs/MODEL.md#phase-powers).
JsonValue estimateSource(const PerfProblem& problem, const PerfEstimate& e) {
    JsonValue source = JsonValue::makeObject();
    source.insert("step_time", JsonValue::makeString("modelled"));
    source.insert("power", JsonValue::makeString("modelled"));
    source.insert("waiting_power", JsonValue::makeString(problem.waitW > 0.0 ? "measured" : "modelled"));
    source.insert("power_limit_curve",
                  JsonValue::makeString(e.powerLimit.measured ? "measured" : "modelled"));
    return source;
}

} // namespace

JsonValue estimateToJson(const PerfProblem& problem, const ParallelConfig& c, const PerfEstimate& e,
                         bool microBatchChosen, bool interleaveChosen) {
    JsonValue o = JsonValue::makeObject();
    o.insert("feasible", JsonValue::makeBool(e.feasible));
    o.insert("reason", JsonValue::makeString(infeasibilityText(e.reason)));
    o.insert("attention",
             JsonValue::makeString(attentionKernelName(
                 problem.flashAttention ? AttentionKernel::Flash : AttentionKernel::Materialized)));
    JsonValue config = JsonValue::makeObject();
    config.insert("dp", number(c.dp));
    config.insert("tp", number(c.tp));
    config.insert("pp", number(c.pp));
    config.insert("cp", number(c.cp));
    config.insert("ep", number(c.ep));
    config.insert("expert_tp", number(c.expertTp));
    config.insert("micro_batch", number(c.microBatch));
    config.insert("interleave", number(c.interleave));
    config.insert("recompute", JsonValue::makeString(recomputeName(c.recompute)));
    config.insert("recompute_layers", number(c.recomputeLayers));
    config.insert("sequence_parallel", JsonValue::makeBool(c.sequenceParallel));
    config.insert("distributed_optimizer", JsonValue::makeBool(c.distributedOptimizer));
    config.insert("fsdp", JsonValue::makeBool(c.fullySharded));
    config.insert("label", JsonValue::makeString(c.label()));
    o.insert("config", config);
    o.insert("micro_batch", number(c.microBatch));
    o.insert("micro_batch_chosen", JsonValue::makeBool(microBatchChosen));
    o.insert("interleave", number(c.interleave));
    o.insert("interleave_chosen", JsonValue::makeBool(interleaveChosen));
    o.insert("micro_batches_per_pipeline", number(e.microBatches));
    JsonValue stages = JsonValue::makeObject();
    stages.insert("first", number(e.stages.first));
    stages.insert("middle", number(e.stages.middle));
    stages.insert("last", number(e.stages.last));
    o.insert("stage_layers", stages);
    o.insert("weight_bytes_per_parameter", number(problem.weightBytes));
    o.insert("memory_gib_per_gpu", number(e.memory.totalBytes() / kGiB));
    JsonValue memory = JsonValue::makeObject();
    memory.insert("weights", number(e.memory.weightsBytes / kGiB));
    memory.insert("gradients", number(e.memory.gradientsBytes / kGiB));
    memory.insert("optimizer", number(e.memory.optimizerBytes / kGiB));
    memory.insert("activations", number(e.memory.activationsBytes / kGiB));
    memory.insert("reserve", number(e.memory.reserveBytes / kGiB));
    o.insert("memory_breakdown_gib", memory);
    o.insert("step_time_s", number(e.stepTimeS));
    o.insert("tokens_per_s", number(e.tokensPerS));
    o.insert("model_tflops_per_gpu", number(e.modelFlopsPerGpu / 1e12));
    o.insert("hardware_tflops_per_gpu", number(e.hardwareFlopsPerGpu / 1e12));
    o.insert("mfu", number(e.mfu));
    o.insert("power_limit_w", number(e.powerLimit.limitW));
    o.insert("gpu_average_power_w", number(e.power.gpuAverageW));
    o.insert("node_overhead_w", number(e.power.nodeOverheadW));
    o.insert("it_power_w", number(e.power.itPowerW));
    o.insert("facility_power_w", number(e.power.facilityPowerW));
    o.insert("energy_per_token_j", number(e.energyPerTokenJ));
    o.insert("embodied_g_per_token", number(e.embodiedGPerToken));
    JsonValue time = JsonValue::makeObject();
    for (const TimeBreakdownField& field : timeBreakdownFields())
        time.insert(field.key, number(e.time.*field.member));
    o.insert("breakdown_s", time);
    JsonValue phases = JsonValue::makeObject();
    phases.insert("forward", number(e.power.forwardW));
    phases.insert("backward", number(e.power.backwardW));
    phases.insert("optimizer", number(e.power.optimizerW));
    phases.insert("communication", number(e.power.commW));
    phases.insert("idle", number(e.power.idleW));
    o.insert("gpu_phase_power_w", phases);
    o.insert("source", estimateSource(problem, e));
    return o;
}

} // namespace carbon3d::cli
