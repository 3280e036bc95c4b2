// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"
#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"

#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

// How a run prices a move between regions: the scenario's migration_seconds, or a checkpoint-sized
// transfer over the WAN plus the scenario's restart (preemption) time. Multi-region and the oracle share
// it, so the oracle given the same pricing plans over the same moves.
struct MigrationPricing {
    bool checkpoint = false;        // migration time from checkpoint size
    double wanBitsPerSecond = 10e9; // WAN bandwidth for the checkpoint transfer, bit/s
};

// The two options that set it ("migration", "wan_gbps"), what they read, and what a run records of them.
std::vector<PolicyOptionInfo> migrationPricingOptions();
MigrationPricing migrationPricing(const PolicyOptions& options);
void recordMigrationPricing(const MigrationPricing& pricing, std::map<std::string, std::string>& options);

// `changed` (an input a policy already changed, or nullopt for the scenario's own) with the migration
// time the pricing gives; nullopt when that is the scenario's own input unchanged.
std::optional<SimulationInput> priceMigration(const MigrationPricing& pricing,
                                              const InputAdaptation& adaptation,
                                              std::optional<SimulationInput> changed,
                                              const SimulationInput& input);

struct MultiRegionParameters {
    double windowHours = 6.0; // forecast window over which regions are compared, h
    bool hysteresis = true;   // move only when the window's forecast saving exceeds the move's cost
    std::string innerName = "static-max";
    MigrationPricing migration; // applied by adaptInput
};

// Checkpoint bytes moved per migration: parameters x (2 bytes of bf16/fp16 weights + 12 bytes of
// Adam state: fp32 master weights, first and second moments).
double checkpointBytes(double parameters);

// Migration time: the checkpoint transfer (bytes x 8 / WAN bit/s) plus a restart, s.
double checkpointMigrationSeconds(double parameters, double wanBitsPerSecond, double restartSeconds);

// Follow the cleanest grid (docs/MODEL.md 9.8): at each decision, the region whose forecast CI averaged
// over the next window is lowest; once started, a move is made only when the forecast saving over the
// window exceeds the migration's cost (hysteresis). What to run there (an option, or a pause) is
// decided by a wrapped single-region policy that sees the chosen region's forecast. Regions are
// compared at the same UTC instant, so their time zones need no conversion; local-time rules of the
// inner policy (wait-awhile's deadline rules) use the first region's zone.
class MultiRegionPolicy : public Policy {
public:
    MultiRegionPolicy(MultiRegionParameters parameters, std::unique_ptr<Policy> inner);
    std::string name() const override { return "multi-region"; }
    std::map<std::string, std::string> options() const override;
    // The inner policy's changed input, if any, with a checkpoint-sized migration time when asked for:
    // the checkpoint transfer over the WAN plus the scenario's restart (preemption) time.
    std::optional<SimulationInput> adaptInput(const InputAdaptation& adaptation,
                                              const SimulationInput& input) override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override { return m_inner->warnings(); }

private:
    const Forecast& forecastOf(int region, UtcSeconds now);

    MultiRegionParameters m_p;
    std::unique_ptr<Policy> m_inner;
    const SimulationInput* m_input = nullptr;
    const CostModel* m_costs = nullptr;
    std::vector<std::unique_ptr<Forecaster>> m_forecasters;
    std::vector<Forecast> m_forecasts;
    std::vector<UtcSeconds> m_issuedAt;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo multiRegionPolicyInfo();

} // namespace carbon3d
