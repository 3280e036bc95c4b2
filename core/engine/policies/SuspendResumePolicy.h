// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

namespace carbon3d {

// Runs one option while the forecast CI of the current slot is at or below the given percentile of
// the forecast over the window to the deadline, pauses otherwise. The engine's hard deadline guard
// forces it to run when the slack runs out.
// Which option (chosen once, at the first decision):
// - fit (default): the option best-static would choose were the deadline the time the policy expects
//   to run (the forecast time at or below the threshold), so a job with slack to spare runs a
//   smaller, more efficient configuration instead of idling a full-size one. The fastest option when
//   nothing fits. On a flat grid it never pauses and equals best-static.
// - fastest: the literature's baseline (a fixed full-size job suspended and resumed; Wiesner et al.,
//   Hanafy et al.). On a flat grid it equals static-max.
class SuspendResumePolicy : public Policy {
public:
    SuspendResumePolicy(double percentile, bool fitSize)
        : m_percentile(percentile)
        , m_fitSize(fitSize) {}
    std::string name() const override { return "suspend-resume"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;

private:
    double threshold(const DecisionState& state) const;
    int chooseOption(const DecisionState& state, double threshold) const;

    double m_percentile;
    bool m_fitSize;
    const CostModel* m_costs = nullptr;
    int m_option = -1; // chosen at the first decision
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo suspendResumePolicyInfo();

} // namespace carbon3d
