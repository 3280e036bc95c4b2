// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ExecutionOption.h"
#include "domain/OperatingPoints.h"
#include "domain/Scenario.h"
#include "domain/TrainingJob.h"

#include <vector>

namespace carbon3d {

struct MenuOptions {
    int maxGpus = 0; // GPUs allocated to the job; the menu covers active counts up to this
    ModellingOptions::BatchScaling batchScaling = ModellingOptions::BatchScaling::GlobalConstant;
    std::vector<double> powerLimitsW; // extra per-GPU power limits to offer (empty = default limit only)
    bool paretoOnly = true;           // keep only the (facility power, throughput) Pareto frontier
};

// The menu options a scenario's modelling choices ask for, on `maxGpus` allocated GPUs.
MenuOptions menuOptionsFor(const ModellingOptions& modelling, int maxGpus);

// Sorts the menu by increasing active power (ties: the faster first) and keeps only the options faster
// than every cheaper one: the (power, throughput) Pareto frontier.
void keepParetoFrontier(ExecutionMenu& menu);

// The scheduler's menu from the analytic performance model: for each active GPU count the best
// (t, p, b, v, recompute) configuration, then (optionally) only the Pareto-efficient ones, sorted by
// increasing power. Throughput is in tokens/s; activePowerW includes the active nodes' overhead.
ExecutionMenu buildExecutionMenu(const TrainingJob& job, const ClusterProfile& cluster,
                                 const MenuOptions& options);

// The menu from measured operating points (one option per row); work units are the table's. A row
// without parallel degrees measures the job's whole allocation: allocationGpus (the scenario's GPUs),
// or the cluster's when 0.
ExecutionMenu buildExecutionMenu(const OperatingPointTable& table, const ClusterProfile& cluster,
                                 int allocationGpus = 0);

} // namespace carbon3d
