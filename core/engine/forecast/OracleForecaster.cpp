// SPDX-License-Identifier: MIT
#include "engine/forecast/OracleForecaster.h"

#include "engine/forecast/PortableNormal.h"

#include <algorithm>
#include <numeric>

namespace carbon3d {

OracleForecaster::OracleForecaster(const CarbonTrace& trace, double errorFraction, std::uint64_t seed)
    : m_trace(trace)
    , m_name(errorFraction > 0.0 ? "noisy" : "oracle") {
    if (errorFraction <= 0.0 || trace.empty())
        return;
    const double mean =
        std::accumulate(trace.gPerKwh.begin(), trace.gPerKwh.end(), 0.0) / static_cast<double>(trace.size());
    const double sigma = errorFraction * mean;
    PortableNormal normal(seed); // runs must be identical on every platform for a given seed
    m_noisy.resize(trace.size());
    for (std::size_t i = 0; i < trace.size(); ++i)
        m_noisy[i] = std::max(0.0, trace.gPerKwh[i] + sigma * normal.next());
}

void OracleForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    const std::vector<double>& source = m_noisy.empty() ? m_trace.gPerKwh.values() : m_noisy;
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t slot = std::min(first + i, source.size() - 1); // past the end: hold the last value
        out[i] = source[slot];
    }
}

} // namespace carbon3d
