// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/Json.h"

#include <string>
#include <vector>

namespace carbon3d {

class JsonObjectReader;

// Cluster profile files (sample_data/clusters/<id>.json). Units are in the key names and converted
// to SI on the way in:
//   {"schema": 1, "id": "dgx-a100-80gb", "name": "NVIDIA DGX A100 80GB",
//    "accelerator": {"name": "NVIDIA A100 80GB SXM4",
//                    "peak_tflops": {"bf16": 312, "fp16": 312, "tf32": 156, "fp32": 19.5},  // dense, TFLOP/s
//                    "memory_gib": 80, "hbm_tb_per_s": 2.039, "tdp_w": 400,
//                    "min_power_limit_w": 100, "idle_w": 60},
//    "gpus_per_node": 8,
//    "intra_node_gb_per_s": 300, "inter_node_gb_per_s": 25,   // per GPU, one direction, 1e9 bytes/s
//    "node_overhead_w": 3300, "pue": 1.1, "embodied_kg_per_gpu": 462.5, "service_life_years": 5.1,
//    "gpus_available": 1024,
//    "calibration": {"gemm_efficiency_max": 0.75, ...},          // optional, perfCalibrationFields()
//    "power_limit_curve": [{"power_limit_w": 300, "relative_throughput": 1, "average_power_w": 235}],
//    "sources": {"accelerator.peak_tflops": "NVIDIA A100 datasheet", ...}}
// Memory is in GiB because HBM capacities are binary (an "80GB" A100 holds 80 GiB); bandwidths and
// FLOP/s are decimal, as vendors state them. Sparse (2:4) FLOP/s figures are rejected.
ClusterProfile loadClusterProfile(const std::string& path);
ClusterProfile parseClusterProfile(const JsonValue& json, const std::string& file);
JsonValue toJson(const ClusterProfile& cluster);

// The fields of a cluster profile from an open reader, without "schema" and without finish():
// used for cluster objects embedded in a scenario.
ClusterProfile readClusterProfile(JsonObjectReader& reader);

// Keys allowed in "sources": the JSON paths of the figures ("accelerator.tdp_w", "pue", ...).
const std::vector<std::string>& clusterSourceKeys();

} // namespace carbon3d
