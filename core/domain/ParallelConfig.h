// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace carbon3d {

enum class Recompute { None, Selective, Full };
inline constexpr Recompute kRecomputeModes[] = {Recompute::None, Recompute::Selective, Recompute::Full};
const char* recomputeName(Recompute recompute);                 // "none", "selective", "full"
std::optional<Recompute> parseRecompute(std::string_view text); // the inverse; nullopt for anything else
std::string recomputeModeNames(); // "none|selective|full", from kRecomputeModes, for messages and help

// One Megatron-style 3D-parallel configuration: n = dp * tp * pp * cp GPUs (cp = 1 unless the sequence is
// split over context-parallel ranks; docs/MODEL.md#context-parallel).
struct ParallelConfig {
    int dp = 1;         // data-parallel replicas d
    int tp = 1;         // tensor-parallel degree t
    int pp = 1;         // pipeline-parallel stages p
    int microBatch = 1; // micro-batch size b, sequences
    int interleave = 1; // virtual stages per GPU v (1 = plain 1F1B)
    Recompute recompute = Recompute::Full;
    bool sequenceParallel = false;
    bool distributedOptimizer = false;
    int cp = 1; // context-parallel degree: each sequence split over cp ranks (last, so older code reads on)
    // FSDP (ZeRO-3): the weights and gradients are sharded over the d x cp replicas as well as the optimizer
    // states, and each layer's weights are gathered just before they are used (docs/MODEL.md#fsdp).
    // Implies the distributed optimizer's sharding. The search offers it where d x cp > 1 when the job
    // asks (TrainingJob::fsdp; docs/DECISIONS.md, "FSDP").
    bool fullySharded = false;
    // Full recomputation of only the first N layers of every model chunk (Megatron's block method,
    // --recompute-method block --recompute-num-layers N): those layers keep just their input, the others
    // all their activations. 0 = every layer. The search takes the fewest that fit (docs/MODEL.md#block).
    int recomputeLayers = 0;
    // Expert parallelism, for a mixture of experts only (docs/MODEL.md#expert-parallel): an MoE layer's
    // routed experts are split over ep ranks, each expert's matrices over expertTp ranks. They fold over
    // the d x t x cp GPUs of a pipeline stage (Megatron-Core's expert-data-parallel groups: ep x expertTp
    // divides d x t x cp, and the expert-data-parallel degree is d x t x cp / (ep x expertTp)); they add no
    // GPUs. 1 and 1 for a dense model.
    int ep = 1;
    int expertTp = 1;

    int gpus() const { return dp * tp * pp * cp; }
    // The replicas of each expert: d x t x cp / (ep x expertTp) (0 when ep x expertTp does not divide). In
    // 64 bits: a layout typed by hand may ask for degrees whose product no int holds.
    int expertDataParallel() const {
        const long long group = static_cast<long long>(ep) * expertTp;
        const long long stage = static_cast<long long>(dp) * tp * cp;
        return group > 0 && stage % group == 0 ? static_cast<int>(stage / group) : 0;
    }
    // The layers of a stage of `stageLayers` layers whose activations are rebuilt in the backward pass: all
    // of them under full recomputation, at most N per model chunk with a block, none otherwise. Inline: the
    // memory check calls it per stage in the search's innermost loop.
    int recomputedLayers(int stageLayers) const {
        if (recompute != Recompute::Full)
            return 0;
        if (recomputeLayers <= 0)
            return stageLayers;
        return std::min(stageLayers, recomputeLayers * interleave); // a stage runs `interleave` chunks
    }
    bool operator==(const ParallelConfig&) const = default;
    // "d16 t8 p4 b1 v2 full", "d8 t8 c16 p16 b1 full sp", "d64 t1 p1 b4 full fsdp", "d4 t8 p8 v2 block2",
    // "d32 t2 p8 e16 b1 full sp dopt" (expert parallelism 16), "d8 t4 p4 e8 et4 b1 full sp"
    std::string label() const;
    // How the GPUs are split, as label() begins: "d16 t8 p4", "d8 t8 c16 p16", "d32 t2 p8 e16"
    std::string shapeLabel() const;
    std::string recomputeLabel() const; // "none", "selective", "full" (every layer), "block2" (N per chunk)
};

} // namespace carbon3d
