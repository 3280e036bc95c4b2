// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

namespace carbon3d {

// Carbon-agnostic baseline: the fastest option from the start, never paused.
class StaticMaxPolicy : public Policy {
public:
    std::string name() const override { return "static-max"; }
    void prepare(const PlanningContext& context) override { m_fastest = context.costs.fastestOption(); }
    Decision decide(const DecisionState& state) override {
        return {m_fastest, state.region,
                state.explain ? "carbon-agnostic: the fastest option on all GPUs from the start, never paused"
                              : ""};
    }

private:
    int m_fastest = 0;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo staticMaxPolicyInfo();

} // namespace carbon3d
