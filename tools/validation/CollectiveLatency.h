// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// One measured all-reduce of tests/data/validation/collectives: latency-bound (8 bytes) on `nodes` nodes.
struct CollectiveLatencyRow {
    int nodes = 0;
    int gpus = 0;
    double timeS = 0.0;
};

// The network's share of a collective's latency (docs/MODEL.md#collective-latency): the excess of each
// multi-node time over the one-node time, fitted by least squares as networkS + perDoublingS x log2(nodes).
struct CollectiveLatencyFit {
    std::vector<CollectiveLatencyRow> rows;
    double oneNodeS = 0.0;     // the one-node row: what the per-call latency is checked against
    double networkS = 0.0;     // network_latency_s
    double perDoublingS = 0.0; // network_latency_per_doubling_s
    double largestResidualS = 0.0;
    // The fitted line's time on `nodes` nodes (the one-node time on one).
    double lineS(int nodes) const;
};

// Reads collectives/abci_a100_allreduce_latency.csv under dataDir and fits it. InputError names the file,
// line and column of a bad row, or the file when it has no one-node row or fewer than two node counts above
// one.
CollectiveLatencyFit fitCollectiveLatency(const std::string& dataDir);

} // namespace carbon3d
