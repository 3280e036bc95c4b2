// SPDX-License-Identifier: MIT
#pragma once

#include "engine/forecast/EpsilonSvr.h"
#include "engine/forecast/Forecaster.h"

namespace carbon3d {

// How Chase's SVR is fitted.
//  OnceRaw (Chase's own code, ml-energy/zeus branch chase, zeus/carbon.py): fitted once, on the trainSlots
//    slots before the first slot it predicts, on raw values (g/kWh), with an unregularised bias and
//    C 100, gamma 1e-4, epsilon 0.1; the time of day encoded as (slot of day + 1) / slots per day.
//  RefitStandardised (the paper's description read with scikit-learn's defaults): refitted on the trainSlots
//    slots before every slot it predicts, features and targets standardised on that window, C 1, epsilon
//    0.1 (standardised units), gamma "scale"; the bias folded into the kernel; time as slot of day.
enum class SvrFit { OnceRaw, RefitStandardised };

// Chase's predictor (Yang et al. 2023): an RBF epsilon-SVR on (sin, cos of the slot of day, previous
// slot's value) -> this slot's value, fitted on the `trainSlots` slots before (48 by default: 24 h of
// 30-min slots in Chase; here the trace's own slots). Multi-step forecasts by recursion (a prediction
// feeds the next step's "previous value"); Chase itself asks one step ahead, from the true last value.
// Fewer than trainSlots + 1 past slots: persistence (the last observed value; the first value of the
// trace when nothing is observed yet).
class SvrForecaster : public Forecaster {
public:
    explicit SvrForecaster(const CarbonTrace& trace, SvrFit fit = SvrFit::RefitStandardised,
                           std::size_t trainSlots = 48);
    std::string name() const override { return "svr"; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;

    // The SVR parameters of each fit (above).
    static EpsilonSvr::Parameters parametersOf(SvrFit fit);

private:
    Eigen::VectorXd features(std::size_t slot, double previous) const;
    void fitBefore(std::size_t first); // on the trainSlots slots before `first`

    const CarbonTrace& m_trace;
    SvrFit m_fit;
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
