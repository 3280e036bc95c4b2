// SPDX-License-Identifier: MIT
#include "engine/policies/OraclePolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/OracleSeeds.h"

#include <algorithm>
#include <sstream>

namespace carbon3d {

std::map<std::string, std::string> OraclePolicy::options() const {
    std::map<std::string, std::string> options{
        {"method", m_method}, {"max_labels", std::to_string(m_maxLabels)}, {"solved_by", m_solution.method}};
    recordMigrationPricing(m_migration, options);
    return options;
}

void OraclePolicy::prepare(const PlanningContext& context) {
    m_seedsSkipped = false;
    m_solution = solveOracle(context, m_method, m_maxLabels, [this, &context] {
        // A run of each policy costs up to O(points^2) under a forecast that reaches the deadline (the hourly
        // year: 50 s against the search's 0.3 s), so long windows go without (docs/DECISIONS.md).
        if (context.decisionPoints().size() > kMostSeededPoints) {
            m_seedsSkipped = true;
            return std::vector<OracleSchedule>{};
        }
        return catalogueSchedules(context);
    });
    m_softDeadline = context.input.modelling.deadlineMode == ModellingOptions::DeadlineMode::Soft;
    m_regionIds.clear();
    for (const CarbonTrace& trace : context.input.regions)
        m_regionIds.push_back(trace.regionId);
}

Decision OraclePolicy::decide(const DecisionState& state) {
    const auto it = std::lower_bound(m_solution.points.begin(), m_solution.points.end(), state.nowUtc);
    if (it == m_solution.points.end() || *it != state.nowUtc) // past the deadline (soft mode only)
        return {kPaused, state.region, state.explain ? "past the deadline: nothing planned" : ""};
    const auto point = static_cast<std::size_t>(it - m_solution.points.begin());
    const int action = m_solution.actions[point];
    const int region = m_solution.regions[point];
    if (!state.explain)
        return {action, region};
    // Its forecast is the true trace: the oracle plans on perfect knowledge of the future.
    const ReasonUnits units(objective());
    // With several regions, where the intensity is read (the job's region) and where the plan runs.
    std::string here;
    std::string there;
    if (m_regionIds.size() > 1) {
        here = " in " + m_regionIds[static_cast<std::size_t>(state.region)];
        if (action >= 0)
            there = " in " + m_regionIds[static_cast<std::size_t>(region)] +
                    (region != state.region && state.currentOption != kNotStarted ? " (moving there)" : "");
    }
    return {action, region,
            "the offline optimum, planned once on the true traces to the deadline (no schedule has less " +
                std::string(units.emissions()) + "): at " +
                units.perKwh(state.forecast().valueAt(static_cast<double>(state.nowUtc))) + here +
                " the plan " +
                (action < 0 ? "waits for " + std::string(units.cleaner()) + " hours" : "runs" + there)};
}

std::vector<std::string> OraclePolicy::warnings() const {
    std::vector<std::string> warnings;
    if (m_solution.method != "exact") {
        std::ostringstream text;
        text << "oracle: the best schedule found ("
             << (m_solution.method == "seeded" ? "seeded from " + m_solution.seededFrom + "'s schedule"
                                               : m_solution.method)
             << ", " << m_solution.multipliersTried
             << " Lagrange multipliers), not proven optimal; lower_bound_kg is what no schedule can beat";
        if (m_seedsSkipped)
            text << "; over " << kMostSeededPoints
                 << " decision points, the other policies' schedules were not tried, so one may emit less";
        warnings.push_back(text.str());
    }
    // Where it is not the optimum of the other policies' decision space: moves it could not plan (issue 39).
    if (m_regionIds.size() > 1 && m_solution.plannedRegions < static_cast<int>(m_regionIds.size()))
        warnings.push_back("oracle: plans in the start region (" + m_regionIds.front() + ") only, because " +
                           m_solution.singleRegionReason +
                           "; a policy that moves (multi-region) may emit less; lower_bound_kg covers "
                           "every region");
    if (m_softDeadline)
        warnings.emplace_back(
            "oracle: plans to finish by the deadline; under the soft deadline a policy that "
            "finishes late may emit less, penalty included; lower_bound_kg covers late finishes");
    return warnings;
}

PolicyInfo oraclePolicyInfo() {
    PolicyInfo info{
        "oracle",
        "Least-carbon schedule with perfect knowledge under the same menu, overheads, regions and deadline.",
        "Offline optimum: Lagrangian DP, then a label search pruned by a completion bound (optimal when "
        "it ends under max_labels)",
        {choiceOption("method", "auto", {"auto", "exact", "lagrangian"}, "auto | exact | lagrangian"),
         wholeNumberOption("max_labels", "200000", 1, 1e9,
                           "exact method: give up (auto: fall back) beyond this many Pareto labels"),
         objectiveOption()},
        {},
        {0x0072B2, LineDash::Solid, PlotMarker::Disc},
        [](const PolicyOptions& o) {
            return std::make_unique<OraclePolicy>(
                o.text("method"), static_cast<std::size_t>(o.number("max_labels")), migrationPricing(o));
        }};
    // With several regions: priced like multi-region's moves when given its options.
    for (PolicyOptionInfo& option : migrationPricingOptions())
        info.options.push_back(std::move(option));
    info.traits.changesJobOrMenu = true;
    info.traits.perfectKnowledge = true;
    info.traits.usesForecast = false;
    return info;
}

} // namespace carbon3d
