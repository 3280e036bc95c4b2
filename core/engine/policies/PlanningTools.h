// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/forecast/Forecast.h"

#include <vector>

namespace carbon3d {

// Forecast gCO2e of moving from `from` to `option` at time t and then running it until `work` is
// done (overhead at overhead power, then the option), including embodied carbon of held GPUs.
double contiguousCostG(const CostModel& costs, const Forecast& forecast, int from, int option, double t,
                       double work);

// Among the options that finish `work` by the deadline when run contiguously from t (counting the
// switch time from `from`), the one of least forecast cost (the first on ties); option -1 and an
// infinite cost when none does.
struct ContiguousChoice {
    int option = -1;
    double costG = 0.0;
};
ContiguousChoice cheapestContiguousOption(const CostModel& costs, const Forecast& forecast, int from,
                                          double t, double work, double deadline);

// cheapestContiguousOption's option; the fastest option when none finishes by the deadline.
int bestStaticOption(const CostModel& costs, const Forecast& forecast, int from, double t, double work,
                     double deadline);

// A forecast quantity as plans rank it: to 9 significant digits, so that values equal but for round-off
// tie (and ties go where the policy's rule sends them, the earlier slot). A regression forecasts a
// constant signal (a flat electricity price, when planning for cost) only to about 1e-15; without this
// its round-off, not the signal, ordered the slots (wait-awhile paused in a daily pattern, carbonscaler
// resized every hour). 1e-9 is far below any real difference (0.1 ug/kWh at 100 g/kWh).
double rankingValue(double value);

// The option with the least facility energy per unit of work.
int mostEfficientOption(const CostModel& costs);

// The forecast over [now, end) as pieces that plans which look at values and durations only (not at which day
// a slot of day falls on) can use: slot by slot inside the horizon, one piece per slot of day beyond it
// (Forecast::pieces with groupBeyond), and the piece that starts at `now` first. A plan then sizes with the
// horizon plus a day of slots rather than with the window (a 5-minute quarter-year: about 900 pieces
// instead of 26,000 at every decision).
std::vector<ForecastPiece> windowPieces(const Forecast& forecast, double now, double end);

// Duration-weighted quantile (q in [0, 1]) of the pieces' carbon intensity.
double weightedQuantile(const std::vector<ForecastPiece>& pieces, double q);

// Lagrangian plan over forecast pieces (docs/ENGINE.md, "dynamic-3d"): each piece runs the state
// minimising cost - lambda x work; lambda is the least value whose plan covers `work` (ties go to
// earlier pieces). pauseState is kPaused (cost of held GPUs) or kNotStarted (free).
struct LambdaPlan {
    bool feasible = false;      // the plan covers the work inside the window
    double lambda = 0.0;        // gCO2e per work unit: the marginal value of progress
    int firstState = kPaused;   // what the plan runs in the first piece
    double forecastCostG = 0.0; // forecast emissions of the plan (pause pieces charged to the window end)
};
LambdaPlan planByLambda(const CostModel& costs, const std::vector<ForecastPiece>& pieces, double work,
                        int pauseState);

// The state minimising cost - lambda x work at carbon intensity ci.
int argminAtLambda(const CostModel& costs, double ci, double lambda, int pauseState);

} // namespace carbon3d
