// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ModelSpec.h"
#include "domain/Precision.h"

#include <optional>

namespace carbon3d {

enum class Optimizer { AdamMixedPrecision }; // 18 bytes of state per parameter (docs/MODEL.md section 3)

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
};

} // namespace carbon3d
