// SPDX-License-Identifier: MIT
#include "engine/forecast/EpsilonSvr.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

int EpsilonSvr::fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
    const Eigen::Index n = x.rows();
    m_x = x;
    m_beta = Eigen::VectorXd::Zero(n);
    m_gamma = m_p.gamma;
    if (m_gamma <= 0.0) {
        const double mean = x.mean();
        const double variance = (x.array() - mean).square().mean();
        m_gamma = variance > 0.0 ? 1.0 / (static_cast<double>(x.cols()) * variance) : 1.0;
    }
    if (n == 0)
        return 0;
    Eigen::MatrixXd k(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j <= i; ++j)
            k(i, j) = k(j, i) = kernel(x.row(i).transpose(), x.row(j).transpose());
    Eigen::VectorXd kBeta = Eigen::VectorXd::Zero(n); // K b, kept up to date
    int sweep = 0;
    for (; sweep < m_p.maxSweeps; ++sweep) {
        double largestMove = 0.0;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double kii = k(i, i);
            // 1-D problem in b_i: 1/2 kii b^2 + r b + eps |b|, r = sum_{j != i} K_ij b_j - y_i.
            const double r = kBeta(i) - kii * m_beta(i) - y(i);
            const double shrunk = std::copysign(std::max(std::abs(r) - m_p.epsilon, 0.0), r);
            const double next = std::clamp(-shrunk / kii, -m_p.c, m_p.c);
            const double delta = next - m_beta(i);
            if (delta != 0.0) {
                kBeta += delta * k.col(i);
                m_beta(i) = next;
                largestMove = std::max(largestMove, std::abs(delta));
            }
        }
        if (largestMove <= m_p.tolerance)
            return sweep + 1;
    }
    return sweep;
}

double EpsilonSvr::predict(const Eigen::VectorXd& x) const {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < m_x.rows(); ++i)
        if (m_beta(i) != 0.0)
            sum += m_beta(i) * kernel(m_x.row(i).transpose(), x);
    return sum;
}

} // namespace carbon3d
