// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ParallelConfig.h"
#include "domain/TrainingJob.h"

#include <string>
#include <vector>

namespace carbon3d {

// One run of tests/data/validation/zero_bubble/table4.csv: the same job measured under plain 1F1B (v = 1) and
// interleaved 1F1B (v > 1), the data the cost of interleaving is fitted on (README.md there).
struct InterleavePair {
    int line = 0;
    std::string model; // "1.5B"
    TrainingJob job;
    ParallelConfig plain;       // v = 1
    ParallelConfig interleaved; // the published v
    double plainMeasured = 0.0; // samples per GPU per second
    double interleavedMeasured = 0.0;
    double measuredSpeedup() const { return interleavedMeasured / plainMeasured; }
};

// Loads zero_bubble/table4.csv from dataDir. InputError names the file, line and column of a bad row.
std::vector<InterleavePair> loadInterleaveSweep(const std::string& dataDir);

// The cluster of those runs: A100 80GB, 8 per node, NVLink within a node and RoCE between nodes at
// `interNodeBytesPerS` per GPU (not published; 12.5 GB/s assumed, README.md there).
inline constexpr double kInterleaveSweepInterNodeBytesPerS = 12.5e9;
ClusterProfile interleaveSweepCluster(const PerfCalibration& calibration,
                                      double interNodeBytesPerS = kInterleaveSweepInterNodeBytesPerS);

// Predicted samples per GPU per second of one schedule of a pair.
struct InterleavePrediction {
    double plain = 0.0;
    double interleaved = 0.0;
    double speedup() const { return interleaved / plain; }
};
InterleavePrediction predictInterleavePair(const InterleavePair& pair, const ClusterProfile& cluster);

// Whether the pair ran inside one node: its pipeline exchanges then run over NVLink only, and its speed-up
// does not depend on the unpublished network.
bool runsInOneNode(const InterleavePair& pair, const ClusterProfile& cluster);

// Mean squared log error of the predicted speed-up (interleaved / plain) against the measured one, over the
// pairs that run inside one node (the ones the fit uses).
double interleaveLoss(const std::vector<InterleavePair>& pairs, const ClusterProfile& cluster);

// Fits pipeline_transfer_overhead_s to the speed-ups of the pairs inside one node (golden-section search on
// [0, 5 ms]); everything else stays as in `start`. The multi-node pairs are reported, not fitted: their
// exchanges cross a network whose bandwidth the paper does not give.
PerfCalibration fitPipelineTransferOverhead(const std::vector<InterleavePair>& pairs, PerfCalibration start);

} // namespace carbon3d
