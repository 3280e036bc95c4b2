// SPDX-License-Identifier: MIT
#include "engine/forecast/OracleForecaster.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>

namespace carbon3d {

OracleForecaster::OracleForecaster(const CarbonTrace& trace, double errorFraction, std::uint64_t seed)
    : m_trace(trace)
    , m_name(errorFraction > 0.0 ? "noisy" : "oracle") {
    if (errorFraction <= 0.0 || trace.empty())
        return;
    const double mean =
        std::accumulate(trace.gPerKwh.begin(), trace.gPerKwh.end(), 0.0) / static_cast<double>(trace.size());
    const double sigma = errorFraction * mean;
    // Box-Muller on mt19937_64 rather than std::normal_distribution: the standard leaves the latter's
    // algorithm to the library, and runs must be identical on every platform for a given seed.
    std::mt19937_64 generator(seed);
    auto uniform = [&generator] { return (static_cast<double>(generator() >> 11) + 0.5) * 0x1.0p-53; };
    m_noisy.resize(trace.size());
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const double u1 = uniform();
        const double u2 = uniform();
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
        m_noisy[i] = std::max(0.0, trace.gPerKwh[i] + sigma * z);
    }
}

void OracleForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    const std::vector<double>& source = m_noisy.empty() ? m_trace.gPerKwh : m_noisy;
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t slot = std::min(first + i, source.size() - 1); // past the end: hold the last value
        out[i] = source[slot];
    }
}

} // namespace carbon3d
