// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"
#include "engine/forecast/Forecaster.h"

#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

struct MultiRegionParameters {
    double windowHours = 6.0; // forecast window over which regions are compared, h
    bool hysteresis = true;   // move only when the window's forecast saving exceeds the move's cost
    std::string innerName = "static-max";
    bool checkpointMigration = false; // migration time from checkpoint size (applied by adaptInput)
    double wanBitsPerSecond = 10e9;   // WAN bandwidth for the checkpoint transfer, bit/s
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
