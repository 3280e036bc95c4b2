// SPDX-License-Identifier: MIT
#include "engine/forecast/EpsilonSvr.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d {

int EpsilonSvr::fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
    const Eigen::Index n = x.rows();
    m_x = x;
    m_beta = Eigen::VectorXd::Zero(n);
    m_bias = 0.0;
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
    return m_p.freeBias ? fitFreeBias(k, y) : fitFolded(k, y);
}

int EpsilonSvr::fitFolded(const Eigen::MatrixXd& k, const Eigen::VectorXd& y) {
    const Eigen::Index n = k.rows();
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

// The dual over z = (alpha, alpha*), 2n variables with signs s = (+1..., -1...):
//   min 1/2 z' Q z + p' z,  Q_ab = s_a s_b K(a mod n, b mod n),  p = (eps - y, eps + y),
//   0 <= z <= C,  s' z = 0,
// and beta = alpha - alpha*. Each step moves the most violating pair along the constraint, the exact
// minimum on the segment the box leaves it.
int EpsilonSvr::fitFreeBias(const Eigen::MatrixXd& k, const Eigen::VectorXd& y) {
    const Eigen::Index n = k.rows();
    const Eigen::Index m = 2 * n;
    const auto sign = [n](Eigen::Index a) { return a < n ? 1.0 : -1.0; };
    const auto q = [&](Eigen::Index a, Eigen::Index b) { return sign(a) * sign(b) * k(a % n, b % n); };
    Eigen::VectorXd z = Eigen::VectorXd::Zero(m);
    Eigen::VectorXd gradient(m); // Q z + p
    for (Eigen::Index a = 0; a < m; ++a)
        gradient(a) = m_p.epsilon - sign(a) * y(a % n);
    const double c = m_p.c;
    const auto canRise = [&](Eigen::Index a) { return sign(a) > 0 ? z(a) < c : z(a) > 0.0; };
    const auto canFall = [&](Eigen::Index a) { return sign(a) > 0 ? z(a) > 0.0 : z(a) < c; };
    const int maxSteps = m_p.maxSweeps * static_cast<int>(m);
    int step = 0;
    for (; step < maxSteps; ++step) {
        Eigen::Index i = -1;
        Eigen::Index j = -1;
        double up = -std::numeric_limits<double>::infinity();
        double low = std::numeric_limits<double>::infinity();
        for (Eigen::Index a = 0; a < m; ++a) {
            const double v = -sign(a) * gradient(a);
            if (canRise(a) && v > up) {
                up = v;
                i = a;
            }
            if (canFall(a) && v < low) {
                low = v;
                j = a;
            }
        }
        if (i < 0 || j < 0 || up - low < m_p.tolerance)
            break;
        // Move z_i by s_i t and z_j by -s_j t (the constraint holds): the objective falls by
        // t (up - low) - t^2 curvature / 2 along it.
        const double curvature = std::max(k(i % n, i % n) + k(j % n, j % n) - 2.0 * k(i % n, j % n), 1e-12);
        double t = (up - low) / curvature;
        t = std::min(t, sign(i) > 0 ? c - z(i) : z(i));
        t = std::min(t, sign(j) > 0 ? z(j) : c - z(j));
        const double di = sign(i) * t;
        const double dj = -sign(j) * t;
        z(i) += di;
        z(j) += dj;
        for (Eigen::Index a = 0; a < m; ++a)
            gradient(a) += q(a, i) * di + q(a, j) * dj;
    }
    for (Eigen::Index a = 0; a < n; ++a)
        m_beta(a) = z(a) - z(a + n);
    // The bias: the mean of -s_a G_a over the free variables, where the optimality conditions pin it;
    // with none free, the middle of the interval the bounded ones leave.
    double sum = 0.0;
    int free = 0;
    double upper = std::numeric_limits<double>::infinity();
    double lower = -std::numeric_limits<double>::infinity();
    for (Eigen::Index a = 0; a < m; ++a) {
        const double v = -sign(a) * gradient(a);
        if (z(a) > 0.0 && z(a) < c) {
            sum += v;
            ++free;
        } else if (canRise(a)) {
            lower = std::max(lower, v);
        } else {
            upper = std::min(upper, v);
        }
    }
    m_bias =
        free > 0 ? sum / free : (std::isfinite(upper) && std::isfinite(lower) ? (upper + lower) / 2.0 : 0.0);
    return step;
}

double EpsilonSvr::predict(const Eigen::VectorXd& x) const {
    double sum = m_bias;
    for (Eigen::Index i = 0; i < m_x.rows(); ++i)
        if (m_beta(i) != 0.0)
            sum += m_beta(i) * kernel(m_x.row(i).transpose(), x);
    return sum;
}

} // namespace carbon3d
