// SPDX-License-Identifier: MIT
// The study the study benchmarks read (bench_study_memory, bench_studio_study): synthetic in its axes and
// real in its numbers. Start (one an hour from 2022), the 7 bundled regions, slack 0.25 and 1, and three
// policies (static-max, dynamic-3d, oracle); each cell's metrics are those of a cell of the bundled small
// study (tests/data/studies/small.json), run once here, so rows are the size and shape a real study stores.
// Written once per size into the temporary folder and reused by later runs (delete
// carbon3d-study-memory-*.sqlite there to rebuild it).
#pragma once

#include "domain/Time.h"
#include "storage/ResultsStore.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace carbon3d::bench {

// The metrics JSON of each policy (static-max, dynamic-3d, oracle) in each of the small study's 8 cells
// without the policy: real rows to repeat.
inline std::vector<std::string> realMetrics(const std::string& source) {
    const StudyDefinition study =
        loadStudy(source + "/tests/data/studies/small.json", source + "/sample_data/traces");
    std::vector<std::string> metrics;
    for (std::size_t i = 0; i < cellCount(study); ++i) {
        const CellResult result = runStudyCell(study, cellAt(study, i), false);
        if (!result.feasible)
            throw std::runtime_error("a cell of the small study is infeasible");
        metrics.push_back(exactMetricsJson(result.run.metrics));
    }
    return metrics;
}

// The database of `cells` cells (rounded down to whole starts of 42 cells), written when missing.
inline std::string syntheticStudyDatabase(const std::string& source, std::int64_t cells) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("carbon3d-study-memory-" + std::to_string(cells) + ".sqlite"))
                                 .string();
    if (std::filesystem::exists(path))
        return path;
    const std::vector<std::string> metrics = realMetrics(source);
    const std::vector<std::string> regions{"CAISO", "DE", "ERCOT", "FR", "GB", "PJM", "SE"};
    const std::vector<std::string> slacks{"0.25", "1"};
    const std::vector<std::string> policies{"static-max", "dynamic-3d", "oracle"};
    const std::int64_t perStart = static_cast<std::int64_t>(regions.size() * slacks.size() * policies.size());
    const std::int64_t starts = cells / perStart;
    ResultsStore store(path + ".partial");
    StoredStudy study;
    study.name = "memory benchmark";
    study.hash = "memory-benchmark-" + std::to_string(cells);
    study.columns = {"start", "region", "slack", "policy"};
    study.cellCount = starts * perStart;
    const StudyId id = store.registerStudy(study);
    const UtcSeconds first = daysFromCivil(2022, 1, 1) * kSecondsPerDay;
    std::vector<StoredCell> batch;
    for (std::int64_t index = 0; index < study.cellCount; ++index) {
        std::int64_t rest = index;
        const auto policy = static_cast<std::size_t>(rest % 3);
        rest /= 3;
        const auto slack = static_cast<std::size_t>(rest % 2);
        rest /= 2;
        const auto region = static_cast<std::size_t>(rest % 7);
        const std::int64_t start = rest / 7;
        StoredCell cell;
        cell.index = index;
        cell.hash = "cell-" + std::to_string(index);
        cell.values = {formatIsoUtc(first + start * 3600), regions[region], slacks[slack], policies[policy]};
        cell.feasible = true;
        cell.metricsJson = metrics[static_cast<std::size_t>(index % 24)];
        batch.push_back(std::move(cell));
        if (batch.size() == 20000 || index + 1 == study.cellCount) {
            store.saveCells(id, batch);
            batch.clear();
        }
    }
    std::filesystem::rename(path + ".partial", path);
    return path;
}

} // namespace carbon3d::bench
