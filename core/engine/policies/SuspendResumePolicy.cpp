// SPDX-License-Identifier: MIT
#include "engine/policies/SuspendResumePolicy.h"

#include "engine/policies/PlanningTools.h"

#include <sstream>

namespace carbon3d {

std::map<std::string, std::string> SuspendResumePolicy::options() const {
    std::ostringstream text;
    text << m_percentile;
    return {{"percentile", text.str()}};
}

Decision SuspendResumePolicy::decide(const DecisionState& state) {
    const Forecast& forecast = state.forecast();
    const auto now = static_cast<double>(state.nowUtc);
    const double threshold = weightedQuantile(
        forecast.pieces(now, std::max(now + 1.0, static_cast<double>(state.deadlineUtc)), true),
        m_percentile / 100.0);
    // "At or below": on a flat forecast the job runs rather than waiting for nothing.
    // 1e-9 relative: a forecaster's rounding noise on a flat grid is not a signal.
    const bool run = forecast.valueAt(now) <= threshold * (1.0 + 1e-9);
    return {run ? m_fastest : kPaused, state.region};
}

} // namespace carbon3d
