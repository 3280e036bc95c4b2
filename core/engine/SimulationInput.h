// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/ExecutionOption.h"
#include "domain/Scenario.h"
#include "domain/Time.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace carbon3d {

// Everything the engine needs for one run, in SI units. Built from a Scenario and a menu by
// makeSimulationInput(), or field by field in tests (synthetic menus and traces).
struct SimulationInput {
    std::vector<CarbonTrace> regions; // the job starts in regions[0]
    ExecutionMenu menu;               // options the policies choose from (any order; indices are stable)
    double totalWork = 0.0;           // work units to complete (tokens, or the profile's units)
    // Work units of one training step: the global batch's tokens on the performance model's menu; 0 on a
    // measured table, whose unit says nothing of the step (policies that count steps say what they assume).
    double workPerStep = 0.0;
    int gpusHeld = 0;                   // GPUs allocated to the job once it has started
    double idlePowerPerGpuW = 0.0;      // IT power of a parked-but-held GPU, W (before PUE)
    int gpusPerNode = 1;                // GPUs per node: how many nodes the held and the active GPUs fill
    double idlePowerPerNodeW = 0.0;     // IT power of a held node with no active GPU, W (excl. its GPUs)
    double pue = 1.0;                   // facility power / IT power
    double embodiedGPerGpuSecond = 0.0; // embodied gCO2e charged per held GPU per second
    UtcSeconds startUtc = 0;            // when the job may start (it holds no GPUs before it starts)
    UtcSeconds deadlineUtc = 0;         // absolute deadline
    ModellingOptions modelling;         // gpuPriceUsdPerHour resolved (the cluster's list price when unset)
    // Per region, its electricity price in USD/kWh on the grid of its carbon trace (one value per slot);
    // empty, or shorter than regions: modelling.electricityUsdPerKwh there.
    std::vector<std::vector<double>> electricityUsdPerKwh;
    ForecastSpec forecast;
    std::string sourceName = "scenario"; // named in error messages (the scenario file when known)
};

// How a caller watches and stops a run. Both are optional; neither involves Qt.
struct SimulationHooks {
    std::function<bool(double fraction)> progress; // fraction of the work done; return false to cancel
    const std::atomic<bool>* cancel = nullptr;     // set to true (from any thread) to cancel
    bool explainDecisions = false; // record each decision's reason in RunResult::decisions (the studio)
};

// Embodied emissions per GPU-second: kgCO2e per GPU amortised linearly over the service life.
double embodiedGPerGpuSecond(const ClusterProfile& cluster);

// Absolute deadline: start + hours, or start + (1 + slack) x the runtime at the menu's fastest option
// (rounded up to a whole second).
UtcSeconds resolveDeadline(const DeadlineSpec& spec, UtcSeconds startUtc, double totalWork,
                           const ExecutionMenu& menu);

// Input for a scenario: regions and traces, GPUs, PUE, idle power, embodied rate, deadline, options.
// totalWork is the job's tokens, or the profile's work units when the menu comes from measurements.
SimulationInput makeSimulationInput(const Scenario& scenario, const ExecutionMenu& menu, double totalWork);

} // namespace carbon3d
