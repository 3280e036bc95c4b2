// SPDX-License-Identifier: MIT
#include "engine/policies/TertilePolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/PlanningTools.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

Decision TertilePolicy::decide(const DecisionState& state) {
    const Forecast& forecast = state.forecast();
    const auto now = static_cast<double>(state.nowUtc);
    const auto deadline = static_cast<double>(state.deadlineUtc);
    const std::vector<ForecastPiece> window = forecast.pieces(now, std::max(now + 1.0, deadline), true);
    const double lower = weightedQuantile(window, 1.0 / 3.0);
    const double upper = weightedQuantile(window, 2.0 / 3.0);
    const double ci = forecast.valueAt(now);
    // Values within 1e-9 relative of a tercile count as on it: a forecaster's rounding noise on a
    // flat grid must not flip slots between terciles.
    const double tolerance = 1e-9 * std::max(1.0, std::abs(ci));
    int option = 0;
    const char* why = "";
    // At or below the lower tercile is "low" (a tercile boundary is a value of the window); when
    // the terciles coincide (a flat forecast) every slot is "middle".
    if (ci <= lower + tolerance && lower < upper - tolerance) {
        option = m_costs->fastestOption();
        why = "the low third: the fastest option";
    } else if (ci > upper + tolerance) {
        option = mostEfficientOption(*m_costs);
        why = "the high third: the option of least energy per token";
    } else {
        option =
            bestStaticOption(*m_costs, forecast, state.currentOption, now, state.workRemaining, deadline);
        why = "the middle third: best-static's option";
    }
    if (!state.explain)
        return {option, state.region};
    return {option, state.region,
            "forecast " + intensityText(ci) + " against the terciles " + intensityText(lower) + " and " +
                intensityText(upper) + " of the forecast to the deadline: " + why};
}

PolicyInfo tertilePolicyInfo() {
    return {"tertile",
            "Forecast CI terciles: low -> fastest, middle -> best-static option, high -> least energy per "
            "token.",
            "Tertile baseline of the dynamic-parallelism prototype (Aboualim and Lee, HotCarbon 2026)",
            {},
            {},
            {0x009E73, LineDash::Dashed, PlotMarker::Cross},
            [](const PolicyOptions&) { return std::make_unique<TertilePolicy>(); }};
}

} // namespace carbon3d
