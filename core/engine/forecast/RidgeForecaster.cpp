// SPDX-License-Identifier: MIT
#include "engine/forecast/RidgeForecaster.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace carbon3d {

namespace {
constexpr double kAlpha = 1.0;
constexpr std::int64_t kTrainDays = 28;
} // namespace

RidgeForecaster::RidgeForecaster(const CarbonTrace& trace)
    : m_trace(trace)
    , m_fallback(trace,
                 static_cast<std::size_t>(kSecondsPerDay / std::max<std::int64_t>(1, trace.stepSeconds)),
                 "seasonal-day") {
    const std::int64_t step = std::max<std::int64_t>(1, trace.stepSeconds);
    m_slotsPerDay = static_cast<std::size_t>(std::max<std::int64_t>(1, kSecondsPerDay / step));
    const auto hourSlots = static_cast<std::size_t>(std::max<std::int64_t>(1, 3600 / step));
    for (std::size_t lag :
         {std::size_t{1}, hourSlots, 2 * hourSlots, 3 * hourSlots, 24 * hourSlots, 168 * hourSlots}) {
        if (std::find(m_lags.begin(), m_lags.end(), lag) == m_lags.end())
            m_lags.push_back(lag);
    }
    m_trainSlots = static_cast<std::size_t>(kTrainDays) * m_slotsPerDay;
}

void RidgeForecaster::features(std::size_t slot, const std::vector<double>& values, std::size_t valuesBase,
                               Eigen::VectorXd& row) const {
    // values[k] holds the (observed or predicted) value of slot valuesBase + k.
    Eigen::Index c = 0;
    row(c++) = 1.0;
    for (std::size_t lag : m_lags)
        row(c++) = values[slot - lag - valuesBase] / m_scale;
    const auto t = static_cast<double>(m_trace.slotStart(slot));
    const double hour = std::fmod(t, 86400.0) / 86400.0;
    const double week =
        std::fmod(t / 86400.0 + 3.0, 7.0) / 7.0; // 1970-01-01 was a Thursday: +3 -> Monday = 0
    row(c++) = std::sin(2.0 * std::numbers::pi * hour);
    row(c++) = std::cos(2.0 * std::numbers::pi * hour);
    row(c++) = std::sin(2.0 * std::numbers::pi * week);
    row(c++) = std::cos(2.0 * std::numbers::pi * week);
}

void RidgeForecaster::fit(std::size_t first) {
    const std::size_t maxLag = *std::max_element(m_lags.begin(), m_lags.end());
    const std::size_t begin = first > m_trainSlots + maxLag ? first - m_trainSlots : maxLag;
    const std::size_t rows = first > begin ? first - begin : 0;
    const auto columns = static_cast<Eigen::Index>(1 + m_lags.size() + 4);
    const std::vector<double>& y = m_trace.gPerKwh;
    double mean = 0.0;
    for (std::size_t j = begin; j < first; ++j)
        mean += y[j];
    m_scale = rows > 0 && mean > 0.0 ? mean / static_cast<double>(rows) : 1.0;
    Eigen::MatrixXd x(static_cast<Eigen::Index>(rows), columns);
    Eigen::VectorXd target(static_cast<Eigen::Index>(rows));
    Eigen::VectorXd row(columns);
    for (std::size_t j = begin; j < first; ++j) {
        const auto r = static_cast<Eigen::Index>(j - begin);
        features(j, y, 0, row);
        x.row(r) = row.transpose();
        target(r) = y[j] / m_scale;
    }
    Eigen::MatrixXd normal = x.transpose() * x;
    Eigen::MatrixXd penalty = Eigen::MatrixXd::Identity(columns, columns) * kAlpha;
    penalty(0, 0) = 0.0;
    m_beta = (normal + penalty).ldlt().solve(x.transpose() * target);
}

void RidgeForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    const std::size_t maxLag = *std::max_element(m_lags.begin(), m_lags.end());
    // Need the longest lag plus a week of rows to fit anything meaningful.
    if (first < maxLag + 7 * m_slotsPerDay) {
        m_fallback.predict(first, count, out);
        return;
    }
    const auto day = static_cast<std::int64_t>(first / m_slotsPerDay);
    if (day != m_fittedDay) {
        fit(first);
        m_fittedDay = day;
    }
    // Observed history for the lags, then the predictions appended as the recursion proceeds.
    const std::size_t base = first - maxLag;
    m_buffer.assign(m_trace.gPerKwh.begin() + static_cast<std::ptrdiff_t>(base),
                    m_trace.gPerKwh.begin() + static_cast<std::ptrdiff_t>(first));
    out.resize(count);
    Eigen::VectorXd row(m_beta.size());
    for (std::size_t i = 0; i < count; ++i) {
        features(first + i, m_buffer, base, row);
        const double value = std::max(0.0, row.dot(m_beta) * m_scale);
        out[i] = value;
        m_buffer.push_back(value);
    }
}

} // namespace carbon3d
