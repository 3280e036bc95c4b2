// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

namespace carbon3d {

// Forecast terciles over the window to the deadline: a slot below the lower tercile runs the
// fastest option, above the upper tercile the option with the least energy per unit of work, in
// between (ties included) the best-static option for the remaining work. Deadline-safe through the
// engine's guard. Mapping documented in docs/ENGINE.md.
class TertilePolicy : public Policy {
public:
    std::string name() const override { return "tertile"; }
    void prepare(const PlanningContext& context) override { m_costs = &context.costs; }
    Decision decide(const DecisionState& state) override;

private:
    const CostModel* m_costs = nullptr;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo tertilePolicyInfo();

} // namespace carbon3d
