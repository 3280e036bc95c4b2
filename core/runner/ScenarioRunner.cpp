// SPDX-License-Identifier: MIT
#include "runner/ScenarioRunner.h"

#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "perf/ExecutionMenuBuilder.h"
#include "perf/Goodput.h"
#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "runner/SavingSplit.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace carbon3d {

namespace {

// Why the modelled menu came out empty, in the user's terms, to follow "fits on N GPUs of C": the job's
// context parallelism when it is the obstacle (a study axis may set a cp the sequence or the attention
// kernel cannot take), else memory or batch divisibility.
std::string emptyMenuReason(const Scenario& scenario) {
    const TrainingJob& job = scenario.job;
    const std::string cp = std::to_string(job.contextParallel);
    if (job.contextParallel > 1) {
        if (const std::string problem = contextParallelProblem(job); !problem.empty())
            return ": context_parallel " + cp + " " + problem;
        if (!makePerfProblem(job, scenario.cluster).flashAttention)
            return ": context parallelism (cp = " + cp +
                   ") needs the flash attention kernel, and this job's attention is materialized";
    }
    return std::string(" (memory or batch divisibility") +
           (job.contextParallel > 1 ? " with cp = " + cp : std::string()) +
           "): add GPUs or use a cluster with more memory";
}

} // namespace

ScenarioMenu buildScenarioMenu(const Scenario& scenario) {
    const std::string source = scenario.sourceFile.empty() ? std::string("scenario") : scenario.sourceFile;
    ScenarioMenu built;
    if (scenario.operatingPoints) {
        built.menu = buildExecutionMenu(*scenario.operatingPoints, scenario.cluster, scenario.gpus);
        built.measured = true;
    } else {
        built.menu = buildExecutionMenu(scenario.job, scenario.cluster,
                                        menuOptionsFor(scenario.modelling, scenario.gpus));
    }
    if (built.menu.empty())
        throw InputError(source, 0, 0,
                         "no feasible configuration of " + scenario.job.model.name + " fits on " +
                             std::to_string(scenario.gpus) + " GPUs of " + scenario.cluster.name +
                             emptyMenuReason(scenario));
    applyGoodput(built.menu, scenario.modelling, scenario.cluster);
    if (built.menu.empty())
        throw InputError(
            source, 0, 0,
            "every configuration would spend over 99 % of its time recovering from interruptions ("
            "interruptions_per_gpu_hour " +
                shortestNumber(scenario.modelling.interruptionsPerGpuHour) +
                ", checkpoint_interval_seconds " +
                shortestNumber(scenario.modelling.checkpointIntervalSeconds) +
                "): checkpoint more often or lower the interruption rate");
    return built;
}

PreparedScenario prepareScenario(const Scenario& scenario, std::optional<double> totalWork) {
    return prepareScenario(scenario, buildScenarioMenu(scenario), totalWork);
}

PreparedScenario prepareScenario(Scenario scenario, ScenarioMenu menu, std::optional<double> totalWork) {
    const std::string source = scenario.sourceFile.empty() ? std::string("scenario") : scenario.sourceFile;
    if (scenario.regions.empty())
        throw InputError(source, 0, 0, "the scenario has no region: add one with a carbon trace");
    PreparedScenario prepared;
    prepared.scenario = std::move(scenario);
    // A region may name its trace without holding it: the studio's region list offers every bundled trace
    // by path and reads one only when a run needs it, here, off the GUI thread.
    for (RegionSpec& region : prepared.scenario.regions)
        if (region.trace.empty() && !region.tracePath.empty())
            region.trace = loadRegionTrace(region, resolvedTracePath(prepared.scenario, region));
    prepared.menu = std::move(menu.menu);
    prepared.measuredMenu = menu.measured;
    if (!totalWork && prepared.measuredMenu)
        totalWork = prepared.scenario.job.work;
    if (prepared.measuredMenu && !totalWork)
        throw InputError(source, 0, 0,
                         "a scenario with measured operating points needs the work to do in the table's "
                         "throughput units ('work' in 'job', or --work UNITS)");
    const double work = totalWork.value_or(prepared.scenario.job.tokens);
    const double fastest =
        std::max_element(prepared.menu.begin(), prepared.menu.end(), [](const auto& a, const auto& b) {
            return a.workPerSecond < b.workPerSecond;
        })->workPerSecond;
    prepared.staticMaxHours = work / fastest / 3600.0;
    prepared.input = makeSimulationInput(prepared.scenario, prepared.menu, work);
    checkTracesCoverJob(prepared.input);
    return prepared;
}

RunResult runPolicy(const PreparedScenario& prepared, const PolicySpec& policy,
                    const SimulationHooks& hooks) {
    std::unique_ptr<Policy> made = makePolicy(policy);
    // A policy whose idea changes the menu, the work or the migration time asks for it here.
    const std::optional<SimulationInput> adapted =
        made->adaptInput(InputAdaptation{prepared.scenario, prepared.measuredMenu}, prepared.input);
    return simulate(adapted ? *adapted : prepared.input, *made, hooks);
}

std::vector<RunResult> runAllPolicies(const PreparedScenario& prepared,
                                      const std::vector<PolicySpec>& policies, const SimulationHooks& hooks) {
    std::vector<RunResult> results;
    results.reserve(policies.size());
    const double count = static_cast<double>(std::max<std::size_t>(1, policies.size()));
    for (std::size_t i = 0; i < policies.size(); ++i) {
        SimulationHooks scaled = hooks;
        if (hooks.progress) {
            scaled.progress = [&hooks, i, count](double fraction) {
                return hooks.progress((static_cast<double>(i) + fraction) / count);
            };
        }
        results.push_back(runPolicy(prepared, policies[i], scaled));
    }
    if (const std::optional<SplitReferences> references = splitReferences(prepared, results, hooks)) {
        for (RunResult& run : results)
            attachSavingSplit(run, *references);
    }
    return results;
}

} // namespace carbon3d
