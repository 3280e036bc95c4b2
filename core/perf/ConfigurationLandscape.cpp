// SPDX-License-Identifier: MIT
#include "perf/ConfigurationLandscape.h"

#include "perf/ExecutionMenuBuilder.h"
#include "perf/Goodput.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace carbon3d {

ConfigurationLandscape configurationLandscape(const TrainingJob& job, const ClusterProfile& cluster,
                                              int maxGpus, const ModellingOptions& modelling) {
    ConfigurationLandscape landscape;
    landscape.modelling = modelling;
    landscape.calibration = describeCalibration(cluster.calibrationFamily, cluster.calibration);
    const PerfProblem problem = makePerfProblem(job, cluster);
    const SearchOptions options = searchOptionsFor(job, maxGpus);
    // Thousands of variants differ only in micro-batch, interleave or recompute: keep the fastest per shape,
    // so the scatter shows one point per (d, t, p) a person would reason about.
    std::map<std::tuple<int, int, int>, RankedConfig> fastest;
    forEachFeasibleConfig(
        problem, options,
        [&fastest](const ParallelConfig& config, const PerfEstimate& estimate) {
            const auto key = std::make_tuple(config.dp, config.tp, config.pp);
            auto it = fastest.find(key);
            if (it == fastest.end() || estimate.tokensPerS > it->second.estimate.tokensPerS)
                fastest[key] = RankedConfig{config, estimate, 1.0 / estimate.tokensPerS};
        },
        &landscape.stats);
    for (auto& entry : fastest)
        landscape.shapes.push_back(entry.second);
    std::sort(landscape.shapes.begin(), landscape.shapes.end(),
              [](const RankedConfig& a, const RankedConfig& b) {
                  return a.estimate.power.facilityPowerW < b.estimate.power.facilityPowerW;
              });
    landscape.frontier = paretoFrontier(problem, options);
    landscape.menu = buildExecutionMenu(job, cluster, menuOptionsFor(modelling, maxGpus));
    applyGoodput(landscape.menu, modelling, cluster);
    return landscape;
}

} // namespace carbon3d
