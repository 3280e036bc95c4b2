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

// The bundled default scenario (sample data found by app::sampleDataDirectory()); InputError when absent.
std::string defaultScenarioPath();

// One run as the --json object; savings when a static-max baseline is given.
JsonValue runToJson(const RunResult& run, const RunResult* baseline);

} // namespace carbon3d::cli
