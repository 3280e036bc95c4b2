// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d {

enum class Recompute { None, Selective, Full };
const char* recomputeName(Recompute recompute); // "none", "selective", "full"

// One Megatron-style 3D-parallel configuration: n = dp * tp * pp GPUs.
struct ParallelConfig {
    int dp = 1;         // data-parallel replicas d
    int tp = 1;         // tensor-parallel degree t
    int pp = 1;         // pipeline-parallel stages p
    int microBatch = 1; // micro-batch size b, sequences
    int interleave = 1; // virtual stages per GPU v (1 = plain 1F1B)
    Recompute recompute = Recompute::Full;
    bool sequenceParallel = false;
    bool distributedOptimizer = false;

    int gpus() const { return dp * tp * pp; }
    bool operator==(const ParallelConfig&) const = default;
    std::string label() const; // "d16 t8 p4 b1 v1 full"
};

} // namespace carbon3d
