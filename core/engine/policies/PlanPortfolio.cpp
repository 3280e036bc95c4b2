// SPDX-License-Identifier: MIT
#include "engine/policies/PlanPortfolio.h"

#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"

#include <algorithm>

namespace carbon3d {

namespace {

double emissionsWithPenaltyG(const RunResult& run) {
    return run.metrics.totalG + run.metrics.deadlinePenaltyG;
}

double weigh(const SimulationInput& input, Policy& policy, const std::atomic<bool>* cancel) {
    SimulationHooks hooks;
    hooks.cancel = cancel;
    const RunResult run = simulate(input, policy, hooks);
    if (run.cancelled)
        throw PlanningCancelled{};
    return emissionsWithPenaltyG(run);
}

} // namespace

std::vector<WeighedPlan> weighPlans(const SimulationInput& input, Policy& own,
                                    const std::atomic<bool>* cancel) {
    std::vector<WeighedPlan> plans;
    for (const PolicyInfo& info : policyCatalog()) {
        if (info.traits.simplerPlan == SimplerPlan::None)
            continue;
        const std::unique_ptr<Policy> policy = makePolicy({info.name, {}});
        plans.push_back({info.name, weigh(input, *policy, cancel)});
    }
    plans.push_back({std::string(), weigh(input, own, cancel)});
    return plans;
}

const WeighedPlan& leastPlan(const std::vector<WeighedPlan>& plans) {
    return *std::min_element(plans.begin(), plans.end(), [](const WeighedPlan& a, const WeighedPlan& b) {
        return a.emittedG < b.emittedG;
    });
}

} // namespace carbon3d
