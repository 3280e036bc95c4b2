// SPDX-License-Identifier: MIT
#include "engine/SimulationInput.h"

#include "domain/InputError.h"
#include "domain/NumberText.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

double embodiedGPerGpuSecond(const ClusterProfile& cluster) {
    if (cluster.serviceLifeYears <= 0.0)
        return 0.0;
    // 365.25-day years: the amortisation period is a convention, not a calendar.
    return cluster.embodiedKgPerGpu * 1000.0 / (cluster.serviceLifeYears * 365.25 * 86400.0);
}

UtcSeconds resolveDeadline(const DeadlineSpec& spec, UtcSeconds startUtc, double totalWork,
                           const ExecutionMenu& menu) {
    if (spec.kind == DeadlineSpec::Kind::Hours)
        return startUtc + static_cast<UtcSeconds>(std::ceil(spec.value * 3600.0));
    double fastest = 0.0;
    for (const ExecutionOption& option : menu)
        fastest = std::max(fastest, option.workPerSecond);
    if (fastest <= 0.0)
        throw InputError("menu", 0, 0,
                         "expected at least one option with positive throughput to resolve a slack deadline");
    // A thousand years: far past any trace, and well inside what a UtcSeconds holds (a throughput of 1e-300
    // once made this overflow into "expected the deadline after the start", issue 40).
    constexpr double kLongestJobSeconds = 1000.0 * 365.25 * 86400.0;
    const double seconds = totalWork / fastest * (1.0 + spec.value);
    if (!(seconds <= kLongestJobSeconds))
        throw InputError("menu", 0, 0,
                         "expected a job that can finish: its fastest option does " +
                             shortestNumber(fastest) + " work units per second, so its " +
                             shortestNumber(totalWork) + " units would take more than a thousand years");
    return startUtc + static_cast<UtcSeconds>(std::ceil(seconds));
}

SimulationInput makeSimulationInput(const Scenario& scenario, const ExecutionMenu& menu, double totalWork) {
    SimulationInput input;
    for (const RegionSpec& region : scenario.regions) {
        CarbonTrace trace = region.trace;
        if (trace.regionId.empty())
            trace.regionId = region.regionId;
        if (!region.timeZone.empty())
            trace.timeZone = region.timeZone;
        input.regions.push_back(std::move(trace));
    }
    input.menu = menu;
    input.totalWork = totalWork;
    if (!scenario.operatingPoints)
        input.workPerStep = static_cast<double>(scenario.job.globalBatch) * scenario.job.model.seqLen;
    input.gpusHeld = std::max(scenario.gpus, mostActiveGpus(menu));
    input.idlePowerPerGpuW = scenario.cluster.accelerator.idleW;
    input.gpusPerNode = scenario.cluster.gpusPerNode;
    input.idlePowerPerNodeW = scenario.cluster.nodeIdleW;
    input.pue = scenario.cluster.pue;
    input.embodiedGPerGpuSecond = embodiedGPerGpuSecond(scenario.cluster);
    input.startUtc = scenario.startUtc;
    input.deadlineUtc = resolveDeadline(scenario.deadline, scenario.startUtc, totalWork, menu);
    input.modelling = scenario.modelling;
    for (std::size_t r = 0; r < scenario.regions.size(); ++r) {
        const RegionSpec& region = scenario.regions[r];
        if (!region.priceTrace)
            continue;
        const PriceTrace& prices = *region.priceTrace;
        if (scenario.startUtc < prices.startUtc || input.deadlineUtc > prices.endUtc())
            throw InputError(prices.sourceFile, 0, 0,
                             "expected the price trace of region '" + region.regionId + "' (" +
                                 formatIsoUtc(prices.startUtc) + " to " + formatIsoUtc(prices.endUtc()) +
                                 ") to cover the job from its start " + formatIsoUtc(scenario.startUtc) +
                                 " to its deadline " + formatIsoUtc(input.deadlineUtc));
        input.electricityUsdPerKwh.resize(scenario.regions.size());
        const CarbonTrace& grid = input.regions[r];
        input.electricityUsdPerKwh[r] = pricesOnGrid(prices, grid.startUtc, grid.stepSeconds, grid.size(),
                                                     scenario.modelling.electricityUsdPerKwh);
    }
    if (!std::isfinite(input.modelling.gpuPriceUsdPerHour))
        input.modelling.gpuPriceUsdPerHour = scenario.cluster.gpuPriceUsdPerHour;
    input.forecast = scenario.forecast;
    input.sourceName = scenario.sourceFile.empty() ? std::string("scenario") : scenario.sourceFile;
    return input;
}

} // namespace carbon3d
