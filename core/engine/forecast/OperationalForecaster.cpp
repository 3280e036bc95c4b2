// SPDX-License-Identifier: MIT
#include "engine/forecast/OperationalForecaster.h"

#include "engine/forecast/PortableNormal.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace carbon3d {

namespace {

// The mean of shape(h) = share + (1 - share) min(h, ramp) / ramp over the whole hours 1 to 24 of a day-ahead
// forecast: what scales the shape so that its day-ahead mean is the published one.
double dayAheadMeanOfShape(const OperationalErrorModel& model) {
    double sum = 0.0;
    for (int hour = 1; hour <= 24; ++hour)
        sum += model.nowcastShare + (1.0 - model.nowcastShare) *
                                        std::min(static_cast<double>(hour), model.rampHours) /
                                        model.rampHours;
    return sum / 24.0;
}

// A seed for one issue's own draws, decorrelated from the run's seed and from its neighbours' (SplitMix64).
std::uint64_t issueSeed(std::uint64_t seed, std::size_t issueSlot) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(issueSlot) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace

double OperationalErrorModel::mapeAt(double leadHours) const {
    const double ramp = std::clamp(leadHours, 0.0, rampHours) / rampHours;
    return dayAheadMape / dayAheadMeanOfShape(*this) * (nowcastShare + (1.0 - nowcastShare) * ramp);
}

OperationalForecaster::OperationalForecaster(const CarbonTrace& trace, std::uint64_t seed,
                                             OperationalErrorModel model)
    : m_trace(trace)
    , m_seed(seed)
    , m_model(model)
    , m_slotCorrelation(
          std::pow(model.leadCorrelationPerHour, static_cast<double>(trace.stepSeconds) / 3600.0)) {
    PortableNormal normal(seed);
    m_sharedByTarget.resize(trace.size());
    const double innovation = std::sqrt(1.0 - m_slotCorrelation * m_slotCorrelation);
    double previous = normal.next();
    for (double& shared : m_sharedByTarget) {
        shared = previous;
        previous = m_slotCorrelation * previous + innovation * normal.next();
    }
}

double OperationalForecaster::sdAtLead(std::size_t lead) {
    // sd of a normal whose mean absolute value is the MAPE
    static const double sdPerMape = 1.0 / std::sqrt(2.0 / std::numbers::pi);
    while (m_sdByLead.size() <= lead) {
        const double hours =
            static_cast<double>(m_sdByLead.size()) * static_cast<double>(m_trace.stepSeconds) / 3600.0;
        m_sdByLead.push_back(sdPerMape * m_model.mapeAt(hours));
    }
    return m_sdByLead[lead];
}

void OperationalForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    out.resize(count);
    PortableNormal normal(issueSeed(m_seed, first));
    const double innovation = std::sqrt(1.0 - m_slotCorrelation * m_slotCorrelation);
    const double shared = std::sqrt(m_model.sharedAcrossIssues);
    const double own = std::sqrt(1.0 - m_model.sharedAcrossIssues);
    double ownError = normal.next();
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t slot = std::min(first + i, m_trace.size() - 1); // past the end: hold the last value
        const double z = shared * m_sharedByTarget[slot] + own * ownError;
        out[i] = std::max(0.0, m_trace.gPerKwh[slot] * (1.0 + sdAtLead(i) * z));
        ownError = m_slotCorrelation * ownError + innovation * normal.next();
    }
}

} // namespace carbon3d
