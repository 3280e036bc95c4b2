// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"
#include "engine/forecast/SvrForecaster.h"

#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

struct ChaseParameters {
    double eta = 0.5;                // weight of carbon vs time
    double maxPowerW = 300.0;        // Chase's normalising power: the A40's maximum limit (set your GPU's)
    double maxCiGPerKwh = 750.0;     // Chase's normalising carbon intensity, g/kWh
    double intervalS = 1800.0;       // re-decide every 30 min
    bool svr = false;                // CI_next from Chase's SVR predictor instead of the engine's forecast
    SvrFit svrFit = SvrFit::OnceRaw; // how that SVR is fitted: as Chase's code does it, by default
    double hostShare = 0.0;          // share of the nodes' overhead power counted in P (0: Chase's own cost)
};

// Chase's cost of one power-limit option at carbon intensity ci (per unit of work):
// [eta x P x CI + (1 - eta) x maxPower x maxCI] / throughput, P the option's power per active GPU (W),
// throughput its work units/s (all candidates have the same GPU count, so per-GPU or total throughput
// ranks them the same). P is the GPU's own power, as Chase measures it (with Zeus), plus hostShare of the
// option's node overhead per GPU: 0 is Chase's cost, 1 the corrected form that counts what the host draws.
// An option that does not know its GPU power (gpuPowerW 0) counts all of its active power.
double chaseCost(const ExecutionOption& option, double ciGPerKwh, const ChaseParameters& parameters);

// The menu index among `candidates` with the least chaseCost at ci; a tie goes to the faster option. What
// ChasePolicy decides, also used by docs/REPRODUCTION.md's Chase section and its tests.
int chaseChoice(const ExecutionMenu& menu, const std::vector<int>& candidates, double ciGPerKwh,
                const ChaseParameters& parameters);

// Chase (Yang et al. 2023): the job keeps its place and scale (the fastest option's configuration);
// every 30 min it sets the power limit among that configuration's power-limit variants on the menu to
// minimise chaseCost on the predicted CI of the next interval. Never pauses. A menu without variants
// makes it static-max (with a warning).
class ChasePolicy : public Policy {
public:
    explicit ChasePolicy(ChaseParameters parameters)
        : m_p(parameters) {}
    std::string name() const override { return "chase"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override { return m_warnings; }
    const std::vector<int>& candidates() const { return m_candidates; }

private:
    ChaseParameters m_p;
    const SimulationInput* m_input = nullptr;
    std::vector<int> m_candidates;
    std::unique_ptr<SvrForecaster> m_svr;
    UtcSeconds m_lastDecisionUtc = 0;
    int m_choice = -1;
    std::vector<std::string> m_warnings;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo chasePolicyInfo();

} // namespace carbon3d
