// SPDX-License-Identifier: MIT
#include "validation/ResidualTransfer.h"

#include "validation/Statistics.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace carbon3d {

std::vector<double> correctionFeatures(const ResidualSample& sample, CorrectionTerms terms) {
    const ParallelConfig& c = sample.config;
    const double lt = std::log(c.tp), lp = std::log(c.pp), lb = std::log(c.microBatch);
    if (terms == CorrectionTerms::Linear)
        return {lt, lp, lb};
    return {lt, lp, lb, lt * lp, lt * lb, lp * lb};
}

std::vector<double> fitSharedCorrection(const std::vector<ResidualSample>& samples, CorrectionTerms terms,
                                        const std::string& heldOutGroup) {
    std::vector<const ResidualSample*> used;
    std::vector<std::string> groups;
    for (const ResidualSample& s : samples) {
        if (s.group == heldOutGroup)
            continue;
        used.push_back(&s);
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end())
            groups.push_back(s.group);
    }
    const auto featureCount = static_cast<Eigen::Index>(correctionFeatures({}, terms).size());
    const auto groupCount = static_cast<Eigen::Index>(groups.size());
    Eigen::MatrixXd design =
        Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(used.size()), groupCount + featureCount);
    Eigen::VectorXd logError(design.rows());
    for (Eigen::Index row = 0; row < design.rows(); ++row) {
        const ResidualSample& s = *used[static_cast<size_t>(row)];
        design(row, std::find(groups.begin(), groups.end(), s.group) - groups.begin()) = 1.0;
        const std::vector<double> f = correctionFeatures(s, terms);
        for (Eigen::Index k = 0; k < featureCount; ++k)
            design(row, groupCount + k) = f[static_cast<size_t>(k)];
        logError(row) = std::log(s.measuredS / s.predictedS);
    }
    // Complete orthogonal decomposition: the minimum-norm solution when a feature is constant in every group
    // (e.g. one micro-batch size throughout), where plain normal equations would be singular.
    const Eigen::VectorXd solution = design.completeOrthogonalDecomposition().solve(logError);
    return {solution.data() + groupCount, solution.data() + solution.size()};
}

double correctedSpearman(const std::vector<ResidualSample>& samples, const std::string& group,
                         CorrectionTerms terms, const std::vector<double>& coefficients) {
    std::vector<double> corrected, measured;
    for (const ResidualSample& s : samples) {
        if (s.group != group)
            continue;
        const std::vector<double> f = correctionFeatures(s, terms);
        double exponent = 0.0;
        for (size_t k = 0; k < f.size() && k < coefficients.size(); ++k)
            exponent += coefficients[k] * f[k];
        corrected.push_back(s.predictedS * std::exp(exponent));
        measured.push_back(s.measuredS);
    }
    return spearman(corrected, measured);
}

} // namespace carbon3d
