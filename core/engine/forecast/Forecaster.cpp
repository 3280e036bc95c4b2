// SPDX-License-Identifier: MIT
#include "engine/forecast/Forecaster.h"

#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "domain/RunResult.h"
#include "domain/TextList.h"
#include "engine/forecast/OperationalForecaster.h"
#include "engine/forecast/OracleForecaster.h"
#include "engine/forecast/ReplayForecaster.h"
#include "engine/forecast/RidgeForecaster.h"
#include "engine/forecast/SeasonalForecaster.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

namespace {

std::size_t slotsPerDay(const CarbonTrace& trace) {
    const std::int64_t step = std::max<std::int64_t>(1, trace.stepSeconds);
    return static_cast<std::size_t>(std::max<std::int64_t>(1, kSecondsPerDay / step));
}

} // namespace

// Long by design: the catalogue reads best as one list of its entries.
const std::vector<ForecastKindInfo>& forecastCatalog() {
    static const std::vector<ForecastKindInfo> catalog{
        {"oracle",
         {},
         "Oracle (perfect knowledge)",
         "Policies see the true future trace: an upper bound on what forecasting can give.",
         true,
         false,
         [](const ForecastSpec& spec, const CarbonTrace& trace) {
             return std::make_unique<OracleForecaster>(trace, 0.0, spec.seed);
         }},
        {"noisy",
         {},
         "Noisy oracle",
         "Truth + N(0, e x mean CI) per slot (Let's Wait Awhile's error model, Wiesner et al. 2021).",
         false,
         true,
         [](const ForecastSpec& spec, const CarbonTrace& trace) {
             return std::make_unique<OracleForecaster>(trace, spec.errorFraction, spec.seed);
         }},
        {"persistence",
         {},
         "Persistence",
         "Tomorrow looks like now: the last observed value for every future slot.",
         false,
         false,
         [](const ForecastSpec&, const CarbonTrace& trace) {
             return std::make_unique<SeasonalForecaster>(trace, 1, "persistence");
         }},
        {"seasonal-day",
         {"seasonal"},
         "Seasonal naive (yesterday)",
         "The same hour yesterday.",
         false,
         false,
         [](const ForecastSpec&, const CarbonTrace& trace) {
             return std::make_unique<SeasonalForecaster>(trace, slotsPerDay(trace), "seasonal-day");
         }},
        {"seasonal-week",
         {},
         "Seasonal naive (last week)",
         "The same hour one week earlier.",
         false,
         false,
         [](const ForecastSpec&, const CarbonTrace& trace) {
             return std::make_unique<SeasonalForecaster>(trace, 7 * slotsPerDay(trace), "seasonal-week");
         }},
        {"ridge",
         {},
         "Ridge autoregression",
         "Least squares on lags and calendar features, fitted on the past only.",
         false,
         false,
         [](const ForecastSpec&, const CarbonTrace& trace) {
             return std::make_unique<RidgeForecaster>(trace);
         }},
        {"operational",
         {},
         "Published operational forecast error",
         "The truth with the error published carbon-intensity forecasts make, growing with lead time: " +
             fixedNumber(100.0 * OperationalErrorModel{}.dayAheadMape, 1) +
             " % mean absolute error a day ahead (DACF, six grids; docs/DECISIONS.md).",
         false,
         false,
         [](const ForecastSpec& spec, const CarbonTrace& trace) {
             return std::make_unique<OperationalForecaster>(trace, spec.seed);
         },
         false,
         true},
        {"replay",
         {},
         "Replay a forecast file",
         "The forecasts a provider really issued (a forecast file): each decision sees the latest issue "
         "published before it.",
         false,
         false,
         [](const ForecastSpec& spec, const CarbonTrace& trace) {
             return std::make_unique<ReplayForecaster>(spec.archive, trace);
         },
         true},
    };
    return catalog;
}

const ForecastKindInfo* findForecastKind(const std::string& kind) {
    for (const ForecastKindInfo& info : forecastCatalog()) {
        if (info.kind == kind ||
            std::find(info.aliases.begin(), info.aliases.end(), kind) != info.aliases.end())
            return &info;
    }
    return nullptr;
}

std::string forecastLabel(const std::string& runForecastKind) {
    if (runForecastKind == kPerfectKnowledge)
        return "perfect knowledge (plans on the true trace)";
    if (const ForecastKindInfo* info = findForecastKind(runForecastKind))
        return info->label;
    return runForecastKind;
}

void checkForecastSpec(const ForecastSpec& spec) {
    const ForecastKindInfo* info = findForecastKind(spec.kind);
    if (info == nullptr) {
        const std::string kinds = joinedText(forecastCatalog(), ", ", &ForecastKindInfo::kind);
        throw InputError("forecast", 0, 0,
                         "expected a forecast kind (" + kinds + "), found '" + spec.kind + "'");
    }
    if (!info->takesFile && spec.archive)
        throw InputError(
            "forecast", 0, 0,
            "a forecast file is replayed by the replay forecast: expected kind 'replay', found '" +
                spec.kind + "'");
    if (info->takesFile && !spec.archive)
        throw InputError(
            "forecast", 0, 0,
            "the " + info->kind +
                " forecast needs a forecast file: expected 'file' in the scenario's forecast, or "
                "--forecast " +
                info->kind + ":FILE");
    if (info->takesError && (!(spec.errorFraction >= 0.0) || spec.errorFraction > 10.0))
        throw InputError("forecast", 0, 0,
                         "expected a " + info->kind + "-forecast error fraction in [0, 10], found " +
                             shortestNumber(spec.errorFraction));
}

std::unique_ptr<Forecaster> makeForecaster(const ForecastSpec& spec, const CarbonTrace& trace) {
    checkForecastSpec(spec);
    return findForecastKind(spec.kind)->make(spec, trace);
}

Forecast issueForecast(Forecaster& forecaster, const CarbonTrace& trace, UtcSeconds now,
                       double horizonHours) {
    Forecast forecast;
    forecast.issuedUtc = now;
    forecast.stepSeconds = trace.stepSeconds;
    const std::int64_t slot = (now - trace.startUtc) / trace.stepSeconds;
    const auto first = static_cast<std::size_t>(std::max<std::int64_t>(0, slot));
    forecast.firstSlotUtc = trace.slotStart(first);
    // A reach past the trace's end stops there (the oracle's whole trace): nothing beyond it is known.
    const std::size_t left = trace.size() > first ? trace.size() - first : 1;
    forecaster.predict(first, std::min(forecastHorizonSlots(trace, horizonHours), left), forecast.horizon);
    // Daily profile from the last 7 observed days, past only: what a planner can assume beyond
    // the horizon without seeing the future.
    const auto perDay =
        static_cast<std::size_t>(std::max<std::int64_t>(1, kSecondsPerDay / trace.stepSeconds));
    std::vector<double> sum(perDay, 0.0);
    std::vector<double> squares(perDay, 0.0);
    std::vector<int> n(perDay, 0);
    const std::size_t begin = first > 7 * perDay ? first - 7 * perDay : 0;
    if (begin < first) {
        const auto day = static_cast<std::int64_t>(perDay);
        const auto absolute = (trace.slotStart(begin) / trace.stepSeconds) % day;
        auto q = static_cast<std::size_t>((absolute + day) % day); // slot of day (UTC), then stepped
        for (std::size_t j = begin; j < first; ++j) {
            sum[q] += trace.gPerKwh[j];
            squares[q] += trace.gPerKwh[j] * trace.gPerKwh[j];
            ++n[q];
            q = q + 1 == perDay ? 0 : q + 1;
        }
    }
    double horizonMean = 0.0;
    for (double v : forecast.horizon)
        horizonMean += v;
    horizonMean /= static_cast<double>(forecast.horizon.size());
    double horizonSquares = 0.0;
    for (double v : forecast.horizon)
        horizonSquares += (v - horizonMean) * (v - horizonMean);
    const double horizonSpread = std::sqrt(horizonSquares / static_cast<double>(forecast.horizon.size()));
    forecast.dailyProfile.resize(perDay);
    forecast.dailySpread.resize(perDay);
    for (std::size_t q = 0; q < perDay; ++q) {
        if (n[q] == 0) {
            forecast.dailyProfile[q] = horizonMean;
            forecast.dailySpread[q] = horizonSpread;
            continue;
        }
        const double mean = sum[q] / n[q];
        forecast.dailyProfile[q] = mean;
        forecast.dailySpread[q] = std::sqrt(std::max(0.0, squares[q] / n[q] - mean * mean));
    }
    return forecast;
}

bool forecastIsTheTruth(const ForecastSpec& spec, const CarbonTrace& trace, UtcSeconds start,
                        UtcSeconds deadline) {
    const ForecastKindInfo* info = findForecastKind(spec.kind);
    if (info == nullptr || !info->perfectKnowledge)
        return false;
    // The first forecast starts at the slot holding `start` and must reach the slot holding the deadline.
    const UtcSeconds firstSlot = start - (start - trace.startUtc) % trace.stepSeconds;
    const double reachS = static_cast<double>(forecastHorizonSlots(trace, spec.effectiveHorizonHours())) *
                          static_cast<double>(trace.stepSeconds);
    return static_cast<double>(firstSlot) + reachS >= static_cast<double>(std::min(deadline, trace.endUtc()));
}

std::size_t forecastHorizonSlots(const CarbonTrace& trace, double horizonHours) {
    const double slots = std::ceil(horizonHours * 3600.0 / static_cast<double>(trace.stepSeconds));
    // The whole trace (an infinite reach) is as far as any forecast can see.
    const auto whole = static_cast<double>(std::max<std::size_t>(1, trace.size()));
    return static_cast<std::size_t>(std::clamp(slots, 1.0, whole));
}

namespace {

// Visits every (lead, absolute percentage error) of forecasts issued every hour (every slot when slots are
// longer) in [firstIssue, endIssue) over leads up to horizonSlots before leadEnd; zero truths are skipped.
template <typename Visit>
void forEachForecastError(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstIssue,
                          std::size_t endIssue, std::size_t leadEnd, std::size_t horizonSlots, Visit visit) {
    leadEnd = std::min(leadEnd, trace.size());
    endIssue = std::min(endIssue, leadEnd);
    const std::size_t stride = static_cast<std::size_t>(
        std::max<std::int64_t>(1, 3600 / std::max<std::int64_t>(1, trace.stepSeconds)));
    std::vector<double> predicted;
    for (std::size_t issue = firstIssue; issue < endIssue; issue += stride) {
        const std::size_t count = std::min(horizonSlots, leadEnd - issue);
        forecaster.predict(issue, count, predicted);
        for (std::size_t i = 0; i < count; ++i) {
            const double actual = trace.gPerKwh[issue + i];
            if (actual != 0.0)
                visit(i, std::abs(predicted[i] - actual) / actual);
        }
    }
}

} // namespace

double forecastMape(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstSlot,
                    std::size_t endSlot, std::size_t horizonSlots) {
    double sum = 0.0;
    std::size_t n = 0;
    forEachForecastError(forecaster, trace, firstSlot, endSlot, endSlot, horizonSlots,
                         [&](std::size_t, double error) {
                             sum += error;
                             ++n;
                         });
    return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

std::vector<double> forecastMapeByLead(Forecaster& forecaster, const CarbonTrace& trace,
                                       std::size_t firstIssue, std::size_t endIssue,
                                       std::size_t horizonSlots) {
    std::vector<double> sum(horizonSlots, 0.0);
    std::vector<std::size_t> n(horizonSlots, 0);
    forEachForecastError(forecaster, trace, firstIssue, endIssue, trace.size(), horizonSlots,
                         [&](std::size_t lead, double error) {
                             sum[lead] += error;
                             ++n[lead];
                         });
    for (std::size_t lead = 0; lead < horizonSlots; ++lead)
        sum[lead] = n[lead] > 0 ? sum[lead] / static_cast<double>(n[lead]) : std::nan("");
    return sum;
}

} // namespace carbon3d
