// SPDX-License-Identifier: MIT
#include "runner/ScenarioRunner.h"

#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "engine/policies/EadtPolicy.h"
#include "engine/policies/MultiRegionPolicy.h"
#include "perf/ExecutionMenuBuilder.h"
#include "perf/ModelMath.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace carbon3d {

PreparedScenario prepareScenario(const Scenario& scenario, std::optional<double> totalWork) {
    const std::string source = scenario.sourceFile.empty() ? std::string("scenario") : scenario.sourceFile;
    if (scenario.regions.empty())
        throw InputError(source, 0, 0, "the scenario has no region: add one with a carbon trace");
    PreparedScenario prepared;
    prepared.scenario = scenario;
    if (scenario.operatingPoints) {
        prepared.menu = buildExecutionMenu(*scenario.operatingPoints, scenario.cluster, scenario.gpus);
        prepared.measuredMenu = true;
        if (!totalWork)
            throw InputError(source, 0, 0,
                             "a scenario with measured operating points needs the work to do in the table's "
                             "throughput units (--work UNITS)");
    } else {
        MenuOptions options;
        options.maxGpus = scenario.gpus;
        options.batchScaling = scenario.modelling.batchScaling;
        options.powerLimitsW = scenario.modelling.powerLimitsW; // offered only when the scenario asks
        prepared.menu = buildExecutionMenu(scenario.job, scenario.cluster, options);
    }
    if (prepared.menu.empty())
        throw InputError(source, 0, 0,
                         "no feasible configuration of " + scenario.job.model.name + " fits on " +
                             std::to_string(scenario.gpus) + " GPUs of " + scenario.cluster.name +
                             " (memory or batch divisibility): add GPUs or use a cluster with more memory");
    const double work = totalWork.value_or(scenario.job.tokens);
    const double fastest =
        std::max_element(prepared.menu.begin(), prepared.menu.end(), [](const auto& a, const auto& b) {
            return a.workPerSecond < b.workPerSecond;
        })->workPerSecond;
    prepared.staticMaxHours = work / fastest / 3600.0;
    prepared.input = makeSimulationInput(scenario, prepared.menu, work);
    return prepared;
}

ExecutionMenu eadtMenu(const Scenario& scenario, const EadtParameters& p) {
    TrainingJob job = scenario.job;
    ClusterProfile cluster = scenario.cluster;
    if (p.arithmeticPrecision != "job")
        job.precision = *parsePrecision(p.arithmeticPrecision);
    const double transferBytes = p.transferPrecision == "job"
                                     ? cluster.calibration.dpGradientBytes
                                     : bytesPerElement(*parsePrecision(p.transferPrecision));
    cluster.calibration.dpGradientBytes = transferBytes / p.compressionRatio;
    MenuOptions options;
    options.maxGpus = scenario.gpus;
    options.batchScaling = scenario.modelling.batchScaling;
    options.powerLimitsW = scenario.modelling.powerLimitsW;
    ExecutionMenu menu = buildExecutionMenu(job, cluster, options);
    if (menu.empty())
        throw InputError(scenario.sourceFile.empty() ? std::string("scenario") : scenario.sourceFile, 0, 0,
                         std::string("eadt: no configuration fits with arithmetic precision ") +
                             precisionName(job.precision) + " on " + cluster.name +
                             " (unsupported precision or memory): choose another arithmetic_precision");
    if (p.compressionRatio > 1.0) {
        const double parameters = parameterCount(job.model);
        const double tokensPerStep = static_cast<double>(job.globalBatch) * job.model.seqLen;
        for (ExecutionOption& option : menu)
            option.workPerSecond = rateWithCodec(option, parameters, tokensPerStep,
                                                 cluster.accelerator.hbmBytesPerS, p.codecBytesPerParam);
    }
    return menu;
}

RunResult runPolicy(const PreparedScenario& prepared, const PolicySpec& policy,
                    const SimulationHooks& hooks) {
    if (policy.name == "eadt") {
        // The engine charges its input's menu and work, so EADT's levers are applied here: a menu rebuilt
        // with the levers, and the extra steps of the convergence penalty as extra work.
        std::unique_ptr<Policy> made = makePolicy(policy);
        const EadtParameters& p = dynamic_cast<const EadtPolicy&>(*made).parameters();
        if (prepared.measuredMenu) {
            RunResult result = simulate(prepared.input, *made, hooks);
            result.warnings.push_back(
                "eadt: the menu is measured (operating points), so the communication levers "
                "cannot be applied; the inner policy ran on the measured menu unchanged");
            return result;
        }
        SimulationInput input = prepared.input;
        input.menu = eadtMenu(prepared.scenario, p);
        input.totalWork = prepared.input.totalWork * (1.0 + p.extraStepsFraction);
        return simulate(input, *made,
                        hooks); // the deadline stays the scenario's (not re-based on the new menu)
    }
    if (policy.name == "multi-region") {
        // The engine charges the input's migration time, so a checkpoint-sized migration is set here:
        // the checkpoint transfer over the WAN plus the scenario's restart (preemption) time.
        std::unique_ptr<Policy> made = makePolicy(policy);
        const auto& multi = dynamic_cast<const MultiRegionPolicy&>(*made);
        if (multi.parameters().checkpointMigration) {
            SimulationInput input = prepared.input;
            input.modelling.migrationSeconds = std::round(checkpointMigrationSeconds(
                parameterCount(prepared.scenario.job.model), multi.parameters().wanBitsPerSecond,
                prepared.scenario.modelling.preemptionSeconds));
            return simulate(input, *made, hooks);
        }
    }
    return simulate(prepared.input, policy, hooks);
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
    return results;
}

} // namespace carbon3d
