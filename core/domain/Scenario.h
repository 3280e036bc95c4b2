// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"
#include "domain/ClusterProfile.h"
#include "domain/ForecastArchive.h"
#include "domain/OperatingPoints.h"
#include "domain/PriceTrace.h"
#include "domain/TrainingJob.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// A region the job may run in, with its carbon trace.
struct RegionSpec {
    std::string regionId;  // e.g. "US-CAL-CISO"
    std::string tracePath; // as written in the scenario (relative paths resolve against the scenario file)
    std::string timeZone;  // IANA zone, e.g. "America/Los_Angeles"
    bool repair = false;   // load the trace with repairs (TraceLoadOptions::repair), each one recorded
    // Which intensity an Electricity Maps file gives: "" (its default, life-cycle), "lifecycle" or "direct"
    // (operational emissions only; TraceLoadOptions::column).
    std::string emissionFactor;
    CarbonTrace trace; // loaded by the scenario loader
    // Optional hourly electricity price (USD/MWh) replacing the flat modelling.electricityUsdPerKwh here.
    std::string priceTracePath; // as written in the scenario; empty: the flat price
    std::optional<PriceTrace> priceTrace;
};

// The deadline, either absolute hours after the start or slack over the carbon-agnostic runtime.
struct DeadlineSpec {
    enum class Kind { Hours, Slack };
    Kind kind = Kind::Slack;
    double value = 0.25; // hours (Kind::Hours) or fraction, 0.25 = 25 % longer than static-max (Kind::Slack)
};

// A policy to run and its options (policy-specific keys, validated by the policy).
struct PolicySpec {
    std::string name; // e.g. "static-max", "dynamic-3d", "oracle"
    std::map<std::string, std::string> options;
};

// What policies see instead of the future (docs/MODEL.md section 8).
struct ForecastSpec {
    std::string kind =
        "operational"; // a kind of the forecast catalogue (engine/forecast/Forecaster.h; docs/DECISIONS.md)
    double errorFraction = 0.0; // noisy: sigma as a fraction of the trace mean
    std::uint64_t seed = 1;     // noisy: random seed
    // How far ahead a forecast issued at decision time reaches, when the scenario sets it. Unset: the
    // kind's own reach (effectiveHorizonHours).
    std::optional<double> horizonHours;
    // replay: the forecast file (or directory of files) as written in the scenario, and what it holds.
    std::string filePath;
    std::shared_ptr<const ForecastArchive> archive;

    // The reach in force: the one set, else the whole trace for the oracle (perfect knowledge means
    // perfect: it is a bound) and kDefaultForecastHorizonHours for every forecast a service could
    // issue, the noisy oracle included (docs/DECISIONS.md, "A forecast's reach").
    double effectiveHorizonHours() const {
        if (horizonHours)
            return *horizonHours;
        return kind == "oracle" ? std::numeric_limits<double>::infinity() : kDefaultForecastHorizonHours;
    }
    static constexpr double kDefaultForecastHorizonHours = 48.0;
};

// The open modelling choices of docs/MODEL.md section 10, each explicit, with its default.
struct ModellingOptions {
    enum class BatchScaling { GlobalConstant, PerReplicaConstant }; // 2.
    enum class DeadlineMode { Hard, Soft };                         // 5.
    // 1. Who pays for the GPUs a policy parks: the fraction of their time that other work uses. 0: a
    // dedicated reservation, they idle and this job is charged their idle power and embodied carbon; 1: a
    // shared cluster or cloud, they cost this job nothing. Every run reports both ends for its schedule
    // (RunMetrics::dedicatedG, sharedG); the default is docs/DECISIONS.md's.
    double backfill = 0.0;
    BatchScaling batchScaling = BatchScaling::GlobalConstant;
    double reconfigurationSeconds =
        600.0;                          // 3. checkpoint save + reshard + reload per configuration change, s
    double resizeSeconds = 120.0;       // 3. data-parallel-only resize: no reshard of model state, s
    double preemptionSeconds = 600.0;   // 3. checkpoint + restart per pause/resume, s
    double migrationSeconds = 3600.0;   // 3. checkpoint transfer + restart when moving to another region, s
    double overheadPowerFraction = 0.0; // 3. power during an overhead: 0 idle .. 1 training (DECISIONS.md)
    double overheadPowerW = 0.0;        // 3. the job's power during an overhead, W; 0: by the fraction above
    DeadlineMode deadlineMode = DeadlineMode::Hard;
    double softDeadlinePenaltyGPerHour = 0.0; // 5. soft deadline: gCO2e charged per hour late
    double decisionIntervalSeconds = 0.0;     // 0 = at trace slot boundaries, at most every 30 min
    std::vector<double> powerLimitsW; // per-GPU power limits (W) the performance-model menu also offers, each
                                      // option at each limit (chase needs them); empty = default limit only
    // 6. Goodput (core/perf/Goodput.h, docs/DECISIONS.md "Goodput"): interruptions strike each running GPU at
    // this rate; each costs a restart and the work since the last checkpoint. Default: the Llama 3 405B
    // run's 466 interruptions in 54 days on 16,384 GPUs (Dubey et al. 2024, section 3.3.4). 0: no failures.
    double interruptionsPerGpuHour = kLlama3InterruptionsPerGpuHour;
    double restartSeconds = 600.0;            // detect, reschedule, reload the last checkpoint, s
    double checkpointIntervalSeconds = 600.0; // training time between checkpoints, s
    double evaluationFraction = 0.0;          // evaluation time per unit of training time (0.02 = 2 %)

    // 7. Prices (engine/PriceModel.h, docs/DECISIONS.md "Prices"). How the GPUs are bought: on demand (paid
    // while held, parked ones by the share the attribution above charges), reserved (every GPU paid from the
    // scenario's start until the job completes, paused or not) or spot (as on demand, cheaper, and the
    // provider reclaims them at spotPreemptionsPerGpuHour, each strike costing a preemption).
    enum class GpuCapacity { OnDemand, Reserved, Spot };
    GpuCapacity gpuCapacity = GpuCapacity::OnDemand;
    // USD per GPU-hour; NaN: the cluster's list price (ClusterProfile::gpuPriceUsdPerHour).
    double gpuPriceUsdPerHour = std::numeric_limits<double>::quiet_NaN();
    double spotPreemptionsPerGpuHour = kSpotPreemptionsPerGpuHour;
    double spotSeed = 1.0; // the spot preemptions' random stream: the same seed strikes at the same times
    // USD per kWh of facility energy; a region's price trace (RegionSpec::priceTracePath) replaces it there.
    double electricityUsdPerKwh = kElectricityUsdPerKwh;
    double carbonPriceUsdPerT = 0.0; // USD per tonne CO2e of the run's emissions (operational + embodied)

    // 466 interruptions (419 unexpected, 47 planned) in 54 days of pre-training on 16,384 H100 GPUs.
    static constexpr double kLlama3InterruptionsPerGpuHour = 466.0 / (54.0 * 24.0 * 16384.0);
    // Defaults whose sources are in docs/DECISIONS.md "Prices".
    // 20 % of instances reclaimed per 730-hour month, per 8-GPU instance (3.42e-5), to two figures.
    static constexpr double kSpotPreemptionsPerGpuHour = 3.4e-5;
    static constexpr double kElectricityUsdPerKwh = 0.083;
};

struct Scenario {
    int schema = 1;
    std::string name;
    std::string description;
    TrainingJob job;
    ClusterProfile cluster;
    std::string clusterRef;          // preset id or file the cluster came from
    int gpus = 0;                    // GPUs allocated to the job (<= cluster.gpusAvailable)
    std::vector<RegionSpec> regions; // first region is where the job starts
    UtcSeconds startUtc = 0;
    DeadlineSpec deadline;
    std::vector<PolicySpec> policies;
    ForecastSpec forecast;
    ModellingOptions modelling;
    std::optional<OperatingPointTable> operatingPoints; // measured menu, replaces the analytic model
    std::string sourceFile; // where the scenario was loaded from (empty for a built one)
};

} // namespace carbon3d
