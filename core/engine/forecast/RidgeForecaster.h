// SPDX-License-Identifier: MIT
#pragma once

#include "engine/forecast/Forecaster.h"
#include "engine/forecast/SeasonalForecaster.h"

#include <Eigen/Dense>

namespace carbon3d {

// Ridge autoregression: y[j] ~ intercept + lags (1 slot, 1 h, 2 h, 3 h, 24 h, 168 h) + sin/cos of the
// UTC hour of day and of the day of week. Fitted with Eigen on the 28 days before the issue slot
// (past only), refitted once per UTC day; multi-step forecasts by recursion (predictions feed the
// lags). Values are scaled by the training window's mean so the penalty (alpha = 1) is unit-free;
// the intercept is not penalised. Less than 8 days of history: seasonal-day fallback.
class RidgeForecaster : public Forecaster {
public:
    explicit RidgeForecaster(const CarbonTrace& trace);
    std::string name() const override { return "ridge"; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;

private:
    void fit(std::size_t first);
    void features(std::size_t slot, const std::vector<double>& values, std::size_t valuesBase,
                  Eigen::VectorXd& row) const;

    const CarbonTrace& m_trace;
    SeasonalForecaster m_fallback;
    std::vector<std::size_t> m_lags; // in slots
    std::size_t m_slotsPerDay = 24;
    std::size_t m_trainSlots = 0;
    std::int64_t m_fittedDay = -1;
    double m_scale = 1.0;
    Eigen::VectorXd m_beta;
    std::vector<double> m_buffer;
};

} // namespace carbon3d
