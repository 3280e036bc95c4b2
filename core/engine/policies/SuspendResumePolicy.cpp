// SPDX-License-Identifier: MIT
#include "engine/policies/SuspendResumePolicy.h"

#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/PlanningTools.h"

#include <algorithm>

namespace carbon3d {

namespace {

// "At or below": on a flat forecast the job runs rather than waiting for nothing.
// 1e-9 relative: a forecaster's rounding noise on a flat grid is not a signal.
bool atOrBelow(double ci, double threshold) {
    return ci <= threshold * (1.0 + 1e-9);
}

} // namespace

std::map<std::string, std::string> SuspendResumePolicy::options() const {
    return {{"percentile", shortestNumber(m_percentile)}, {"size", m_fitSize ? "fit" : "fastest"}};
}

void SuspendResumePolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_option = -1;
}

double SuspendResumePolicy::threshold(const DecisionState& state) const {
    const auto now = static_cast<double>(state.nowUtc);
    return weightedQuantile(
        state.forecast().pieces(now, std::max(now + 1.0, static_cast<double>(state.deadlineUtc)), true),
        m_percentile / 100.0);
}

int SuspendResumePolicy::chooseOption(const DecisionState& state, double threshold) const {
    if (!m_fitSize)
        return m_costs->fastestOption();
    const auto now = static_cast<double>(state.nowUtc);
    const auto deadline = static_cast<double>(state.deadlineUtc);
    double expectedRunS = 0.0;
    for (const ForecastPiece& piece : state.forecast().pieces(now, std::max(now + 1.0, deadline), true))
        if (atOrBelow(piece.ciGPerKwh, threshold))
            expectedRunS += piece.durationS;
    return bestStaticOption(*m_costs, state.forecast(), state.currentOption, now, state.workRemaining,
                            now + expectedRunS);
}

Decision SuspendResumePolicy::decide(const DecisionState& state) {
    const double limit = threshold(state);
    if (m_option < 0)
        m_option = chooseOption(state, limit);
    const double ci = state.forecast().valueAt(static_cast<double>(state.nowUtc));
    const bool run = atOrBelow(ci, limit);
    if (!state.explain)
        return {run ? m_option : kPaused, state.region};
    const ReasonUnits units(objective());
    return {run ? m_option : kPaused, state.region,
            "forecast " + units.perKwh(ci) + (run ? " at or below" : " above") + " the threshold " +
                units.perKwh(limit) + " (percentile " + fixedNumber(m_percentile, 0) +
                " of the forecast to the deadline): " + (run ? "runs" : "pauses")};
}

PolicyInfo suspendResumePolicyInfo() {
    PolicyInfo info{
        "suspend-resume",
        "One option (sized for the time it expects to run, or the fastest) while forecast CI <= a "
        "percentile of the forecast to the deadline, paused otherwise.",
        "Threshold suspend-resume (Wiesner et al., Let's Wait Awhile, Middleware 2021; Hanafy et al. 2024)",
        {numberOption("percentile", "50", 0, 100,
                      "threshold percentile of forecast CI over the window to the deadline, 0-100"),
         choiceOption("size", "fit", {"fit", "fastest"},
                      "fit: best-static's option for the time it expects to run | fastest: the literature's "
                      "full-size job"),
         objectiveOption()},
        {},
        {0x009E73, LineDash::Solid, PlotMarker::Triangle},
        [](const PolicyOptions& o) {
            return std::make_unique<SuspendResumePolicy>(o.number("percentile"), o.text("size") == "fit");
        }};
    info.traits.simplerPlan = SimplerPlan::Timing;
    return info;
}

} // namespace carbon3d
