// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "storage/StoredRun.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

using StudyId = std::int64_t;

// A study as the results store keeps it (the studies table, docs/DATABASE.md).
struct StoredStudy {
    StudyId id = 0;
    std::string name;
    std::string hash;           // StudyDefinition::hash: the same study file, base and program give the same
    std::string sourceFile;     // the study file, to expand cells again (the studio's "open this cell")
    std::string definitionJson; // the study file's JSON as read
    std::vector<std::string> columns; // the axis columns, in order
    std::int64_t cellCount = 0;
    std::string programVersion;
    std::int64_t createdAt = 0;
    // Filled by listing: cells saved so far and how many of them were infeasible.
    std::int64_t savedCells = 0;
    std::int64_t infeasibleCells = 0;
};

// One finished cell (a study_cells row). metricsJson is empty for an infeasible cell.
struct StoredCell {
    std::int64_t index = 0;
    std::string hash;
    std::vector<std::string> values; // per column of the study
    bool feasible = false;
    std::string reason;
    std::string metricsJson;
    std::optional<RunId> runId; // the run holding its series, when they were kept
    // To save: the run with its series (`study run --series`), stored with the cell in one transaction;
    // saveCells sets run_id to it. Empty when reading, and when the study does not keep series.
    struct RunToSave {
        StoredScenario scenario;
        RunResult run;
        std::vector<StoredTrace> traces;
    };
    std::shared_ptr<const RunToSave> runToSave;
};

// A cell's metrics as exact JSON: every RunMetrics field by its SI name (domain/MetricFields.h) with the
// shortest text that reads back to the same double, NaN (unknown) as null. Equal metrics give equal text.
std::string exactMetricsJson(const RunMetrics& metrics);
RunMetrics metricsFromExactJson(const std::string& json, const std::string& source);

} // namespace carbon3d
