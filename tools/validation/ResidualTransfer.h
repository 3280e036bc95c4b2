// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ParallelConfig.h"

#include <string>
#include <vector>

namespace carbon3d {

// Does the model's error depend on the configuration in the same way in every (model, GPU count) group of a
// measured set? If it does, a physical term shared by all groups is missing and worth finding; if a
// correction learned on some groups does not carry to another, the residual rank order is specific to each
// group's runs, and only constants per model (which the calibration rules out) could follow it.
//
// The correction is ln(measured / predicted) = a_group + sum_k c_k f_k(t, p, b), least squares, one
// intercept per group (which never changes a rank inside the group) and coefficients c shared by the groups.
struct ResidualSample {
    std::string group;
    ParallelConfig config;
    double predictedS = 0.0;
    double measuredS = 0.0;
};

enum class CorrectionTerms {
    Linear,  // ln t, ln p, ln b
    Pairwise // the linear terms and their three pairwise products
};

std::vector<double> correctionFeatures(const ResidualSample& sample, CorrectionTerms terms);

// Shared coefficients fitted on every sample whose group differs from `heldOutGroup` (empty: all samples).
std::vector<double> fitSharedCorrection(const std::vector<ResidualSample>& samples, CorrectionTerms terms,
                                        const std::string& heldOutGroup = {});

// Spearman rank correlation, inside `group`, of predictedS x exp(c . f) against measuredS.
double correctedSpearman(const std::vector<ResidualSample>& samples, const std::string& group,
                         CorrectionTerms terms, const std::vector<double>& coefficients);

} // namespace carbon3d
