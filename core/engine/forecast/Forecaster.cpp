// SPDX-License-Identifier: MIT
#include "engine/forecast/Forecaster.h"

#include "domain/InputError.h"
#include "engine/forecast/OracleForecaster.h"
#include "engine/forecast/RidgeForecaster.h"
#include "engine/forecast/SeasonalForecaster.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

std::unique_ptr<Forecaster> makeForecaster(const ForecastSpec& spec, const CarbonTrace& trace) {
    const std::int64_t step = std::max<std::int64_t>(1, trace.stepSeconds);
    const auto perDay = static_cast<std::size_t>(std::max<std::int64_t>(1, kSecondsPerDay / step));
    if (spec.kind == "oracle")
        return std::make_unique<OracleForecaster>(trace, 0.0, spec.seed);
    if (spec.kind == "noisy") {
        if (!(spec.errorFraction >= 0.0) || spec.errorFraction > 10.0)
            throw InputError("forecast", 0, 0,
                             "expected a noisy-forecast error fraction in [0, 10], found " +
                                 std::to_string(spec.errorFraction));
        return std::make_unique<OracleForecaster>(trace, spec.errorFraction, spec.seed);
    }
    if (spec.kind == "persistence")
        return std::make_unique<SeasonalForecaster>(trace, 1, "persistence");
    if (spec.kind == "seasonal-day" || spec.kind == "seasonal")
        return std::make_unique<SeasonalForecaster>(trace, perDay, "seasonal-day");
    if (spec.kind == "seasonal-week")
        return std::make_unique<SeasonalForecaster>(trace, 7 * perDay, "seasonal-week");
    if (spec.kind == "ridge")
        return std::make_unique<RidgeForecaster>(trace);
    throw InputError(
        "forecast", 0, 0,
        "expected a forecast kind (oracle, noisy, persistence, seasonal-day, seasonal-week, ridge), "
        "found '" +
            spec.kind + "'");
}

Forecast issueForecast(Forecaster& forecaster, const CarbonTrace& trace, UtcSeconds now,
                       double horizonHours) {
    Forecast forecast;
    forecast.issuedUtc = now;
    forecast.stepSeconds = trace.stepSeconds;
    const std::int64_t slot = (now - trace.startUtc) / trace.stepSeconds;
    const auto first = static_cast<std::size_t>(std::max<std::int64_t>(0, slot));
    forecast.firstSlotUtc = trace.slotStart(first);
    const auto count = static_cast<std::size_t>(
        std::max(1.0, std::ceil(horizonHours * 3600.0 / static_cast<double>(trace.stepSeconds))));
    forecaster.predict(first, count, forecast.horizon);
    // Daily profile from the last 7 observed days, past only: what a planner can assume beyond
    // the horizon without seeing the future.
    const auto perDay =
        static_cast<std::size_t>(std::max<std::int64_t>(1, kSecondsPerDay / trace.stepSeconds));
    std::vector<double> sum(perDay, 0.0);
    std::vector<int> n(perDay, 0);
    const std::size_t begin = first > 7 * perDay ? first - 7 * perDay : 0;
    if (begin < first) {
        const auto day = static_cast<std::int64_t>(perDay);
        const auto absolute = (trace.slotStart(begin) / trace.stepSeconds) % day;
        auto q = static_cast<std::size_t>((absolute + day) % day); // slot of day (UTC), then stepped
        for (std::size_t j = begin; j < first; ++j) {
            sum[q] += trace.gPerKwh[j];
            ++n[q];
            q = q + 1 == perDay ? 0 : q + 1;
        }
    }
    double horizonMean = 0.0;
    for (double v : forecast.horizon)
        horizonMean += v;
    horizonMean /= static_cast<double>(forecast.horizon.size());
    forecast.dailyProfile.resize(perDay);
    for (std::size_t q = 0; q < perDay; ++q)
        forecast.dailyProfile[q] = n[q] > 0 ? sum[q] / n[q] : horizonMean;
    return forecast;
}

double forecastMape(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstSlot,
                    std::size_t endSlot, std::size_t horizonSlots) {
    endSlot = std::min(endSlot, trace.size());
    const std::size_t stride = static_cast<std::size_t>(
        std::max<std::int64_t>(1, 3600 / std::max<std::int64_t>(1, trace.stepSeconds)));
    double sum = 0.0;
    std::size_t n = 0;
    std::vector<double> predicted;
    for (std::size_t issue = firstSlot; issue < endSlot; issue += stride) {
        const std::size_t count = std::min(horizonSlots, endSlot - issue);
        forecaster.predict(issue, count, predicted);
        for (std::size_t i = 0; i < count; ++i) {
            const double actual = trace.gPerKwh[issue + i];
            if (actual == 0.0)
                continue;
            sum += std::abs(predicted[i] - actual) / actual;
            ++n;
        }
    }
    return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

} // namespace carbon3d
