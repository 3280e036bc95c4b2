// SPDX-License-Identifier: MIT
#include "engine/policies/OraclePolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"

#include <algorithm>
#include <sstream>

namespace carbon3d {

std::map<std::string, std::string> OraclePolicy::options() const {
    return {
        {"method", m_method}, {"max_labels", std::to_string(m_maxLabels)}, {"solved_by", m_solution.method}};
}

Decision OraclePolicy::decide(const DecisionState& state) {
    const auto it = std::lower_bound(m_solution.points.begin(), m_solution.points.end(), state.nowUtc);
    if (it == m_solution.points.end() || *it != state.nowUtc) // past the deadline (soft mode only)
        return {kPaused, state.region, state.explain ? "past the deadline: nothing planned" : ""};
    const int action = m_solution.actions[static_cast<std::size_t>(it - m_solution.points.begin())];
    if (!state.explain)
        return {action, state.region};
    // Its forecast is the true trace: the oracle plans on perfect knowledge of the future.
    const ReasonUnits units(objective());
    return {action, state.region,
            "the offline optimum, planned once on the true trace to the deadline (no schedule has less " +
                std::string(units.emissions()) + "): at " +
                units.perKwh(state.forecast().valueAt(static_cast<double>(state.nowUtc))) + " the plan " +
                (action < 0 ? "waits for " + std::string(units.cleaner()) + " hours" : std::string("runs"))};
}

std::vector<std::string> OraclePolicy::warnings() const {
    std::vector<std::string> warnings;
    if (m_solution.method != "exact") {
        std::ostringstream text;
        text << "oracle: the best schedule found (" << m_solution.method << ", "
             << m_solution.multipliersTried
             << " Lagrange multipliers), not proven optimal; lower_bound_kg is what no schedule can beat";
        warnings.push_back(text.str());
    }
    // Where it is not the optimum of the other policies' decision space: it never moves (issue 39).
    if (m_regions > 1)
        warnings.push_back(
            "oracle: plans in the start region (" + m_startRegion + ") only; moving between the " +
            std::to_string(m_regions) +
            " regions is outside its decision space, so a policy that moves (multi-region) may "
            "emit less; lower_bound_kg covers every region");
    return warnings;
}

PolicyInfo oraclePolicyInfo() {
    PolicyInfo info{
        "oracle",
        "Least-carbon schedule with perfect knowledge under the same menu, overheads and deadline.",
        "Offline optimum: Lagrangian DP, then a label search pruned by a completion bound (optimal when "
        "it ends under max_labels)",
        {choiceOption("method", "auto", {"auto", "exact", "lagrangian"}, "auto | exact | lagrangian"),
         numberOption("max_labels", "200000", 1, 1e9,
                      "exact method: give up (auto: fall back) beyond this many Pareto labels"),
         objectiveOption()},
        {},
        {0x0072B2, LineDash::Solid, PlotMarker::Disc},
        [](const PolicyOptions& o) {
            return std::make_unique<OraclePolicy>(o.text("method"),
                                                  static_cast<std::size_t>(o.number("max_labels")));
        }};
    info.traits.perfectKnowledge = true;
    info.traits.usesForecast = false;
    return info;
}

} // namespace carbon3d
