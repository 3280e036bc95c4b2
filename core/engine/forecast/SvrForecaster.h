// SPDX-License-Identifier: MIT
#pragma once

#include "engine/forecast/EpsilonSvr.h"
#include "engine/forecast/Forecaster.h"

namespace carbon3d {

// Chase's predictor (Yang et al. 2023): an RBF epsilon-SVR on (sin, cos of the slot of day, previous
// slot's value) -> this slot's value, fitted on the `trainSlots` slots before the issue slot (48 by
// default: 24 h of 30-min slots in Chase; here the trace's own slots). Features and targets are
// standardised on the training window. Multi-step forecasts by recursion (a prediction feeds the next
// step's "previous value"). Fewer than trainSlots + 1 past slots: persistence (the last observed value;
// the first value of the trace when nothing is observed yet).
class SvrForecaster : public Forecaster {
public:
    explicit SvrForecaster(const CarbonTrace& trace, std::size_t trainSlots = 48,
                           EpsilonSvr::Parameters parameters = {});
    std::string name() const override { return "svr"; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;

private:
    Eigen::VectorXd features(std::size_t slot, double previous) const;

    const CarbonTrace& m_trace;
    std::size_t m_trainSlots;
    EpsilonSvr m_svr;
    std::size_t m_slotsPerDay = 24;
    std::size_t m_fittedFirst = static_cast<std::size_t>(-1);
    double m_prevMean = 0.0;
    double m_prevScale = 1.0;
    double m_yMean = 0.0;
    double m_yScale = 1.0;
};

} // namespace carbon3d
