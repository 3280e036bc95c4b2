// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Dense>

namespace carbon3d {

// Epsilon-insensitive support-vector regression with an RBF kernel (the model family Chase uses for its
// next-slot CI predictor; Yang et al. 2023). Solver: exact dual coordinate descent on
//   min 1/2 b' (K + 1) b - y' b + epsilon |b|_1,  -C <= b_i <= C,
// where the constant 1 added to the kernel stands for a (regularised) bias term. With the bias folded
// into the kernel the dual has no equality constraint, so each coordinate step is a closed-form
// soft-threshold-and-clip and the method converges to the global optimum of this convex problem without
// an SMO working-set pair. Chosen over LS-SVM because LS-SVM loses the epsilon-tube (every point becomes
// a support vector), which is not what Chase's SVR does. Sizes are tiny (48 points): dense Eigen.
class EpsilonSvr {
public:
    struct Parameters {
        double c = 1.0;       // box constraint (scikit-learn's default)
        double epsilon = 0.1; // tube half-width, in the (standardised) target's units
        double gamma = 0.0;   // RBF width 1/length^2; <= 0: 1 / (features x variance of X) ("scale")
        int maxSweeps = 500;
        double tolerance = 1e-8; // stop when no coefficient moves more than this in a sweep
    };
    EpsilonSvr() = default;
    explicit EpsilonSvr(Parameters parameters)
        : m_p(parameters) {}

    // Rows of x are samples. Returns the sweeps used.
    int fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y);
    double predict(const Eigen::VectorXd& x) const;
    const Eigen::VectorXd& coefficients() const { return m_beta; }

private:
    double kernel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const {
        return std::exp(-m_gamma * (a - b).squaredNorm()) + 1.0;
    }

    Parameters m_p;
    Eigen::MatrixXd m_x;
    Eigen::VectorXd m_beta;
    double m_gamma = 1.0;
};

} // namespace carbon3d
