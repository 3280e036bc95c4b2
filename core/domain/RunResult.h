// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ParallelConfig.h"
#include "domain/Time.h"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace carbon3d {

// What the cluster was doing during one interval of a run. Waiting: not started yet, nothing held or drawn
// (runs saved before schema version 3 call it paused). Paused: started, then suspended from a checkpoint.
// The last three are overheads: no progress while a checkpoint is saved, moved or restored.
enum class IntervalActivity { Training, Waiting, Paused, Reconfiguring, Preempting, Migrating };
// Every activity, in the enum's order: the one list the store, the CSV and the plots go by.
inline constexpr IntervalActivity kIntervalActivities[] = {
    IntervalActivity::Training,      IntervalActivity::Waiting,    IntervalActivity::Paused,
    IntervalActivity::Reconfiguring, IntervalActivity::Preempting, IntervalActivity::Migrating};
const char* intervalActivityName(IntervalActivity activity); // "training", "waiting", "paused", ...
bool isOverhead(IntervalActivity activity);                  // reconfiguring, preempting or migrating

// One interval of a simulated run: constant configuration, power and carbon intensity throughout.
// Intervals are split at every trace slot boundary, decision, reconfiguration and completion.
struct IntervalRecord {
    UtcSeconds start = 0;
    UtcSeconds end = 0;
    int regionIndex = 0; // index into the scenario's regions
    IntervalActivity activity = IntervalActivity::Training;
    ParallelConfig config; // meaningful while training
    int gpusActive = 0;
    int gpusHeld = 0;                // GPUs allocated to the job (active + parked-but-held)
    double powerLimitW = 0.0;        // per-GPU power limit, 0 = default
    double facilityPowerW = 0.0;     // (active + parked IT power) x PUE, W
    double ciGPerKwh = 0.0;          // true carbon intensity (the trace's signal)
    double forecastCiGPerKwh = 0.0;  // what the policy believed when it decided; NaN: it used no forecast
    double marginalCiGPerKwh = 0.0;  // companion marginal intensity; NaN when the trace has none
    double workDone = 0.0;           // work units completed in this interval (tokens)
    double energyJ = 0.0;            // facility energy, J
    double emissionsG = 0.0;         // operational emissions, gCO2e
    double marginalEmissionsG = 0.0; // NaN when the trace has no marginal signal
    double embodiedG = 0.0;          // embodied emissions charged to this interval, gCO2e
    // Cost (schema version 5; NaN for runs saved before): the electricity price in force, and what the
    // interval's GPUs, energy and emissions cost (engine/PriceModel.h).
    double electricityUsdPerKwh = 0.0;
    double gpuCostUsd = 0.0;
    double energyCostUsd = 0.0;
    double carbonCostUsd = 0.0;
    double costUsd() const { return gpuCostUsd + energyCostUsd + carbonCostUsd; }
};

// A saving against the carbon-agnostic baseline in three parts, gCO2e (runner/SavingSplit.h): what the best
// single configuration held throughout saves; what pausing and shifting add beyond it (the best timing plan;
// never below 0); and what the run adds beyond the strongest of those simpler plans (negative when it emits
// more: for dynamic-3d, what reshaping adds).
struct SavingSplit {
    double configurationG = std::numeric_limits<double>::quiet_NaN();
    double timingG = std::numeric_limits<double>::quiet_NaN();
    double beyondG = std::numeric_limits<double>::quiet_NaN();
    double totalG() const { return configurationG + timingG + beyondG; }
};

// Totals of one run; SI units (J, g, s).
struct RunMetrics {
    double operationalG = 0.0;
    double marginalG = 0.0; // NaN when a region's trace has no marginal signal (unknown, not zero)
    double embodiedG = 0.0;
    double totalG = 0.0; // operational + embodied
    // totalG for the same schedule if parked GPUs were charged whole (backfill 0: a dedicated reservation)
    // or not at all (backfill 1: a shared cluster); NaN for runs saved before schema version 3.
    double dedicatedG = 0.0;
    double sharedG = 0.0;
    double energyJ = 0.0;           // facility energy
    double workDone = 0.0;          // tokens (or the profile's work units)
    double completionSeconds = 0.0; // from scenario start to the last unit of work
    bool finished = false;
    bool deadlineMet = false;
    int reconfigurations = 0;
    double reconfigurationSeconds = 0.0;
    int preemptions = 0;
    double preemptionSeconds = 0.0;
    int migrations = 0;
    double migrationSeconds = 0.0;
    double averagePowerW = 0.0;    // facility energy / wall time while the job held GPUs
    double workPerGram = 0.0;      // tokens per gCO2e (total)
    double lateSeconds = 0.0;      // completion after the deadline, s (0 when met)
    double deadlinePenaltyG = 0.0; // soft deadline: penalty charged for lateness, gCO2e (not in totalG)
    int forcedDecisions = 0; // hard deadline: decisions the engine overrode to keep the deadline reachable
    // Cost, USD (schema version 5; NaN for runs saved before): GPU-hours, energy and the carbon price of
    // totalG; costUsd is their sum. Spot strikes are counted apart from the policy's own preemptions.
    double gpuCostUsd = 0.0;
    double energyCostUsd = 0.0;
    double carbonCostUsd = 0.0;
    double costUsd = 0.0;
    int spotPreemptions = 0;
    double spotPreemptionSeconds = 0.0;
    // The least any schedule of this job could emit (engine/LowerBound.h), gCO2e: the same for every policy
    // on the same input. NaN when unknown (a run read back from the database, which does not store it).
    double lowerBoundG = std::numeric_limits<double>::quiet_NaN();
    // Where the saving against the carbon-agnostic baseline comes from (runner/SavingSplit.h), gCO2e, at
    // each end of the attribution of parked GPUs: the three parts sum to the baseline's dedicatedG (sharedG)
    // less this run's. NaN when not measured (the baseline itself; runs saved before schema version 8).
    // Flat fields, so that the metrics table (MetricFields.h) names each one.
    double savingConfigurationDedicatedG = std::numeric_limits<double>::quiet_NaN();
    double savingTimingDedicatedG = std::numeric_limits<double>::quiet_NaN();
    double savingBeyondDedicatedG = std::numeric_limits<double>::quiet_NaN();
    double savingConfigurationSharedG = std::numeric_limits<double>::quiet_NaN();
    double savingTimingSharedG = std::numeric_limits<double>::quiet_NaN();
    double savingBeyondSharedG = std::numeric_limits<double>::quiet_NaN();

    SavingSplit dedicatedSplit() const {
        return {savingConfigurationDedicatedG, savingTimingDedicatedG, savingBeyondDedicatedG};
    }
    SavingSplit sharedSplit() const {
        return {savingConfigurationSharedG, savingTimingSharedG, savingBeyondSharedG};
    }
    // The split at the run's own attribution: totalG charges a fraction `charged` of parked GPUs
    // (1 - backfill), so its split is the same mix of the two ends' (each part is linear in the totals).
    SavingSplit splitCharging(double charged) const;
    // The same split with each part as a fraction of the baseline's emissions at that attribution (this run's
    // total plus what it saved); NaN parts when the run was not split or the baseline emitted nothing.
    SavingSplit splitFractionsCharging(double charged) const;
};

// RunResult::forecastKind of a policy that plans on the trace itself (the oracle), and of one that asked
// for no forecast (a carbon-agnostic policy).
inline constexpr const char* kPerfectKnowledge = "perfect-knowledge";
inline constexpr const char* kNoForecast = "none";
// Why the policy decided what it did at one decision point, in its own terms (see Decision::reason).
struct DecisionNote {
    UtcSeconds atUtc = 0;
    std::string reason;
};

// Everything a run produced, as plain values (no Qt types): saved by core/storage, drawn by ui/.
struct RunResult {
    std::string policy;                           // e.g. "dynamic-3d"
    std::map<std::string, std::string> options;   // the policy's options in force
    std::map<std::string, std::string> modelling; // the modelling choices in force (docs/MODEL.md section 10)

    // The share of parked GPUs' emissions totalG charges, 1 - its backfill (1 when the record lacks it).
    double chargedParkedShare() const;
    std::string forecastKind;  // the scenario's kind, or kPerfectKnowledge / kNoForecast
    double forecastMape = 0.0; // the forecaster's error on this trace, fraction
    UtcSeconds startUtc = 0;
    UtcSeconds deadlineUtc = 0;
    RunMetrics metrics;
    std::vector<IntervalRecord> series;
    // One note per decision point, in time order, when the caller asked (SimulationHooks::explainDecisions);
    // empty otherwise and for runs read back from the database, which does not store them.
    std::vector<DecisionNote> decisions;
    std::vector<std::string> warnings; // e.g. "ILP timed out; greedy fallback used"
    bool cancelled = false;            // the caller stopped the run before it finished
};

// The note of the last decision at or before t, or nullptr.
const DecisionNote* decisionAt(const RunResult& run, UtcSeconds t);

// Whether the run's decisions used a forecast (and so its series has forecast values to show).
bool usedForecast(const RunResult& run);

} // namespace carbon3d
