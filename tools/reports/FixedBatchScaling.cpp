// SPDX-License-Identifier: MIT
#include "reports/FixedBatchScaling.h"

#include "perf/PerfModel.h"
#include "perf/Stragglers.h"
#include "reports/NumberFormat.h"
#include "reports/ValidationReport.h"
#include "validation/ValidationSet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace carbon3d::reports {
namespace {

// The fleet sizes the straggler check reads: a node, a small job, the sample scenario's order, a large run.
constexpr int kSlowestOfNGpus[] = {8, 64, 512, 4096};

// E[largest of n draws with replacement] from the ascending sample x: the i-th smallest is the largest with
// probability (i/k)^n - ((i-1)/k)^n.
double expectedLargestDraw(const std::vector<double>& ascending, int n) {
    const auto k = static_cast<double>(ascending.size());
    double expected = 0.0;
    for (size_t i = 0; i < ascending.size(); ++i)
        expected += ascending[i] * (std::pow((i + 1.0) / k, n) - std::pow(i / k, n));
    return expected;
}

std::vector<SlowestOfN> slowestOfN(const GpuSpeedSpread& spread) {
    std::vector<SlowestOfN> rows;
    for (int n : kSlowestOfNGpus)
        rows.push_back({n, 1.0 + spread.spread * expectedMaxOfNormals(n),
                        expectedLargestDraw(spread.keptTimes, n) / spread.meanS});
    return rows;
}

std::string modelName(const ValidationRow& row) {
    return fixed(row.publishedParamsBillion, 1) + "B";
}

// The series' drop from its first row to its last with v held, split over the step's parts: with G = GPUs x
// step time, drop = 1 - G0/G1 = sum over parts of (N1 part1 - N0 part0) / G1.
DropSplit splitDrop(const StrongScalingSeries& series, const HeldInterleaveDrop& held,
                    const PerfCalibration& calibration) {
    const ValidationRow& first = series.rows.front().row;
    const ValidationRow& last = series.rows.back().row;
    auto estimateHeld = [&](const ValidationRow& row) {
        ParallelConfig config = row.config;
        config.interleave = held.interleave;
        return estimate(validationProblem(row, calibration), config, 0.0);
    };
    const PerfEstimate a = estimateHeld(first);
    const PerfEstimate b = estimateHeld(last);
    DropSplit split;
    split.series = modelName(first);
    split.firstGpus = first.config.gpus();
    split.lastGpus = last.config.gpus();
    split.interleave = held.interleave;
    split.measuredDrop = series.measuredDrop;
    split.predictedDrop = held.drop;
    const double n0 = split.firstGpus, n1 = split.lastGpus;
    for (const TimeBreakdownField& field : timeBreakdownFields()) {
        const double points = (n1 * b.time.*field.member - n0 * a.time.*field.member) / (n1 * b.stepTimeS);
        if (std::abs(points) >= 5e-4) // parts that move the drop by at least 0.05 points
            split.points.emplace_back(field.label, points);
    }
    return split;
}

// Plain 1F1B and the largest interleave held on the series' first and last rows (its held drops ascend in v).
std::vector<DropSplit> splitTable2(const StrongScalingCheck& table2, const PerfCalibration& calibration) {
    std::vector<DropSplit> splits;
    for (const StrongScalingSeries& series : table2.series) {
        const HeldInterleaveDrop* plain = series.heldDropAt(1);
        if (plain == nullptr)
            continue;
        splits.push_back(splitDrop(series, *plain, calibration));
        if (series.heldDrops.back().interleave > 1)
            splits.push_back(splitDrop(series, series.heldDrops.back(), calibration));
    }
    return splits;
}

std::vector<DataParallelSeries> vtrainSeries(const ValidationPredictions& predictions) {
    std::map<std::tuple<std::string, int, int>, std::vector<const PredictedRow*>> byKey;
    for (const PredictedRow& predicted : predictions.rows) {
        const ValidationRow& row = predicted.row;
        if (row.source == ValidationSource::VtrainMulti)
            byKey[{row.group, row.config.tp, row.config.microBatch}].push_back(&predicted);
    }
    std::vector<DataParallelSeries> out;
    for (const auto& [key, members] : byKey) {
        const auto [fewest, most] = std::minmax_element(
            members.begin(), members.end(), [](const PredictedRow* a, const PredictedRow* b) {
                return std::tie(a->row.config.dp, a->row.line) < std::tie(b->row.config.dp, b->row.line);
            });
        const ValidationRow& fewestRow = (*fewest)->row;
        const ValidationRow& mostRow = (*most)->row;
        if (fewestRow.config.dp == mostRow.config.dp)
            continue;
        DataParallelSeries s;
        std::tie(s.group, s.tp, s.microBatch) = key;
        s.fewestReplicas = fewestRow.config.dp;
        s.mostReplicas = mostRow.config.dp;
        s.rows = static_cast<int>(members.size());
        // Same GPUs and batch: per-GPU throughput goes as 1 / step time.
        s.measuredRatio = fewestRow.measuredStepS / mostRow.measuredStepS;
        s.predictedRatio = (*fewest)->predictedS / (*most)->predictedS;
        out.push_back(s);
    }
    return out;
}

void termsIntro(std::ostream& md, const PerfCalibration& c) {
    md << "\n## Scaling at a fixed batch\n\nAt a fixed global batch, more data parallelism gives each "
          "replica fewer micro-batches and each GPU less work per step, while some costs per step stay. "
          "What the model charges for it, term by term (docs/MODEL.md):\n\n"
       << "- **The pipeline bubble**, (p - 1) / (v m) of the compute, grows as m = B / (d b) falls. No "
          "parameter: the schedule's arithmetic.\n"
       << "- **The gradient reduction** moves the same bytes per GPU whatever d is (2 (d - 1) / d of the "
          "stage's gradients), so its share grows as the compute per step shrinks. Whether the stack hides "
          "it is a fact of the stack (`dp_overlap`): the 2021 Megatron-LM runs and vTrain's "
          "Megatron-DeepSpeed (the A100 family) reduce after the backward pass (0); Megatron-Core (the "
          "Hopper and CDNA 3 families) reduces each bucket as the last backward pass finishes it and "
          "gathers the weights during the next forward pass (1), so only what exceeds those passes shows, "
          "and never less than the last bucket.\n"
       << "- **The network's bandwidth**: collectives between nodes reach `inter_node_comm_efficiency` = "
       << fixed(c.interNodeCommEfficiency, 4)
       << " of the nominal rate (fitted on throughput). On a DGX A100's "
          "eight 200 Gb/s HDR links that is a bus bandwidth of "
       << fixed(8.0 * 25.0 * c.interNodeCommEfficiency, 1)
       << " GB/s, against 192 GB/s NVIDIA reports for the node (github.com/NVIDIA/nccl issue 812) and 183.8 "
          "GB/s at 1 GB and 188.2 GB/s at 4 GB measured on two Azure NDm A100 v4 nodes (microsoft/mscclpp, "
          "docs/performance-ndmv4.md): the fit charges the network "
       << percent(192.0 / (200.0 * c.interNodeCommEfficiency) - 1.0, 0)
       << " more time than those measurements. Published sweeps that hold the message size and grow the "
          "node count show large messages' bus bandwidth flat from a few nodes up; no sweep with its "
          "numbers in a table was found, so the model keeps one bandwidth per link.\n"
       << "- **The network's latency** grows with the nodes a collective spans (below).\n"
       << "- **Stragglers**: every step waits for the slowest of its GPUs (below).\n";
}

void latencyTable(std::ostream& md, const FixedBatchScaling& s, const PerfCalibration& c) {
    const CollectiveLatencyFit& f = s.latency;
    md << "\n### Collective latency by node count\n\nAn 8-byte NCCL all-reduce on ABCI 2.0's A100 nodes "
          "(8 GPUs each, NCCL 2.8.4; tests/data/validation/collectives): the time is all latency. A "
          "least-squares line through the multi-node runs' excess over one node gives `network_latency_s` "
          "= "
       << fixed(f.networkS * 1e6, 2)
       << " us and `network_latency_per_doubling_s` = " << fixed(f.perDoublingS * 1e6, 3)
       << " us (the values compiled in); the per-call `collective_latency_s`, fitted on throughput, is "
       << fixed(c.collectiveLatencyS * 1e6, 1) << " us against the one-node run's "
       << fixed(f.oneNodeS * 1e6, 2) << " us.\n\n"
       << "| nodes | GPUs | measured us | line us |\n|---|---|---|---|\n";
    for (const CollectiveLatencyRow& r : f.rows) {
        const double line = f.lineS(r.nodes);
        md << "| " << r.nodes << " | " << r.gpus << " | " << fixed(r.timeS * 1e6, 2) << " | "
           << fixed(line * 1e6, 2) << " |\n";
    }
    md << "\nAt the message sizes of a gradient reduction (hundreds of MB per GPU) this latency is well "
          "under a millisecond even on a thousand nodes; it matters for the small tensor-parallel messages "
          "of a group "
          "that straddles nodes.\n";
}

void stragglerTable(std::ostream& md, const FixedBatchScaling& s) {
    const GpuSpeedSpread& g = s.spread;
    md << "\n### Stragglers: the slowest of n GPUs\n\nResNet-50 training timed on each of " << g.gpus
       << " A100s of TACC Lonestar6, one GPU at a time (Jain et al., SC24; "
          "tests/data/validation/gpu_variability). Left out as a node fault rather than a draw from the "
          "spread: "
       << countWord(g.nodesLeftOut) << " whole nodes (" << g.gpusLeftOut
       << " GPUs) whose every GPU ran at more than 1.5x the median. The others' iteration times have a "
          "coefficient of variation of "
       << percent(g.spread, 2) << " (fastest " << fixed(g.fastest, 3) << "x, slowest " << fixed(g.slowest, 3)
       << "x the median): `gpu_speed_spread`. A synchronous step waits for the slowest of its n GPUs; the "
          "model takes their speeds as normal draws, so the lockstep part of a step (compute and the "
          "pipeline's fill and drain) lasts 1 + spread x E[max of n standard normals] times the mean. "
          "Against the fleet's own times (the exact expectation of the largest of n draws from the kept "
          "GPUs):\n\n"
       << "| GPUs | model: slowest / mean | measured fleet: slowest / mean |\n|---|---|---|\n";
    for (const SlowestOfN& r : s.slowest)
        md << "| " << grouped(r.gpus) << " | " << fixed(r.model, 3) << " | " << fixed(r.measured, 3)
           << " |\n";
    md << "\nThe measured fleet's tail is a little heavier than normal at tens of GPUs, and at thousands the "
          "draws run out of fleet: its slowest GPU caps them. The spread is a property of each GPU (Sinha "
          "et al., SC22, trace it to power management and manufacturing), so the wait is charged to every "
          "step; the "
          "Hopper and CDNA 3 families take the A100 value, as no fleet measurement of theirs was found.\n";
}

void dropTable(std::ostream& md, const FixedBatchScaling& s) {
    md << "\n### SC21 Table 2's drop, term by term (held out: never fitted)\n\nThe predicted drop in per-GPU "
          "throughput from the first row to the last, split over the parts of the step (points of the "
          "drop; parts under 0.05 points left out), under plain 1F1B and under the largest interleave "
          "legal on every row: the paper does not say which its runs used (\"Megatron SC21 Table 2\" "
          "above).\n\n"
       << "| model | GPUs | v | measured drop | predicted drop | from |\n|---|---|---|---|---|---|\n";
    for (const DropSplit& d : s.table2) {
        md << "| " << d.series << " | " << grouped(d.firstGpus) << " to " << grouped(d.lastGpus) << " | "
           << d.interleave << " | " << percent(d.measuredDrop) << " | " << percent(d.predictedDrop) << " | ";
        const char* separator = "";
        for (const auto& [label, points] : d.points) {
            md << separator << label << ' ' << (points >= 0.0 ? "+" : "") << fixed(points * 100.0, 1);
            separator = ", ";
        }
        md << " |\n";
    }
}

void vtrainTable(std::ostream& md, const FixedBatchScaling& s) {
    int closer = 0, sameDirection = 0;
    for (const DataParallelSeries& v : s.vtrain) {
        sameDirection += (v.measuredRatio - 1.0) * (v.predictedRatio - 1.0) > 0.0 ? 1 : 0;
        closer += std::abs(v.predictedRatio / v.measuredRatio - 1.0) <= 0.05 ? 1 : 0;
    }
    md << "\n### The fixed-batch series calibrated on: vTrain multi-node\n\nEach vTrain group holds the GPU "
          "count and the global batch; among its rows with the same t and micro-batch, d grows as p "
          "shrinks. Per-GPU throughput at the most replicas over that at the fewest, measured and "
          "predicted (fitted with everything else in the calibration above):\n\n"
       << "| group | t | b | d | rows | measured | predicted |\n|---|---|---|---|---|---|---|\n";
    for (const DataParallelSeries& v : s.vtrain)
        md << "| " << v.group << " | " << v.tp << " | " << v.microBatch << " | " << v.fewestReplicas << " to "
           << v.mostReplicas << " | " << v.rows << " | " << fixed(v.measuredRatio, 3) << " | "
           << fixed(v.predictedRatio, 3) << " |\n";
    md << "\nThe model moves the same way as the measurement in " << sameDirection << " of "
       << s.vtrain.size() << " series and lands within 5 % of the measured ratio in " << closer << ".\n";
}

} // namespace

FixedBatchScaling computeFixedBatchScaling(const std::string& dataDirectory,
                                           const PerfCalibration& calibration,
                                           const ValidationPredictions& predictions,
                                           const StrongScalingCheck& table2) {
    FixedBatchScaling s;
    s.latency = fitCollectiveLatency(dataDirectory);
    s.spread = measureGpuSpeedSpread(dataDirectory);
    s.slowest = slowestOfN(s.spread);
    s.table2 = splitTable2(table2, calibration);
    s.vtrain = vtrainSeries(predictions);
    return s;
}

void renderFixedBatchScaling(std::ostream& md, const FixedBatchScaling& s,
                             const PerfCalibration& calibration) {
    termsIntro(md, calibration);
    latencyTable(md, s, calibration);
    stragglerTable(md, s);
    dropTable(md, s);
    vtrainTable(md, s);
}

} // namespace carbon3d::reports
