// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"
#include "engine/Policy.h"

#include <memory>
#include <string>
#include <vector>

namespace carbon3d {

struct PolicyOptionInfo {
    std::string key;
    std::string defaultValue;
    std::string description; // one line, with the unit
};

// What the GUI and the help text show about a policy.
struct PolicyInfo {
    std::string name;
    std::string description; // one line
    std::string source;      // citation of the idea
    std::vector<PolicyOptionInfo> options;
};

const std::vector<PolicyInfo>& policyCatalog();

// Creates a policy by name with its options; throws InputError naming the unknown policy or option
// and listing what is accepted.
std::unique_ptr<Policy> makePolicy(const PolicySpec& spec);

} // namespace carbon3d
