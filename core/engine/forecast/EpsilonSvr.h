// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Dense>

namespace carbon3d {

// Epsilon-insensitive support-vector regression with an RBF kernel (the model family Chase uses for its
// next-slot CI predictor; Yang et al. 2023). Two formulations:
//
// freeBias (scikit-learn's SVR, which is libsvm's): an unregularised bias b, f(x) = sum_i beta_i K(x_i, x)
// + b. Its dual has the equality constraint sum_i beta_i = 0, so it is solved pair by pair (sequential
// minimal optimisation over the 2n variables alpha, alpha*, the most violating pair each step, as Fan,
// Chen and Lin 2005 describe for libsvm) until the pair's violation is below `tolerance`; b from the free
// variables' gradients. Chase's own code fits this (C 100, gamma 1e-4, epsilon 0.1).
//
// Otherwise: exact dual coordinate descent on
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
        double tolerance = 1e-8; // stop when no coefficient moves more than this in a sweep (SMO: when the
                                 // most violating pair violates the optimality conditions by less)
        bool freeBias = false;   // the formulation with an unregularised bias (above)
    };
    EpsilonSvr() = default;
    explicit EpsilonSvr(Parameters parameters)
        : m_p(parameters) {}

    // Rows of x are samples. Returns the sweeps (SMO: pair steps) used.
    int fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y);
    double predict(const Eigen::VectorXd& x) const;
    const Eigen::VectorXd& coefficients() const { return m_beta; }
    double bias() const { return m_bias; }

private:
    double rbf(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const {
        return std::exp(-m_gamma * (a - b).squaredNorm());
    }
    // The folded form's kernel: the RBF plus the constant that stands for its regularised bias.
    double kernel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const {
        return rbf(a, b) + (m_p.freeBias ? 0.0 : 1.0);
    }
    int fitFolded(const Eigen::MatrixXd& k, const Eigen::VectorXd& y);
    int fitFreeBias(const Eigen::MatrixXd& k, const Eigen::VectorXd& y);

    Parameters m_p;
    Eigen::MatrixXd m_x;
    Eigen::VectorXd m_beta;
    double m_bias = 0.0; // freeBias only
    double m_gamma = 1.0;
};

} // namespace carbon3d
