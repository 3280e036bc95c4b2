// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace carbon3d {

// One published measurement of tests/data/validation/expert_alltoall: the bandwidth an expert dispatch and
// combine reach over one kind of link (DeepEP's normal kernels).
struct ExpertAllToAllRow {
    std::string version; // the kernel generation, "v1" or "v2"
    std::string gpu;
    int ep = 0;
    bool network = false; // internode (the bottleneck is the network) rather than NVLink
    double nominalBytesPerS = 0.0;
    double dispatchBytesPerS = 0.0;
    double combineBytesPerS = 0.0;
    bool calibration = false; // a calibration row; otherwise a check kept out of the fit
    // Dispatch and combine over the nominal rate: what the row says of the link.
    double dispatchEfficiency() const { return dispatchBytesPerS / nominalBytesPerS; }
    double combineEfficiency() const { return combineBytesPerS / nominalBytesPerS; }
};

// The all-to-all efficiencies (docs/MODEL.md#expert-parallel): per link, the mean over its calibration rows
// of their dispatch and combine efficiencies.
struct ExpertAllToAllFit {
    std::vector<ExpertAllToAllRow> rows;
    double intraNodeEfficiency = 0.0; // intra_node_all_to_all_efficiency
    double interNodeEfficiency = 0.0; // inter_node_all_to_all_efficiency
};

// Reads expert_alltoall/deepep_normal_kernels.csv under dataDir and fits it. InputError names the file,
// line and column of a bad value, or the file when a link has no calibration row.
ExpertAllToAllFit fitExpertAllToAll(const std::string& dataDir);

} // namespace carbon3d
