// SPDX-License-Identifier: MIT
#pragma once

#include <string>

// Fixture locations for the config tests, from the repository root the build passes in.
inline std::string configFixture(const std::string& relative) {
    return std::string(CARBON3D_SOURCE_DIR) + "/tests/data/config/" + relative;
}

inline std::string sampleData(const std::string& relative) {
    return std::string(CARBON3D_SOURCE_DIR) + "/sample_data/" + relative;
}
