// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/Scenario.h"
#include "engine/forecast/Forecast.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

// Predicts a trace's future from its past. A forecast issued at the start of slot `first` may use
// slots < first only (except the oracle kinds, which are the truth by definition).
class Forecaster {
public:
    virtual ~Forecaster() = default;
    virtual std::string name() const = 0;
    // Writes predictions for slots [first, first + count) into out (resized to count), gCO2/kWh.
    virtual void predict(std::size_t first, std::size_t count, std::vector<double>& out) = 0;
};

// oracle | noisy | persistence | seasonal-day | seasonal-week | ridge ("seasonal" = seasonal-day).
// Throws InputError for an unknown kind or a bad parameter.
std::unique_ptr<Forecaster> makeForecaster(const ForecastSpec& spec, const CarbonTrace& trace);

// The forecast a policy sees at time `now` (inside the trace): horizonHours of predictions from the
// slot containing `now`, and a 7-day past-only daily profile for everything beyond.
Forecast issueForecast(Forecaster& forecaster, const CarbonTrace& trace, UtcSeconds now, double horizonHours);

// Mean absolute percentage error (fraction) of forecasts issued every hour (every slot when slots
// are longer) in slots [firstSlot, endSlot), over every lead up to horizonSlots that stays inside
// the window. Slots whose true value is 0 are skipped (the percentage is undefined there).
double forecastMape(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstSlot,
                    std::size_t endSlot, std::size_t horizonSlots);

} // namespace carbon3d
