// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

namespace carbon3d {

// Runs the fastest option while the forecast CI of the current slot is at or below the given
// percentile of the forecast over the window to the deadline, pauses otherwise. The engine's hard
// deadline guard forces it to run when the slack runs out.
class SuspendResumePolicy : public Policy {
public:
    explicit SuspendResumePolicy(double percentile)
        : m_percentile(percentile) {}
    std::string name() const override { return "suspend-resume"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override { m_fastest = context.costs.fastestOption(); }
    Decision decide(const DecisionState& state) override;

private:
    double m_percentile;
    int m_fastest = 0;
};

} // namespace carbon3d
