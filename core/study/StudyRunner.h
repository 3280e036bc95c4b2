// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "runner/ScenarioRunner.h"
#include "study/StudyCells.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

namespace carbon3d {

// What one cell produced: its run (metrics; series only when kept), or why it could not run.
struct CellResult {
    StudyCell cell;
    bool feasible = false;
    std::string
        reason;    // why not, when infeasible ("the deadline (10 h) is shorter than the fastest run ...")
    RunResult run; // feasible cells only
};

// The most finished cells a study keeps waiting to be saved before its threads wait for the saves, in the
// command line and the studio alike: a slow or failing database then bounds the memory instead of letting
// cells pile up (issue 40).
inline constexpr std::size_t kMostUnsavedStudyCells = 1024;

struct StudyRunOptions {
    int jobs = 0; // worker threads; 0: one per core
    std::size_t shard = 0;
    std::size_t shards = 1;
    bool keepSeries = false; // per-interval series are dropped unless asked for (a big study stays small)
    std::function<bool(std::size_t index)> skip; // cells already done (a resumed study)
    const std::atomic<bool>* cancel = nullptr;   // stops within a decision of every running cell
    // Both are called from worker threads, one call at a time (the runner serialises them).
    std::function<void(CellResult&& result)> onCell;
    std::function<void(std::size_t done, std::size_t total)> onProgress;
};

struct StudyRunSummary {
    std::size_t cells = 0;   // in this shard
    std::size_t skipped = 0; // already done
    std::size_t ran = 0;     // feasible cells simulated now
    std::size_t infeasible = 0;
    bool cancelled = false;
};

// Runs the study's cells (of this shard, less the skipped) on a pool of threads. What cells share is built
// once: traces when the study is read, the performance model's menu per job, cluster and GPU count here.
// Cells are independent and deterministic, so the order they finish in changes no number.
StudyRunSummary runStudy(const StudyDefinition& study, const StudyRunOptions& options);

// One cell, alone (the studio's "open this cell", tests): the same path runStudy takes. `explain` records
// each decision's reason (RunResult::decisions) for the Results page's "why" panel.
CellResult runStudyCell(const StudyDefinition& study, const StudyCell& cell, bool keepSeries,
                        const std::atomic<bool>* cancel = nullptr, bool explain = false);

// A cell opened in the studio's Results page: it and the cell of `baselinePolicy` with every other axis equal
// (a saving is against that), run in the cell's prepared scenario with their series and reasons. `policies`
// and `runs` hold the baseline first, then the cell; the cell alone when it is the baseline or the study has
// no such policy. The prepared scenario lists both policies, so that it can be put in the scenario form.
// InputError naming the study file and the cell when the cell cannot run.
struct OpenedCell {
    PreparedScenario prepared;
    std::vector<PolicySpec> policies;
    std::vector<RunResult> runs;
};
OpenedCell openStudyCell(const StudyDefinition& study, std::size_t index, const std::string& baselinePolicy,
                         const std::atomic<bool>* cancel = nullptr);

} // namespace carbon3d
