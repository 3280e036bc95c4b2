// SPDX-License-Identifier: MIT
#pragma once

#include "engine/forecast/Forecaster.h"

namespace carbon3d {

// Naive forecasts: persistence (period 1 slot: the last observed value for every lead) and
// seasonal naive (period one day or one week: the last observed value at the same slot of the
// period). With less history than one period, falls back to persistence; with no history at all
// (the job starts at the trace's first slot) it uses that first slot's value, the only leak of truth,
// documented in docs/ENGINE.md.
class SeasonalForecaster : public Forecaster {
public:
    SeasonalForecaster(const CarbonTrace& trace, std::size_t periodSlots, std::string name);
    std::string name() const override { return m_name; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;

private:
    const CarbonTrace& m_trace;
    std::size_t m_period;
    std::string m_name;
};

} // namespace carbon3d
