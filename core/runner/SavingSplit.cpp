// SPDX-License-Identifier: MIT
#include "runner/SavingSplit.h"

#include "engine/PolicyRegistry.h"
#include "runner/ScenarioRunner.h"

#include <algorithm>
#include <limits>

namespace carbon3d {

namespace {

// Whether the run is its policy with the catalogue's default options (a reference run).
bool ranWithDefaults(const RunResult& run) {
    return policyRunLabel(run.policy, run.options) == run.policy;
}

// The run of `policy` with its default options: from `done` when there, else run now. nullopt when cancelled.
std::optional<RunMetrics> referenceRun(const PreparedScenario& prepared, const std::vector<RunResult>& done,
                                       const std::string& policy, const SimulationHooks& hooks) {
    for (const RunResult& run : done) {
        if (run.policy == policy && !run.cancelled && ranWithDefaults(run))
            return run.metrics;
    }
    SimulationHooks quiet;
    quiet.cancel = hooks.cancel;
    const RunResult run = runPolicy(prepared, PolicySpec{policy, {}}, quiet);
    if (run.cancelled)
        return std::nullopt;
    return run.metrics;
}

// The least of the runs' totals at one end; +infinity for none.
double least(const std::vector<RunMetrics>& runs, double RunMetrics::*end) {
    double value = std::numeric_limits<double>::infinity();
    for (const RunMetrics& run : runs)
        value = std::min(value, run.*end);
    return value;
}

SavingSplit splitAt(const RunMetrics& run, const SplitReferences& references, double RunMetrics::*end) {
    const double baseline = references.baseline.*end;
    const double fixedConfiguration = std::min(baseline, least(references.fixedConfiguration, end));
    const double simpler = std::min(fixedConfiguration, least(references.timing, end));
    return {baseline - fixedConfiguration, fixedConfiguration - simpler, simpler - run.*end};
}

} // namespace

std::optional<SplitReferences> splitReferences(const PreparedScenario& prepared,
                                               const std::vector<RunResult>& done,
                                               const SimulationHooks& hooks) {
    SplitReferences references;
    const std::optional<RunMetrics> baseline =
        referenceRun(prepared, done, defaultBaselinePolicy().name, hooks);
    if (!baseline)
        return std::nullopt;
    references.baseline = *baseline;
    for (const PolicyInfo& info : policyCatalog()) {
        const bool fixed = info.traits.simplerPlan == SimplerPlan::FixedConfiguration;
        if (!fixed && info.traits.simplerPlan != SimplerPlan::Timing)
            continue;
        const std::optional<RunMetrics> run = referenceRun(prepared, done, info.name, hooks);
        if (!run)
            return std::nullopt;
        (fixed ? references.fixedConfiguration : references.timing).push_back(*run);
    }
    return references;
}

void attachSavingSplit(RunResult& run, const SplitReferences& references) {
    if (run.policy == defaultBaselinePolicy().name && ranWithDefaults(run))
        return;
    RunMetrics& m = run.metrics;
    const SavingSplit dedicated = splitAt(m, references, &RunMetrics::dedicatedG);
    const SavingSplit shared = splitAt(m, references, &RunMetrics::sharedG);
    m.savingConfigurationDedicatedG = dedicated.configurationG;
    m.savingTimingDedicatedG = dedicated.timingG;
    m.savingBeyondDedicatedG = dedicated.beyondG;
    m.savingConfigurationSharedG = shared.configurationG;
    m.savingTimingSharedG = shared.timingG;
    m.savingBeyondSharedG = shared.beyondG;
}

} // namespace carbon3d
