// SPDX-License-Identifier: MIT
#pragma once

#include "engine/forecast/Forecaster.h"

namespace carbon3d {

// The truth, optionally with Let's Wait Awhile's error model (Wiesner et al., Middleware 2021):
// forecast = actual + N(0, e x mean(trace)) per slot, clamped at 0. One draw per slot, fixed for
// the run, so successive forecasts of the same slot agree (as a real forecast service's would).
class OracleForecaster : public Forecaster {
public:
    OracleForecaster(const CarbonTrace& trace, double errorFraction, std::uint64_t seed);
    std::string name() const override { return m_name; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;

private:
    const CarbonTrace& m_trace;
    std::vector<double> m_noisy; // empty for the exact oracle
    std::string m_name;
};

} // namespace carbon3d
