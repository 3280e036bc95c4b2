// SPDX-License-Identifier: MIT
#include "engine/policies/BestStaticPolicy.h"

#include "engine/policies/PlanningTools.h"

namespace carbon3d {

Decision BestStaticPolicy::decide(const DecisionState& state) {
    if (m_choice < 0)
        m_choice = bestStaticOption(*m_costs, state.forecast(), state.currentOption,
                                    static_cast<double>(state.nowUtc), state.workRemaining,
                                    static_cast<double>(state.deadlineUtc));
    return {m_choice, state.region};
}

} // namespace carbon3d
