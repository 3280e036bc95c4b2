// SPDX-License-Identifier: MIT
#include "engine/SpotStrikes.h"

#include <cmath>
#include <limits>

namespace carbon3d {

namespace {

// A uniform draw in [0, 1) from the top 53 bits: the same on every standard library (the <random>
// distributions are not specified bit for bit).
double uniform(std::mt19937_64& random) {
    return static_cast<double>(random() >> 11) * 0x1.0p-53;
}

} // namespace

SpotStrikes::SpotStrikes(double perGpuHour, int gpusHeld, std::uint64_t seed, UtcSeconds startUtc)
    : m_random(seed)
    , m_candidatesPerS(perGpuHour * gpusHeld / 3600.0)
    , m_held(gpusHeld > 0 ? gpusHeld : 1)
    , m_time(static_cast<double>(startUtc)) {
    drawNext();
}

void SpotStrikes::drawNext() {
    if (!(m_candidatesPerS > 0.0)) {
        m_time = std::numeric_limits<double>::infinity();
        return;
    }
    m_time += -std::log1p(-uniform(m_random)) / m_candidatesPerS;
    m_accept = uniform(m_random);
}

std::optional<UtcSeconds> SpotStrikes::firstIn(UtcSeconds from, UtcSeconds to, int activeGpus) {
    const double share = static_cast<double>(activeGpus) / static_cast<double>(m_held);
    while (std::ceil(m_time) < static_cast<double>(to)) {
        const auto at = static_cast<UtcSeconds>(std::ceil(m_time));
        const bool strikes = at >= from && m_accept < share;
        drawNext();
        if (strikes)
            return at;
    }
    return std::nullopt;
}

} // namespace carbon3d
