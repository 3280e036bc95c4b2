// SPDX-License-Identifier: MIT
#include "engine/policies/BestStaticPolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/policies/PlanningTools.h"

namespace carbon3d {

Decision BestStaticPolicy::decide(const DecisionState& state) {
    if (m_choice < 0)
        m_choice = bestStaticOption(*m_costs, state.forecast(), state.currentOption,
                                    static_cast<double>(state.nowUtc), state.workRemaining,
                                    static_cast<double>(state.deadlineUtc));
    return {m_choice, state.region};
}

PolicyInfo bestStaticPolicyInfo() {
    return {"best-static",
            "The single option with the least forecast emissions that meets the deadline, started now.",
            "Best static scale baseline (Hanafy et al., CarbonScaler, SIGMETRICS 2024)",
            {},
            {},
            {0x000000, LineDash::Dashed, PlotMarker::Square},
            [](const PolicyOptions&) { return std::make_unique<BestStaticPolicy>(); }};
}

} // namespace carbon3d
