// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ExecutionOption.h"
#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "engine/SimulationInput.h"

#include <optional>
#include <vector>

namespace carbon3d {

// A scenario made ready to simulate: its menu (from measured operating points when the scenario has
// them, else from the performance model) and the engine input. Shared by the GUI, which runs each
// policy as its own task, and the CLI, which runs them in turn.
struct PreparedScenario {
    Scenario scenario;
    ExecutionMenu menu;
    SimulationInput input;
    bool measuredMenu = false; // true when the menu is the scenario's operating-points table
    double staticMaxHours = 0; // runtime at the fastest option: the basis of a slack deadline
};

// What a scenario's job may run as: measured operating points when it has them, else the performance
// model's menu. Throws InputError when no configuration fits. A study builds it once per job and cluster.
struct ScenarioMenu {
    ExecutionMenu menu;
    bool measured = false;
};
ScenarioMenu buildScenarioMenu(const Scenario& scenario);

// Builds the menu and the engine input. totalWork overrides the work to do (with measured operating
// points, whose throughput is in their own units, it or the job's `work` is required; default: the
// job's tokens).
// Throws InputError when the scenario cannot run (no region, an empty menu, an infeasible deadline).
PreparedScenario prepareScenario(const Scenario& scenario, std::optional<double> totalWork = std::nullopt);
// The same with a menu already built for this scenario's job, cluster and GPUs (non-empty).
PreparedScenario prepareScenario(Scenario scenario, ScenarioMenu menu,
                                 std::optional<double> totalWork = std::nullopt);

// Runs one policy of a prepared scenario (thread-safe: the prepared scenario is only read).
RunResult runPolicy(const PreparedScenario& prepared, const PolicySpec& policy,
                    const SimulationHooks& hooks = {});

// Runs every policy in turn, then splits each run's saving (runner/SavingSplit.h; the reference runs the
// batch lacks are run too); progress is reported over the policies.
std::vector<RunResult> runAllPolicies(const PreparedScenario& prepared,
                                      const std::vector<PolicySpec>& policies,
                                      const SimulationHooks& hooks = {});

} // namespace carbon3d
