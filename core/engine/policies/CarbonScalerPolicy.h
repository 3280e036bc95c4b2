// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <string>
#include <vector>

namespace carbon3d {

// CarbonScaler's plan over forecast pieces (Hanafy et al., SIGMETRICS 2024): `ladder` are menu options in
// increasing scale; item (piece i, step j) adds rate[j] - rate[j-1] work units/s at a marginal carbon rate
// cost(j, CI_i) - cost(j-1, CI_i) (step 0 is measured from a pause). Items are taken in decreasing
// value = marginal throughput / marginal carbon rate, each only as the next step of its piece, until the
// work is covered. With no embodied term that varies by scale the value is the paper's
// marginal throughput / (marginal power x CI).
struct ScalePlan {
    bool feasible = false;    // every piece at the top of the ladder still leaves work undone when false
    std::vector<int> steps;   // per piece: -1 = paused, else index into the ladder
    double plannedWork = 0.0; // work the taken items cover
};
ScalePlan planCarbonScaler(const CostModel& costs, const std::vector<int>& ladder,
                           const std::vector<ForecastPiece>& pieces, double work);

// The scale ladder of a menu: per active GPU count the fastest option, kept only while throughput grows
// with the GPU count (a larger size that is not faster is never worth its power).
std::vector<int> scaleLadder(const ExecutionMenu& menu);

// Each decision re-plans the remaining work on the current forecast to the deadline and runs the size
// the plan gives the current slot. A deadline too tight for the plan (overheads have eaten the slack)
// runs the largest size and records one warning; an infeasible job is refused by the engine up front.
class CarbonScalerPolicy : public Policy {
public:
    std::string name() const override { return "carbonscaler"; }
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override { return m_warnings; }

private:
    const CostModel* m_costs = nullptr;
    std::vector<int> m_ladder;
    std::vector<std::string> m_warnings;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo carbonScalerPolicyInfo();

} // namespace carbon3d
