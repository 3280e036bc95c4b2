// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"

#include <string>
#include <vector>

// The bundled 2022 traces that docs/RESULTS.md and docs/REPRODUCTION.md run every scenario on.
namespace carbon3d::reports {

// File names under sampleDataDirectory/traces, in the order the reports list them.
const std::vector<std::string>& bundledTraceFiles();

// `scenario` with one region: the bundled trace `file`, loaded from sampleDataDirectory/traces.
Scenario inBundledRegion(Scenario scenario, const std::string& sampleDataDirectory, const std::string& file);

} // namespace carbon3d::reports
