// SPDX-License-Identifier: MIT
#include "perf/ExecutionMenuBuilder.h"

#include "perf/ConfigSearch.h"
#include "perf/PerfModel.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

namespace {

std::string limitLabel(double limitW) {
    return limitW > 0.0 ? " @" + std::to_string(static_cast<int>(std::lround(limitW))) + " W" : std::string();
}

void sortByPower(ExecutionMenu& menu) {
    std::sort(menu.begin(), menu.end(), [](const ExecutionOption& a, const ExecutionOption& b) {
        if (a.activePowerW != b.activePowerW)
            return a.activePowerW < b.activePowerW;
        return a.workPerSecond > b.workPerSecond;
    });
}

} // namespace

ExecutionMenu buildExecutionMenu(const TrainingJob& job, const ClusterProfile& cluster,
                                 const MenuOptions& options) {
    const PerfProblem problem = makePerfProblem(job, cluster);
    SearchOptions search =
        searchOptionsFor(job, options.maxGpus > 0 ? options.maxGpus : cluster.gpusAvailable);
    search.objective = SearchObjective::Time;
    if (options.batchScaling == ModellingOptions::BatchScaling::PerReplicaConstant) {
        // Per-replica batch held at its value in the fastest configuration on all allocated GPUs.
        SearchOptions all = search;
        all.exactGpus = true;
        const auto top = searchConfigs(problem, all, 1);
        if (!top.empty())
            search.perReplicaBatch = std::max(1, job.globalBatch / top.front().config.dp);
    }
    std::vector<double> limits{0.0};
    for (double w : options.powerLimitsW) {
        if (w > 0.0)
            limits.push_back(w);
    }
    // Enumerated and checked for memory once, at the first limit; only the estimate depends on the limit.
    std::vector<ParallelConfig> feasible;
    ExecutionMenu menu;
    for (double limit : limits) {
        search.powerLimitW = limit;
        const auto best = feasible.empty() ? bestPerGpuCount(problem, search, nullptr, &feasible)
                                           : bestPerGpuCount(problem, search, feasible);
        for (const auto& slot : best) {
            if (!slot)
                continue;
            ExecutionOption option;
            option.config = slot->config;
            option.gpusActive = slot->config.gpus();
            option.powerLimitW = limit;
            option.workPerSecond = slot->estimate.tokensPerS;
            option.activePowerW = slot->estimate.power.itPowerW;
            option.gpuPowerW = slot->estimate.power.gpuAverageW * option.gpusActive;
            option.measured = false;
            // A count that leaves part of a node idle still pays that node's overhead: say so.
            option.label = slot->config.label() + limitLabel(limit) +
                           (option.gpusActive % problem.gpusPerNode != 0 ? " (part of a node)" : "");
            menu.push_back(option);
        }
    }
    if (options.paretoOnly)
        keepParetoFrontier(menu);
    else
        sortByPower(menu);
    return menu;
}

MenuOptions menuOptionsFor(const ModellingOptions& modelling, int maxGpus) {
    MenuOptions options;
    options.maxGpus = maxGpus;
    options.batchScaling = modelling.batchScaling;
    options.powerLimitsW = modelling.powerLimitsW; // offered only when the scenario asks
    return options;
}

void keepParetoFrontier(ExecutionMenu& menu) {
    sortByPower(menu);
    ExecutionMenu frontier;
    double fastest = 0.0;
    for (const ExecutionOption& option : menu) {
        if (option.workPerSecond > fastest) {
            frontier.push_back(option);
            fastest = option.workPerSecond;
        }
    }
    menu = std::move(frontier);
}

ExecutionMenu buildExecutionMenu(const OperatingPointTable& table, const ClusterProfile& cluster,
                                 int allocationGpus) {
    ExecutionMenu menu;
    const int perNode = std::max(1, cluster.gpusPerNode);
    for (const OperatingPoint& point : table.points) {
        ExecutionOption option;
        option.config.dp = point.dp.value_or(1);
        option.config.tp = point.tp.value_or(1);
        option.config.pp = point.pp.value_or(1);
        option.config.microBatch = point.microBatch.value_or(1);
        const bool hasDegrees = point.dp || point.tp || point.pp;
        option.gpusActive = hasDegrees
                                ? option.config.gpus()
                                : std::max(1, allocationGpus > 0 ? allocationGpus : cluster.gpusAvailable);
        option.powerLimitW = point.powerLimitW.value_or(0.0);
        option.workPerSecond = point.throughput;
        // What the measurement covers decides what the cluster adds, so that nothing is counted twice:
        // GPU boards get their nodes' overhead (like the analytic model); wall power of whole nodes gets
        // nothing before PUE; facility power is divided by the PUE the engine will multiply by again.
        const int nodes = (option.gpusActive + perNode - 1) / perNode;
        switch (point.powerScope) {
        case PowerScope::Gpu:
            option.activePowerW = point.powerW + nodes * cluster.nodeOverheadW;
            option.gpuPowerW = point.powerW;
            break;
        case PowerScope::Node:
            option.activePowerW = point.powerW; // the boards' share is not measured: gpuPowerW stays 0
            break;
        case PowerScope::Facility:
            option.activePowerW = point.powerW / cluster.pue;
            break;
        }
        option.measured = true;
        option.label = (hasDegrees ? option.config.label() : std::to_string(option.gpusActive) + " GPUs") +
                       limitLabel(option.powerLimitW) + " (measured)";
        menu.push_back(option);
    }
    std::sort(menu.begin(), menu.end(), [](const ExecutionOption& a, const ExecutionOption& b) {
        return a.activePowerW < b.activePowerW;
    });
    return menu;
}

} // namespace carbon3d
