// SPDX-License-Identifier: MIT
#include "engine/forecast/SeasonalForecaster.h"

namespace carbon3d {

SeasonalForecaster::SeasonalForecaster(const CarbonTrace& trace, std::size_t periodSlots, std::string name)
    : m_trace(trace)
    , m_period(periodSlots == 0 ? 1 : periodSlots)
    , m_name(std::move(name)) {}

void SeasonalForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    out.resize(count);
    const std::vector<double>& y = m_trace.gPerKwh;
    if (first == 0) {
        std::fill(out.begin(), out.end(), y.empty() ? 0.0 : y[0]);
        return;
    }
    const std::size_t period = first >= m_period ? m_period : 1;
    for (std::size_t i = 0; i < count; ++i) {
        // Slot first+i maps back by whole periods to the last observed slot (< first) in its phase.
        const std::size_t target = first + i;
        const std::size_t back = (i / period + 1) * period;
        out[i] = y[target - back];
    }
}

} // namespace carbon3d
