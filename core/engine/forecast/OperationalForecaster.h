// SPDX-License-Identifier: MIT
#pragma once

#include "engine/forecast/Forecaster.h"

#include <cstdint>
#include <vector>

namespace carbon3d {

// The error operational carbon-intensity forecasts make, as published, and how it is shaped
// (docs/DECISIONS.md "The default forecast is `operational`"; every number below is sourced there, and
// `carbon3d-validate report-forecast-errors` sets them beside what a real archive of issued forecasts shows).
struct OperationalErrorModel {
    // Mean absolute percentage error over the leads of a day-ahead forecast (1 to 24 h): DACF's mean over six
    // grids (CISO, PJM, ERCOT, ISO-NE, Sweden, Germany; Jul-Dec 2021; Maji, Sitaraman and Shenoy, ACM
    // e-Energy 2022, Table 4): 6.4 %.
    double dayAheadMape = 0.064;
    // The error at lead 0 (the slot under way) as a share of the error from `rampHours` on, rising linearly
    // between: the GB forecast's error halves only in its last few hours (about 10 against 20 gCO2/kWh,
    // carbon-intensity/api-definitions issue 11), and is about flat from a day to four days ahead.
    double nowcastShare = 0.5;
    double rampHours = 4.0;
    // Hour-to-hour correlation of the error along an issue's leads (a forecast is wrong for a whole windy
    // afternoon, not slot by slot), and the share of the error variance successive issues share for the same
    // target (a revised forecast stays close to the one before). No publication gives either; both are what
    // the GB operator's forecasts issued hourly over 15-19 May 2023 show (sample_data/forecasts/GB_2023-05;
    // the errors' correlation 1, 3 and 6 hours apart along an issue is 0.96, 0.83 and 0.66, about 0.94 an
    // hour; issues 1, 2 and 6 hours apart agree on a target's error with correlation 0.93, 0.92 and 0.91).
    // report-results regenerates these measurements beside the model's.
    double leadCorrelationPerHour = 0.94;
    double sharedAcrossIssues = 0.92;

    // The mean absolute percentage error at `leadHours` ahead (a fraction).
    double mapeAt(double leadHours) const;
};

// Truth x (1 + error): the error normal with the published MAPE at each lead (sd = MAPE / sqrt(2/pi)), AR(1)
// along the leads, partly shared by successive issues for the same target; clamped at 0. Seeded, and the
// same for a given (seed, issue slot) whatever asked before, so repeated forecasts agree.
class OperationalForecaster : public Forecaster {
public:
    OperationalForecaster(const CarbonTrace& trace, std::uint64_t seed, OperationalErrorModel model = {});
    std::string name() const override { return "operational"; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;

private:
    // The error's standard deviation (a fraction of the truth) `lead` slots ahead, computed once a lead.
    double sdAtLead(std::size_t lead);

    const CarbonTrace& m_trace;
    std::uint64_t m_seed;
    OperationalErrorModel m_model;
    std::vector<double> m_sharedByTarget; // the part of each slot's error every issue shares: AR(1), sd 1
    double m_slotCorrelation;             // leadCorrelationPerHour over one slot
    std::vector<double> m_sdByLead;       // sdAtLead's values so far
};

} // namespace carbon3d
