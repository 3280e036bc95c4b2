// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Time.h"

#include <cstdint>
#include <vector>

namespace carbon3d {

// A stretch of forecast carbon intensity: `durationS` seconds at `ciGPerKwh`. Beyond the horizon,
// pieces with the same slot of day are grouped (durationS then sums several days' slots).
struct ForecastPiece {
    double startUtc = 0.0; // start of the (first) stretch, s since the epoch
    double durationS = 0.0;
    double ciGPerKwh = 0.0;
    bool beyondHorizon = false;
};

// What a policy knows about the future at one decision: the forecaster's values for the horizon
// (slot by slot, starting with the slot that contains the decision time), and beyond the horizon
// a daily profile (mean of the last 7 observed days per slot of day, past data only). Policies plan
// over the whole window to the deadline, which is usually longer than any forecast horizon.
struct Forecast {
    UtcSeconds issuedUtc = 0;
    UtcSeconds firstSlotUtc = 0; // start of the slot containing issuedUtc
    std::int64_t stepSeconds = 3600;
    std::vector<double> horizon;      // gCO2/kWh per slot from firstSlotUtc
    std::vector<double> dailyProfile; // gCO2/kWh per slot of day (UTC), used beyond the horizon
    // The standard deviation per slot of day over the same 7 days (of the horizon's values when there is
    // no past): how far a day can stray from the profile, for policies that weigh that risk.
    std::vector<double> dailySpread;

    UtcSeconds horizonEndUtc() const {
        return firstSlotUtc + static_cast<std::int64_t>(horizon.size()) * stepSeconds;
    }
    double valueAt(double t) const;
    // The sum of valueAt(from + j x dt) over j in [0, n): the forecast read where each of n evenly spaced
    // steps starts (the dynamic-parallelism authors' prototype prices a step so), counted slot by slot.
    double sampledSum(double from, double dt, std::int64_t n) const;
    // Integral of forecast CI over [a, b), in (g/kWh) x s.
    double integral(double a, double b) const;
    // Pieces covering [a, b): one per slot inside the horizon, then (groupBeyond) one per slot of day.
    std::vector<ForecastPiece> pieces(double a, double b, bool groupBeyond) const;
};

} // namespace carbon3d
