// SPDX-License-Identifier: MIT
#include "validation/GpuVariability.h"

#include "validation/CsvTable.h"
#include "validation/Statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace carbon3d {

GpuSpeedSpread measureGpuSpeedSpread(const std::string& dataDir) {
    const Csv csv = readCsv(dataDir + "/gpu_variability/lonestar6_a100_resnet50.csv");
    const int cabinet = csv.column("cabinet");
    const int node = csv.column("node");
    const int time = csv.column("perf"); // the GPU's median iteration time, s
    std::vector<double> times;
    std::map<std::pair<std::string, std::string>, std::vector<double>> byNode;
    for (size_t row = 0; row < csv.rows.size(); ++row) {
        times.push_back(csv.number(row, time));
        byNode[{csv.text(row, cabinet), csv.text(row, node)}].push_back(times.back());
    }
    const double fleetMedian = median(times);
    GpuSpeedSpread result;
    result.gpus = static_cast<int>(times.size());
    std::vector<double> kept;
    for (const auto& [name, nodeTimes] : byNode) {
        const bool faulty = std::all_of(nodeTimes.begin(), nodeTimes.end(),
                                        [&](double t) { return t > kFaultyNodeSlowdown * fleetMedian; });
        result.nodesLeftOut += faulty ? 1 : 0;
        result.gpusLeftOut += faulty ? static_cast<int>(nodeTimes.size()) : 0;
        if (!faulty)
            kept.insert(kept.end(), nodeTimes.begin(), nodeTimes.end());
    }
    if (kept.size() < 2)
        return result;
    for (double t : kept)
        result.meanS += t / static_cast<double>(kept.size());
    double squares = 0.0;
    for (double t : kept)
        squares += (t - result.meanS) * (t - result.meanS);
    result.spread = std::sqrt(squares / static_cast<double>(kept.size() - 1)) / result.meanS;
    const double keptMedian = median(kept);
    const auto [fastest, slowest] = std::minmax_element(kept.begin(), kept.end());
    result.slowest = *slowest / keptMedian;
    result.fastest = *fastest / keptMedian;
    std::sort(kept.begin(), kept.end());
    result.keptTimes = std::move(kept);
    return result;
}

} // namespace carbon3d
