// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ModelSpec.h"
#include "domain/Precision.h"

namespace carbon3d {

enum class Optimizer { AdamMixedPrecision }; // 18 bytes of state per parameter (docs/MODEL.md section 3)

// What to train and how much of it.
struct TrainingJob {
    ModelSpec model;
    double tokens = 0.0; // training-token budget T (tokens)
    int globalBatch = 0; // global batch B, in sequences
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::AdamMixedPrecision;
};

} // namespace carbon3d
