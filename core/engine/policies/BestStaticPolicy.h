// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

namespace carbon3d {

// The single option with the least forecast emissions (contiguous run from the start, embodied and
// idle GPUs included) among those that meet the deadline; chosen at the first decision, kept.
class BestStaticPolicy : public Policy {
public:
    std::string name() const override { return "best-static"; }
    void prepare(const PlanningContext& context) override { m_costs = &context.costs; }
    Decision decide(const DecisionState& state) override;

private:
    const CostModel* m_costs = nullptr;
    int m_choice = -1;
    std::string m_why; // the reason for the choice, when asked (Decision::reason)
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo bestStaticPolicyInfo();

} // namespace carbon3d
