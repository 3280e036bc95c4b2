// SPDX-License-Identifier: MIT
#include "validation/CollectiveLatency.h"

#include "domain/InputError.h"
#include "validation/CsvTable.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

double CollectiveLatencyFit::lineS(int nodes) const {
    if (nodes <= 1)
        return oneNodeS;
    return oneNodeS + networkS + perDoublingS * std::log2(static_cast<double>(nodes));
}

CollectiveLatencyFit fitCollectiveLatency(const std::string& dataDir) {
    const Csv csv = readCsv(dataDir + "/collectives/abci_a100_allreduce_latency.csv");
    const int nodes = csv.column("nodes");
    const int gpus = csv.column("gpus");
    const int time = csv.column("time_us");
    CollectiveLatencyFit fit;
    bool hasOneNode = false;
    for (size_t row = 0; row < csv.rows.size(); ++row) {
        const CollectiveLatencyRow r{csv.integer(row, nodes), csv.integer(row, gpus),
                                     csv.number(row, time) * 1e-6};
        fit.rows.push_back(r);
        if (r.nodes == 1) {
            fit.oneNodeS = r.timeS;
            hasOneNode = true;
        }
    }
    // Ordinary least squares of (time - one-node time) on log2(nodes) over the multi-node rows.
    double n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    for (const CollectiveLatencyRow& r : fit.rows) {
        if (r.nodes <= 1)
            continue;
        const double x = std::log2(static_cast<double>(r.nodes));
        const double y = r.timeS - fit.oneNodeS;
        n += 1.0;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double spread = n * sxx - sx * sx;
    if (!hasOneNode || n < 2.0 || spread <= 0.0)
        throw InputError(csv.file, 0, 0, "expected a one-node row and at least two node counts above one");
    fit.perDoublingS = (n * sxy - sx * sy) / spread;
    fit.networkS = (sy - fit.perDoublingS * sx) / n;
    for (const CollectiveLatencyRow& r : fit.rows) {
        if (r.nodes <= 1)
            continue;
        fit.largestResidualS = std::max(fit.largestResidualS, std::abs(r.timeS - fit.lineS(r.nodes)));
    }
    return fit;
}

} // namespace carbon3d
