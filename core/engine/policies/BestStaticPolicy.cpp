// SPDX-License-Identifier: MIT
#include "engine/policies/BestStaticPolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/PlanningTools.h"

namespace carbon3d {

Decision BestStaticPolicy::decide(const DecisionState& state) {
    if (m_choice >= 0)
        return {m_choice, state.region,
                state.explain ? "keeps the option chosen at the start: " + m_why : ""};
    const ContiguousChoice choice = cheapestContiguousOption(
        *m_costs, state.forecast(), state.currentOption, static_cast<double>(state.nowUtc),
        state.workRemaining, static_cast<double>(state.deadlineUtc));
    m_choice = choice.option >= 0 ? choice.option : m_costs->fastestOption();
    if (state.explain) {
        const ReasonUnits units(objective());
        m_why = choice.option >= 0
                    ? "of the options that finish by the deadline when run without a break, the one "
                      "of least forecast " +
                          std::string(units.emissions()) + " (" + units.amount(choice.costG) +
                          " forecast to the end)"
                    : std::string("no option finishes by the deadline: the fastest");
    }
    return {m_choice, state.region, m_why};
}

PolicyInfo bestStaticPolicyInfo() {
    PolicyInfo info{
        "best-static",
        "The single option with the least forecast emissions that meets the deadline, started now.",
        "Best static scale baseline (Hanafy et al., CarbonScaler, SIGMETRICS 2024)",
        {objectiveOption()},
        {},
        {0x000000, LineDash::Dashed, PlotMarker::Square},
        [](const PolicyOptions&) { return std::make_unique<BestStaticPolicy>(); }};
    info.traits.simplerPlan = SimplerPlan::FixedConfiguration;
    return info;
}

} // namespace carbon3d
