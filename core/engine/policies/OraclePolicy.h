// SPDX-License-Identifier: MIT
#pragma once

#include "engine/policies/MultiRegionPolicy.h"
#include "engine/policies/OracleSolver.h"

namespace carbon3d {

// The longest window, in decision points, whose unproven oracle runs the other policies for seeds: 2,000 is
// 83 days of hourly decisions (41 of the 30-minute default on 5-minute traces).
inline constexpr std::size_t kMostSeededPoints = 2000;

// Replays the offline optimum computed in prepare(): perfect knowledge of the true traces. Where its search
// does not prove its schedule optimal, it starts again from the schedules the catalogue's other policies make
// of the same job (OracleSeeds.h), so it never emits more than they do, proven optimal or not (on windows of
// up to kMostSeededPoints decision points; its warning says when it skipped them).
class OraclePolicy : public Policy {
public:
    OraclePolicy(std::string method, std::size_t maxLabels, MigrationPricing migration = {})
        : m_method(std::move(method))
        , m_maxLabels(maxLabels)
        , m_migration(migration) {}
    std::string name() const override { return "oracle"; }
    std::map<std::string, std::string> options() const override;
    // Moves priced as multi-region prices them when given the same options (MultiRegionPolicy.h).
    std::optional<SimulationInput> adaptInput(const InputAdaptation& adaptation,
                                              const SimulationInput& input) override {
        return priceMigration(m_migration, adaptation, std::nullopt, input);
    }
    bool perfectKnowledge() const override { return true; }
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override;
    const OracleSolution& solution() const { return m_solution; }

private:
    std::string m_method;
    std::size_t m_maxLabels;
    MigrationPricing m_migration;
    OracleSolution m_solution;
    std::vector<std::string> m_regionIds; // the input's regions, the start region first
    bool m_softDeadline = false;
    bool m_seedsSkipped = false; // the window was too long to run the other policies for seeds
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo oraclePolicyInfo();

} // namespace carbon3d
