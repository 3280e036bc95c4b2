// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "domain/Scenario.h"

#include <string>

namespace carbon3d {

// Scenario files (sample_data/scenarios/*.json):
//   {"schema": 1, "name": "...", "description": "...",
//    "job": {"model": "gpt3-175b" | {inline model} | "path.json",
//            "tokens": 120e9, "global_batch": 1536, "precision": "bf16"},
//    "cluster": "dgx-a100-80gb" | {inline profile} | "path.json",
//    "gpus": 1024,
//    "regions": [{"id": "US-CAL-CISO", "trace": "../traces/US-CAL-CISO_2022.csv",
//                 "time_zone": "America/Los_Angeles"}],
//    "start": "2022-06-01T00:00:00Z",
//    "deadline": {"hours": 400} | {"slack": 0.25},
//    "policies": [{"name": "static-max"}, {"name": "suspend-resume", "options": {"percentile": 30}}],
//    "forecast": {"kind": "noisy", "error": 0.05, "seed": 7, "horizon_hours": 48},
//    "modelling": {"backfill": 0 ... 1,
//                  "batch_scaling": "global-constant" | "per-replica-constant",
//                  "reconfiguration_seconds": 600, "preemption_seconds": 600,
//                  "overhead_power_fraction": 0, "deadline_mode": "hard" | "soft",
//                  "soft_deadline_penalty_g_per_hour": 0, "decision_interval_seconds": 0},
//    "operating_points": "points.csv" | [{"dp": 8, "throughput": 5e4, "power_w": 2.4e4}, ...]}
// Relative paths (traces, operating points, cluster and model files) resolve against the scenario
// file's directory. A string model or cluster is a preset id when one exists, else a path.
// Checked here: gpus <= cluster.gpus_available, the precision is one the accelerator has, the start
// lies inside every region's trace, region ids are unique, and policy names, policy options and forecast
// kinds are ones the engine's catalogues accept (reported at the offending value).
// Errors inside a trace, model, cluster or operating-points file surface unchanged.
Scenario loadScenario(const std::string& path);
Scenario parseScenario(const JsonValue& json, const std::string& file);

// Writes a scenario. Paths are written relative to `scenarioDir` (the directory the file will be
// saved in); when it is empty, relative to the directory of scenario.sourceFile. The cluster and
// the model are written as preset ids when they are unchanged presets, inline otherwise.
JsonValue toJson(const Scenario& scenario, const std::string& scenarioDir = {});

// One policy entry ("name" or {"name", "options"}) at `path` (e.g. "policies[2]"), checked against the
// catalogue and reported at the offending value; a study's policy axis reads its entries with it too.
class JsonObjectReader;
struct ModellingField;
PolicySpec readPolicyEntry(const JsonObjectReader& owner, const JsonValue& item, const std::string& path);
// A modelling field's JSON value as the field's text (checked by the field's own rule, reported at the
// value).
std::string readModellingValue(const JsonObjectReader& reader, const ModellingField& field,
                               const JsonValue& value);

// Where the region's trace is on disk: its tracePath resolved against scenario.sourceFile.
std::string resolvedTracePath(const Scenario& scenario, const RegionSpec& region);

// The region's trace read from `path` as the region asks: its id, time zone and repair setting.
CarbonTrace loadRegionTrace(const RegionSpec& region, const std::string& path);

} // namespace carbon3d

namespace carbon3d::detail {
// toJson's engine; `canonical` writes the cluster and model inline, traces by content hash and
// operating points inline, and leaves out every file path (see ScenarioHash.h).
JsonValue scenarioToJson(const Scenario& scenario, const std::string& scenarioDir, bool canonical);
// Identifies a trace's content: the file's SHA-256 (plus any repairs), or a hash of the values for
// a trace built in memory.
std::string traceFingerprint(const CarbonTrace& trace);
} // namespace carbon3d::detail
