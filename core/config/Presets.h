// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ModelSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// Built-in presets, embedded in the core as Qt resources from sample_data/clusters and
// sample_data/models, so every tool can name them by id (e.g. "dgx-a100-80gb", "gpt3-175b").
std::vector<std::string> clusterPresetIds();
std::vector<std::string> modelPresetIds();
std::optional<ClusterProfile> findClusterPreset(const std::string& id);
std::optional<ModelSpec> findModelPreset(const std::string& id);

// A preset id, or else a path to a JSON file. Throws InputError when it is neither.
ClusterProfile resolveCluster(const std::string& idOrPath);
ModelSpec resolveModel(const std::string& idOrPath);

} // namespace carbon3d
