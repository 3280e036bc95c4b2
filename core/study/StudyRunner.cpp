// SPDX-License-Identifier: MIT
#include "study/StudyRunner.h"

#include "config/ScenarioHash.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "runner/SavingSplit.h"
#include "runner/ScenarioRunner.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace carbon3d {

namespace {

// The menus of a study, built on first use by whichever cell needs one first; the others wait for it.
class MenuCache {
public:
    struct Entry {
        std::once_flag built;
        ScenarioMenu menu;
        std::string error; // why no configuration fits, when none does
    };

    Entry& entryFor(const StudyDefinition& study, const StudyCell& cell, const Scenario& scenario) {
        Entry* entry = nullptr;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            std::unique_ptr<Entry>& slot = m_entries[menuKey(study, cell)];
            if (!slot)
                slot = std::make_unique<Entry>();
            entry = slot.get();
        }
        std::call_once(entry->built, [&] {
            try {
                entry->menu = buildScenarioMenu(scenario);
            } catch (const InputError& error) {
                entry->error = error.problem();
            }
        });
        return *entry;
    }

private:
    std::mutex m_mutex;
    std::map<std::string, std::unique_ptr<Entry>> m_entries;
};

// The reference runs of a study that splits its savings (StudyDefinition::splitSavings), one set per setup of
// the axes other than the policy, made by whichever cell of that setup needs them first.
class SplitCache {
public:
    const std::optional<SplitReferences>& referencesFor(const PreparedScenario& prepared,
                                                        const std::atomic<bool>* cancel) {
        Scenario setup = prepared.scenario;
        setup.policies.clear(); // every policy of the setup shares them
        Entry* entry = nullptr;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            std::unique_ptr<Entry>& slot = m_entries[canonicalJson(setup)];
            if (!slot)
                slot = std::make_unique<Entry>();
            entry = slot.get();
        }
        std::call_once(entry->made, [&] {
            SimulationHooks hooks;
            hooks.cancel = cancel;
            entry->references = splitReferences(prepared, {}, hooks);
        });
        return entry->references;
    }

private:
    struct Entry {
        std::once_flag made;
        std::optional<SplitReferences> references; // none when cancelled meanwhile
    };
    std::mutex m_mutex;
    std::map<std::string, std::unique_ptr<Entry>> m_entries;
};

// What the cells of one study run share.
struct CellCaches {
    MenuCache menus;
    SplitCache splits;
};

CellResult infeasible(const StudyCell& cell, std::string reason) {
    CellResult result;
    result.cell = cell;
    result.reason = std::move(reason);
    return result;
}

// A cell made ready to run: its prepared scenario and policy, or why it cannot run.
struct PreparedCell {
    std::optional<PreparedScenario> prepared;
    PolicySpec policy;
    std::string infeasible; // why not, when not prepared
};

PreparedCell prepareCell(const StudyDefinition& study, const StudyCell& cell, CellCaches& caches) {
    CellSetup setup = cellSetup(study, cell);
    PreparedCell result{std::nullopt, setup.policy, {}};
    const Scenario& scenario = setup.scenario; // moved into the prepared run below: read it before
    // The checks the scenario loader makes, per cell: a cell outside them is infeasible, not an error.
    if (scenario.gpus > scenario.cluster.gpusAvailable) {
        result.infeasible = std::to_string(scenario.gpus) + " GPUs is more than " + scenario.cluster.name +
                            " has (" + std::to_string(scenario.cluster.gpusAvailable) + ")";
        return result;
    }
    if (scenario.cluster.accelerator.peakFlops.count(scenario.job.precision) == 0) {
        result.infeasible = scenario.cluster.accelerator.name + " has no " +
                            std::string(precisionName(scenario.job.precision)) + " throughput";
        return result;
    }
    for (const RegionSpec& region : scenario.regions)
        if (scenario.startUtc < region.trace.startUtc || scenario.startUtc >= region.trace.endUtc()) {
            result.infeasible = "the start " + formatIsoUtc(scenario.startUtc) + " is outside the trace of " +
                                region.regionId + " (" + formatIsoUtc(region.trace.startUtc) + " to " +
                                formatIsoUtc(region.trace.endUtc()) + ")";
            return result;
        }
    MenuCache::Entry& menu = caches.menus.entryFor(study, cell, scenario);
    if (!menu.error.empty()) {
        result.infeasible = menu.error;
        return result;
    }
    try {
        // Moved, not copied: a copy of the cell's traces per cell was a fifth of a sweep's time.
        result.prepared = prepareScenario(std::move(setup.scenario), menu.menu, std::nullopt);
    } catch (const InputError& error) { // e.g. the trace ends before the deadline
        result.infeasible = error.problem();
        return result;
    }
    const double windowHours =
        static_cast<double>(result.prepared->input.deadlineUtc - result.prepared->input.startUtc) / 3600.0;
    if (windowHours < result.prepared->staticMaxHours) {
        result.infeasible = "the deadline (" + fixedNumber(windowHours, 1) +
                            " h after the start) is shorter than the fastest run (" +
                            fixedNumber(result.prepared->staticMaxHours, 1) + " h)";
        result.prepared.reset();
    }
    return result;
}

CellResult runCell(const StudyDefinition& study, const StudyCell& cell, CellCaches& caches, bool keepSeries,
                   const std::atomic<bool>* cancel, bool explain) {
    const PreparedCell ready = prepareCell(study, cell, caches);
    if (!ready.prepared)
        return infeasible(cell, ready.infeasible);
    try {
        SimulationHooks hooks;
        hooks.cancel = cancel;
        hooks.explainDecisions = explain;
        CellResult result;
        result.cell = cell;
        result.run = runPolicy(*ready.prepared, ready.policy, hooks);
        if (study.splitSavings && !result.run.cancelled) {
            if (const std::optional<SplitReferences>& references =
                    caches.splits.referencesFor(*ready.prepared, cancel))
                attachSavingSplit(result.run, *references);
        }
        result.feasible = true;
        if (!keepSeries)
            std::vector<IntervalRecord>().swap(result.run.series);
        return result;
    } catch (const InputError& error) { // e.g. the trace ends before the deadline
        return infeasible(cell, error.problem());
    }
}

} // namespace

CellResult runStudyCell(const StudyDefinition& study, const StudyCell& cell, bool keepSeries,
                        const std::atomic<bool>* cancel, bool explain) {
    CellCaches caches;
    return runCell(study, cell, caches, keepSeries, cancel, explain);
}

StudyRunSummary runStudy(const StudyDefinition& study, const StudyRunOptions& options) {
    StudyRunSummary summary;
    std::vector<std::size_t> todo;
    const std::size_t count = cellCount(study);
    for (std::size_t index = 0; index < count; ++index) {
        if (!inShard(index, options.shard, options.shards))
            continue;
        ++summary.cells;
        if (options.skip && options.skip(index))
            ++summary.skipped;
        else
            todo.push_back(index);
    }
    CellCaches caches;
    std::mutex report; // serialises onCell, onProgress and the summary
    std::atomic<std::size_t> next{0};
    std::size_t done = 0;
    const auto stopped = [&] { return options.cancel != nullptr && options.cancel->load(); };
    const auto work = [&] {
        for (std::size_t k = next++; k < todo.size() && !stopped(); k = next++) {
            CellResult result =
                runCell(study, cellAt(study, todo[k]), caches, options.keepSeries, options.cancel, false);
            if (result.run.cancelled)
                return; // a cancelled cell is not a result: it runs again on resume
            const std::lock_guard<std::mutex> lock(report);
            ++(result.feasible ? summary.ran : summary.infeasible);
            if (options.onCell)
                options.onCell(std::move(result));
            ++done;
            if (options.onProgress)
                options.onProgress(done, todo.size());
        }
    };
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    const std::size_t jobs =
        std::min<std::size_t>(options.jobs > 0 ? static_cast<std::size_t>(options.jobs) : cores,
                              std::max<std::size_t>(1, todo.size()));
    std::vector<std::thread> workers;
    for (std::size_t j = 1; j < jobs; ++j)
        workers.emplace_back(work);
    work(); // the calling thread is one of the workers
    for (std::thread& worker : workers)
        worker.join();
    summary.cancelled = stopped();
    return summary;
}

OpenedCell openStudyCell(const StudyDefinition& study, std::size_t index, const std::string& baselinePolicy,
                         const std::atomic<bool>* cancel) {
    const StudyCell cell = cellAt(study, index);
    CellCaches caches;
    PreparedCell ready = prepareCell(study, cell, caches);
    if (!ready.prepared)
        throw InputError(study.sourceFile, 0, 0, "cell " + std::to_string(index) + ": " + ready.infeasible);
    OpenedCell opened;
    if (const std::optional<std::size_t> baseline = cellWithPolicy(study, cell, baselinePolicy);
        baseline && *baseline != index)
        opened.policies.push_back(cellSetup(study, cellAt(study, *baseline)).policy);
    opened.policies.push_back(ready.policy);
    SimulationHooks hooks;
    hooks.cancel = cancel;
    hooks.explainDecisions = true; // the Results page's "why" panel
    for (const PolicySpec& policy : opened.policies)
        opened.runs.push_back(runPolicy(*ready.prepared, policy, hooks));
    // Where each saving comes from, as a batch of the studio has it.
    SimulationHooks quiet;
    quiet.cancel = cancel;
    if (const auto references = splitReferences(*ready.prepared, opened.runs, quiet))
        for (RunResult& run : opened.runs)
            attachSavingSplit(run, *references);
    opened.prepared = std::move(*ready.prepared);
    opened.prepared.scenario.policies = opened.policies;
    return opened;
}

} // namespace carbon3d
