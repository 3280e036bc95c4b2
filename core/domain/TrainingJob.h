// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ModelSpec.h"
#include "domain/Precision.h"

#include <optional>
#include <string>
#include <string_view>

namespace carbon3d {

enum class Optimizer { AdamMixedPrecision }; // 18 bytes of state per parameter (docs/MODEL.md section 3)

// How the attention core (scores, softmax, weighted values) runs (docs/MODEL.md#attention).
enum class AttentionKernel {
    Flash,        // fused, tiled (FlashAttention): no s x s scores stored, causal blocks skipped
    Materialized, // scores and softmax written to memory as separate kernels (Megatron before 2023)
};
const char* attentionKernelName(AttentionKernel kernel); // "flash", "materialized"
std::optional<AttentionKernel> parseAttentionKernel(std::string_view text);

// What to train and how much of it.
struct TrainingJob {
    ModelSpec model;
    double tokens = 0.0; // training-token budget T (tokens)
    // The work to do in a measured operating-points table's units (its throughput x seconds), for a
    // scenario that runs on such a table; unset otherwise (the performance model's work is the tokens).
    std::optional<double> work;
    int globalBatch = 0; // global batch B, in sequences
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::AdamMixedPrecision;
    // Unset: FlashAttention where the accelerator has it (AcceleratorSpec::flashAttention), else
    // materialized. The validation sets name the materialized form: their runs predate FlashAttention.
    std::optional<AttentionKernel> attention;
    // FP8 only: the weights are held in FP8 (Transformer Engine's FP8 parameters, Megatron's
    // --fp8-param-gather), as NeMo's and Megatron-Bridge's FP8 recipes set; false keeps a BF16 copy
    // (Megatron-LM's default). It decides the weights' memory and the bytes the distributed optimizer
    // gathers (docs/MODEL.md section 3).
    bool fp8Weights = true;
    // The training stack can also shard the weights and gradients over the replicas (FSDP, ZeRO-3: PyTorch
    // FSDP2, torchtitan, Megatron's --use-torch-fsdp2), so the search offers it beside the distributed
    // optimizer. Off: Megatron-LM's 3D parallelism with the distributed optimizer, the stack the menus,
    // lessons and A100 validation are built on (docs/DECISIONS.md "FSDP is offered when the job asks").
    bool fsdp = false;
    // The training stack runs Megatron's interleaved 1F1B schedule (virtual pipeline stages), so the search
    // may split a stage into v > 1 chunks. Off: plain 1F1B only (v = 1), as DeepSpeed's pipeline engine and
    // stacks without virtual stages run; it also reads SC21's strong scaling as runs that did not
    // interleave (docs/DECISIONS.md "Interleaving is offered unless the job says its stack has none").
    bool interleave = true;
    // The training stack keeps the gradient buffer (Megatron-Core's main_grad) in 16 bits, 2 bytes a
    // parameter, and reduces it so: NeMo's recipes with `grad_sync_dtype: bf16`, Megatron-Core's
    // grad_reduce_in_fp32 off. Off: fp32 gradients, 4 bytes, as Megatron-LM forces for bf16 training and
    // Korthikanti et al.'s memory counts show. Only the memory changes (so which configurations fit and how
    // much they recompute); 32-bit training keeps 32-bit gradients either way (docs/DECISIONS.md "The
    // gradient buffer's width is the stack's").
    bool bf16Gradients = false;
    // Context parallelism: each sequence split over this many GPUs (docs/MODEL.md#context-parallel).
    // A property of the job, like its sequence length, whose memory it exists for: every configuration a
    // policy chooses from holds it, and dynamic 3D parallelism reshapes d, t and p around it
    // (docs/DECISIONS.md "Context parallelism is the job's, not the schedule's").
    int contextParallel = 1;
};

// Empty when the job's precision can hold 16-bit gradients (16-bit and fp8 training), else why not ("applies
// to 16-bit and fp8 training only; this job trains in fp32"). The scenario reader, estimate and the studio
// ask.
std::string bf16GradientsProblem(const TrainingJob& job);
// Whether the job holds its gradient buffer in 16 bits: its stack says so (bf16Gradients) and its precision
// can (the performance model's memory count asks).
bool holdsBf16Gradients(const TrainingJob& job);

// What the job's training stack does that changes what the search can offer (a schedule, a sharding, the
// memory a configuration needs), each a yes or no in the scenario's job under `key`: written only when it
// differs from `byDefault` (so earlier scenarios keep their fingerprints), and a study axis of the same key
// sweeps it. A switch with a `problem` applies only to the jobs it finds none in: the reader refuses it
// elsewhere, the writer leaves it out and the model ignores it. The scenario reader and writer, the study
// reader and the studio's check boxes use this list.
struct StackSwitch {
    std::string_view key;
    bool TrainingJob::*member;
    bool byDefault;
    std::string (*problem)(const TrainingJob&) = nullptr;

    bool appliesTo(const TrainingJob& job) const { return problem == nullptr || problem(job).empty(); }
};
inline constexpr StackSwitch kStackSwitches[] = {
    {"fsdp", &TrainingJob::fsdp, false},
    {"interleave", &TrainingJob::interleave, true},
    {"bf16_gradients", &TrainingJob::bf16Gradients, false, &bf16GradientsProblem},
};

// Whether cp ranks can split a sequence of seqLen tokens: Megatron's load-balanced causal split gives each
// rank two chunks, so 2 x cp must divide it. The performance model asks this of every configuration.
bool contextParallelSplits(int seqLen, int cp);

// Empty when the job's cp splits its sequence, else what is wrong ("does not split the sequence: its
// length 4096 must be a multiple of 2 x 3"). The scenario reader and the studio's form both ask this.
std::string contextParallelProblem(const TrainingJob& job);

} // namespace carbon3d
