// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/Scenario.h"
#include "engine/forecast/Forecast.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

// Predicts a trace's future from its past. A forecast issued at the start of slot `first` may use
// slots < first only, except the kinds built on the truth (oracle; noisy and operational, which lay an error
// on it), which stand for a forecast service rather than a forecaster of ours.
class Forecaster {
public:
    virtual ~Forecaster() = default;
    virtual std::string name() const = 0;
    // Writes predictions for slots [first, first + count) into out (resized to count), gCO2/kWh.
    virtual void predict(std::size_t first, std::size_t count, std::vector<double>& out) = 0;
    // What a run on this forecaster's predictions should warn of (e.g. a replayed file that did not cover
    // every decision); empty when nothing.
    virtual std::string coverageWarning() const { return {}; }
};

// The forecast catalogue: every kind with what the studio and the CLI say about it. The loaders, the
// CLI's --forecast and the studio's list read it; no kind is compared as a string elsewhere.
struct ForecastKindInfo {
    std::string kind;                 // e.g. "ridge"
    std::vector<std::string> aliases; // accepted spellings, e.g. "seasonal" for seasonal-day
    std::string label;                // for people, e.g. "Ridge autoregression"
    std::string description;          // one line, with its source
    bool perfectKnowledge = false;    // the true future (an upper bound on what forecasting gives)
    bool takesError = false;          // has an error level and a seed (ForecastSpec::errorFraction, seed)
    std::function<std::unique_ptr<Forecaster>(const ForecastSpec&, const CarbonTrace&)> make;
    bool takesFile = false; // replays a forecast file (ForecastSpec::filePath, archive)
    bool takesSeed = false; // draws its error from a seed (ForecastSpec::seed) without an error level
    bool seeded() const { return takesError || takesSeed; }
};

const std::vector<ForecastKindInfo>& forecastCatalog();
// The entry for a kind or one of its aliases; nullptr when unknown.
const ForecastKindInfo* findForecastKind(const std::string& kind);
// What a run's forecast was, for people: the catalogue's label ("Oracle (perfect knowledge)"), "perfect
// knowledge (plans on the true trace)" for a policy that plans on the truth, "none" for one that used no
// forecast, else the kind as given.
std::string forecastLabel(const std::string& runForecastKind);
// Throws InputError("forecast", ...) for an unknown kind, an error level outside [0, 10], or a kind that
// replays a file without one.
void checkForecastSpec(const ForecastSpec& spec);

// Throws InputError for an unknown kind or a bad parameter.
std::unique_ptr<Forecaster> makeForecaster(const ForecastSpec& spec, const CarbonTrace& trace);

// The forecast a policy sees at time `now` (inside the trace): horizonHours of predictions from the
// slot containing `now`, and a 7-day past-only daily profile for everything beyond.
Forecast issueForecast(Forecaster& forecaster, const CarbonTrace& trace, UtcSeconds now, double horizonHours);

// Whether every forecast a run with `spec` issues on `trace` from `start` is the truth up to `deadline`: the
// kind is perfect knowledge and its reach covers the whole window.
bool forecastIsTheTruth(const ForecastSpec& spec, const CarbonTrace& trace, UtcSeconds start,
                        UtcSeconds deadline);

// How many of the trace's slots a forecast horizon of `horizonHours` covers (at least one).
std::size_t forecastHorizonSlots(const CarbonTrace& trace, double horizonHours);

// Mean absolute percentage error (fraction) of forecasts issued every hour (every slot when slots
// are longer) in slots [firstSlot, endSlot), over every lead up to horizonSlots that stays inside
// the window. Slots whose true value is 0 are skipped (the percentage is undefined there).
double forecastMape(Forecaster& forecaster, const CarbonTrace& trace, std::size_t firstSlot,
                    std::size_t endSlot, std::size_t horizonSlots);

// Mean absolute percentage error at each lead of forecasts issued every hour (every slot when slots are
// longer) in slots [firstIssue, endIssue), over every lead up to horizonSlots inside the trace: element k is
// over the forecasts of the slot k slots after the issue slot (k = 0 is the slot under way); NaN for a lead
// no forecast reached. Zero truths are skipped.
std::vector<double> forecastMapeByLead(Forecaster& forecaster, const CarbonTrace& trace,
                                       std::size_t firstIssue, std::size_t endIssue,
                                       std::size_t horizonSlots);

} // namespace carbon3d
