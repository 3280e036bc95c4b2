// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ExecutionOption.h"
#include "domain/Json.h"
#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "engine/SimulationInput.h"

#include <optional>
#include <string>

// Shared by the simulate and report-results commands.
namespace carbon3d::cli {

// The bundled sample_data directory: $CARBON3D_DATA_DIR, <exe>/../share/carbon3d/sample_data,
// <exe>/../../sample_data, then the source tree; empty when none holds scenarios/default.json.
std::string bundledDataDirectory();
std::string defaultScenarioPath();

struct PreparedSimulation {
    Scenario scenario;
    ExecutionMenu menu;
    SimulationInput input;
};

// The menu (analytic model, or the measured profile with profileWork units of work) and the input.
PreparedSimulation prepareSimulation(const Scenario& scenario, std::optional<double> profileWork);

// One run as the --json object; savings when a static-max baseline is given.
JsonValue runToJson(const RunResult& run, const RunResult* baseline);

} // namespace carbon3d::cli
