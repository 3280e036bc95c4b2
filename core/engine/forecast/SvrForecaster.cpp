// SPDX-License-Identifier: MIT
#include "engine/forecast/SvrForecaster.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace carbon3d {

SvrForecaster::SvrForecaster(const CarbonTrace& trace, SvrFit fit, std::size_t trainSlots)
    : m_trace(trace)
    , m_fit(fit)
    , m_trainSlots(std::max<std::size_t>(2, trainSlots))
    , m_svr(parametersOf(fit))
    , m_slotsPerDay(static_cast<std::size_t>(kSecondsPerDay / std::max<std::int64_t>(1, trace.stepSeconds))) {
}

EpsilonSvr::Parameters SvrForecaster::parametersOf(SvrFit fit) {
    EpsilonSvr::Parameters p;
    if (fit == SvrFit::OnceRaw) {
        p.c = 100.0;
        p.gamma = 1e-4;
        p.epsilon = 0.1;
        p.freeBias = true;
        p.tolerance = 1e-9; // far below scikit-learn's 1e-3: the optimum itself, not a stop near it
    }
    return p;
}

Eigen::VectorXd SvrForecaster::features(std::size_t slot, double previous) const {
    const std::int64_t startSlot = m_trace.startUtc / m_trace.stepSeconds; // UTC slot of day of slot 0
    const auto perDay = static_cast<std::int64_t>(m_slotsPerDay);
    const auto ofDay =
        static_cast<double>(((startSlot + static_cast<std::int64_t>(slot)) % perDay + perDay) % perDay);
    // Chase's code counts the slots of a day from 1.
    const double encoded = ofDay + (m_fit == SvrFit::OnceRaw ? 1.0 : 0.0);
    const double phase = 2.0 * std::numbers::pi * encoded / static_cast<double>(m_slotsPerDay);
    Eigen::VectorXd x(3);
    x << std::sin(phase), std::cos(phase), (previous - m_prevMean) / m_prevScale;
    return x;
}

void SvrForecaster::fitBefore(std::size_t first) {
    const std::vector<double>& y = m_trace.gPerKwh;
    const std::size_t a = first - m_trainSlots;
    const auto n = static_cast<double>(m_trainSlots);
    if (m_fit == SvrFit::RefitStandardised) {
        double sumY = 0.0;
        double sumPrev = 0.0;
        for (std::size_t j = a; j < first; ++j) {
            sumY += y[j];
            sumPrev += y[j - 1];
        }
        m_yMean = sumY / n;
        m_prevMean = sumPrev / n;
        double varY = 0.0;
        double varPrev = 0.0;
        for (std::size_t j = a; j < first; ++j) {
            varY += (y[j] - m_yMean) * (y[j] - m_yMean);
            varPrev += (y[j - 1] - m_prevMean) * (y[j - 1] - m_prevMean);
        }
        // A flat window has no scale: 1 keeps the arithmetic finite (every target is then 0).
        m_yScale = varY > 0.0 ? std::sqrt(varY / n) : 1.0;
        m_prevScale = varPrev > 0.0 ? std::sqrt(varPrev / n) : 1.0;
    }
    Eigen::MatrixXd x(static_cast<Eigen::Index>(m_trainSlots), 3);
    Eigen::VectorXd t(static_cast<Eigen::Index>(m_trainSlots));
    for (std::size_t j = a; j < first; ++j) {
        const auto row = static_cast<Eigen::Index>(j - a);
        x.row(row) = features(j, y[j - 1]).transpose();
        t(row) = (y[j] - m_yMean) / m_yScale;
    }
    m_svr.fit(x, t);
    m_fittedFirst = first;
}

void SvrForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    out.assign(count, 0.0);
    const std::vector<double>& y = m_trace.gPerKwh;
    if (first < m_trainSlots + 1) {
        const double last = first == 0 ? y.front() : y[std::min(first, y.size()) - 1];
        std::fill(out.begin(), out.end(), last);
        return;
    }
    const bool fitted = m_fittedFirst != static_cast<std::size_t>(-1);
    if (m_fit == SvrFit::OnceRaw ? !fitted : m_fittedFirst != first)
        fitBefore(first);
    double previous = y[first - 1];
    for (std::size_t i = 0; i < count; ++i) {
        const double value = std::max(0.0, m_yMean + m_yScale * m_svr.predict(features(first + i, previous)));
        out[i] = value;
        previous = value;
    }
}

} // namespace carbon3d
