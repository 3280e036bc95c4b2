// SPDX-License-Identifier: MIT
#pragma once

#include "engine/policies/OracleSolver.h"

namespace carbon3d {

// Replays the offline optimum computed in prepare(): perfect knowledge of the true trace.
class OraclePolicy : public Policy {
public:
    OraclePolicy(std::string method, std::size_t maxLabels)
        : m_method(std::move(method))
        , m_maxLabels(maxLabels) {}
    std::string name() const override { return "oracle"; }
    std::map<std::string, std::string> options() const override;
    bool perfectKnowledge() const override { return true; }
    void prepare(const PlanningContext& context) override {
        m_solution = solveOracle(context, m_method, m_maxLabels);
        m_startRegion = context.input.regions.front().regionId;
        m_regions = context.input.regions.size();
    }
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override;
    const OracleSolution& solution() const { return m_solution; }

private:
    std::string m_method;
    std::size_t m_maxLabels;
    OracleSolution m_solution;
    std::string m_startRegion;
    std::size_t m_regions = 1;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo oraclePolicyInfo();

} // namespace carbon3d
