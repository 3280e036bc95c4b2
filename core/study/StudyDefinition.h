// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "domain/Scenario.h"

#include <functional>
#include <string>
#include <vector>

namespace carbon3d {

// The values of the 'parked_gpus' axis: who pays for parked GPUs, in words.
inline constexpr const char* kParkedIdle = "idle";         // a dedicated reservation: backfill 0
inline constexpr const char* kParkedReleased = "released"; // a shared cluster: backfill 1

// The export columns of the forecast axis: its kind, then the error level and seed of the kinds that take
// them.
inline constexpr const char* kForecastAxisColumns[] = {"forecast", "forecast_error", "forecast_seed"};

// What one cell of a study runs: a scenario and the one policy it runs under.
struct CellSetup {
    Scenario scenario;
    PolicySpec policy;
};

// One value of a study axis.
struct AxisValue {
    std::vector<std::string> columns; // its text in each of its axis's columns ("2022-03-01T00:00:00Z", "DE")
    std::string identity; // what it changes, as text for the cell hash (a trace by content, a model inline)
    std::function<void(CellSetup&)> apply;
};

// One axis: a key of the study file's "axes" object and its values, in the file's order.
struct StudyAxis {
    std::string key;                  // "start", "region", "slack", "policy", "backfill", ...
    std::vector<std::string> columns; // export columns, usually {key}; the forecast axis adds error and seed
    std::vector<AxisValue> values;
    bool changesMenu = false; // the performance model's menu differs between its values (model, gpus, ...)
};

// A study: a base scenario swept over axes. Its cells are the Cartesian product of the axes' values
// (core/study/StudyCells.h); without a policy axis the base scenario's policies are one.
struct StudyDefinition {
    int schema = 1;
    std::string name;
    std::string description;
    std::string sourceFile;     // the study file (empty for one built in memory)
    std::string definitionJson; // the study file's JSON as read, compact (what the store keeps)
    Scenario base;
    std::vector<StudyAxis> axes;
    // "split_savings": split each cell's saving (runner/SavingSplit.h), running the simpler plans once per
    // setup of the other axes: up to five more runs per setup, so it is asked for, not the default.
    bool splitSavings = false;
    std::string baseHash; // of the base scenario and the program version: what every cell starts from
    std::string hash;     // of baseHash and every axis value's identity: the study's key in the store
};

// Study files (docs/STUDIES.md):
//   {"schema": 1, "name": "...", "description": "...",
//    "base": "../scenarios/default.json" | {inline scenario}, "split_savings": false,
//    "axes": {"start": {"from": ISO, "to": ISO, "every_hours": 24} | [ISO, ...],
//             "region": ["US-CAL-CISO", "DE", "traces/mine.csv"],
//             "slack": [0.25, 1.0] | "deadline_hours": [400, 800],
//             "policy": ["static-max", {"name": "dynamic-3d", "options": {...}}],
//             "forecast": ["ridge", {"kind": "noisy", "error": [0.05, 0.1], "seeds": 10}],
//             "gpus": [512, 1024], "tokens": [3e11], "model": ["gpt3-175b"], "cluster": ["dgx-h100"],
//             "context_parallel": [1, 2], "fsdp": [false, true], "interleave": [true, false],
//             any modelling key: "backfill": [0, 1], "parked_gpus": ["idle", "released"], ...}}
// Paths resolve against the study file; a region is a bundled id (a file ID_2022.csv in
// bundledTraceDirectory) or a trace file. Every problem is an InputError naming the file, line and column.
StudyDefinition loadStudy(const std::string& path, const std::string& bundledTraceDirectory);
StudyDefinition parseStudy(const JsonValue& json, const std::string& file,
                           const std::string& bundledTraceDirectory);

// Every axis key a study takes, in the reader's order: its own axes, then every modelling key.
std::vector<std::string> studyAxisKeys();

// Whether a parsed JSON file is a study (it has "axes") rather than a scenario: `validate` tells them apart.
bool isStudyJson(const JsonValue& json);

} // namespace carbon3d
