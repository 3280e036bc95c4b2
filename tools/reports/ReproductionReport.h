// SPDX-License-Identifier: MIT
#pragma once

#include "reports/StudyLesson.h"

#include <string>
#include <vector>

// docs/REPRODUCTION.md as numbers: each seed's headline claim beside the closest scenario this tool runs on
// the bundled 2022 traces (computeReproductionReport), and its Markdown (renderReproductionMarkdown). Numbers
// that disagree are findings: nothing here is tuned to reach a headline.
namespace carbon3d::reports {

struct ReproductionReportInputs {
    std::string sampleDataDirectory; // holds scenarios/, profiles/ and traces/
};

// The seeds' headline claims (published; docs/MODEL.md (policies)), as fractions.
namespace claims {
inline constexpr double kChaseCarbonSaving = 0.136;
inline constexpr double kChaseSlowdown = 0.025;
inline constexpr double kCarbonScalerVsAgnostic = 0.51;
inline constexpr double kCarbonScalerVsSuspendResume = 0.37;
inline constexpr double kCarbonScalerVsBestStatic = 0.08;
inline constexpr double kIlpSavingMin = 0.40, kIlpSavingMax = 0.60;
inline constexpr double kIlpSlowdownBelow = 0.05;
inline constexpr double kIlpFlexibilityMin = 0.10, kIlpFlexibilityMax = 0.20;
inline constexpr double kIlpRunsOverGpuHours = 100.0;
inline constexpr double kIlpJobGpuHours = 1000.0, kIlpJobKgBefore = 400.0, kIlpJobKgAfter = 260.0;
// The same article: carbon-aware schedules cost only 5-10 % more (issue 18).
inline constexpr double kIlpExtraCostMin = 0.05, kIlpExtraCostMax = 0.10;
inline constexpr double kEadtSaving = 0.40;
} // namespace claims

// ---- Chase ----------------------------------------------------------------------------------------------
struct PowerLimitSetting {
    double limitW = 0.0;
    double boardPowerW = 0.0;
    double secondsPerEpoch = 0.0;
};
struct ChaseRow {
    std::string region;
    double forecastCarbonChange = 0.0, forecastSlowdown = 0.0; // chase on the run's forecast vs static-max
    double svrCarbonChange = 0.0, svrSlowdown = 0.0;           // chase on its SVR predictor
};
struct ChaseSection {
    size_t limits = 0; // rows of the measured power-limit table
    double minLimitW = 0.0;
    PowerLimitSetting fastest; // the table's maximum limit: static-max
    PowerLimitSetting dirty;   // the limit chase's cost prefers on a dirty grid (at its normalising CI)
    double dirtyFromCi = 0.0;  // the lowest CI, g/kWh, from which the cost prefers it
    double epochs = 0.0;
    double daysAtFastest = 0.0;
    std::vector<ChaseRow> rows;
};

// ---- CarbonScaler and dynamic 3D parallelism
// ---------------------------------------------------------------
struct CarbonScalerRow {
    std::string region;
    double vsStaticMax = 0.0, vsSuspendResume = 0.0, vsBestStatic = 0.0; // carbonscaler's savings
    double dynamic3dVsStaticMax = 0.0, dynamic3dVsBestStatic = 0.0;
    bool bestStaticIsStaticMax = false;
};
struct CarbonScalerSection {
    int gpus = 0;
    double fullSizeDays = 0.0; // the teaching job's static-max runtime
    double windowDays = 0.0;   // start to deadline
    double reconfigurationMinutes = 0.0, preemptionMinutes = 0.0;
    std::vector<CarbonScalerRow> rows;
};

// ---- Let's Wait Awhile ------------------------------------------------------------------------------------
struct WaitAwhileRow {
    std::string region;
    double paperNonInterruptible = 0.0, paperInterruptible = 0.0; // the claim for this region (2020 data)
    double nonInterruptible = 0.0;
    double interruptiblePaperAccounting = 0.0; // parked GPUs released, no resume cost
    double interruptibleHeld = 0.0;            // our defaults: GPUs held, a restore per resume
    int starts = 0;
};
struct WaitAwhileSection {
    double jobHours = 0.0;
    int readyHourUtc = 0;
    double forecastError = 0.0;
    unsigned long long forecastSeed = 0;
    int gpus = 0;
    double preemptionMinutes = 0.0;
    double weekdayWindowHours = 0.0; // median over all starts, Monday to Thursday, of ready to deadline
    double weekendWindowHours = 0.0; // the same for Friday starts
    std::vector<WaitAwhileRow> rows;
};

// ---- The ILP article
// ---------------------------------------------------------------------------------------
struct IlpRow {
    std::string region;
    double staticMaxKg = 0.0, ilpKg = 0.0, saving = 0.0, slowdown = 0.0;
    size_t warnings = 0;
    // cost_usd at the scenario's prices (docs/ENGINE.md "Cost"), on demand and on reserved capacity
    double staticMaxUsd = 0.0, ilpUsd = 0.0, staticMaxReservedUsd = 0.0, ilpReservedUsd = 0.0;
};
struct IlpSection {
    int gpus = 0;
    double fullSizeHours = 0.0;
    double slack = 0.0;
    double horizonHours = 0.0, resolveHours = 0.0, mipGap = 0.0;
    int nodeLimit = 0;
    double preemptionMinutes = 0.0;
    double gpuPriceUsdPerHour = 0.0, electricityUsdPerKwh = 0.0; // the prices the cost columns use
    std::vector<IlpRow> rows;
};

// ---- EADT
// --------------------------------------------------------------------------------------------------
struct EadtRun {
    double kg = 0.0, saving = 0.0, hours = 0.0; // saving against the full-precision run
};
struct EadtSection {
    int gpus = 0;
    double interNodeGbPerS = 0.0; // per GPU, Gb/s
    double compressionRatio = 0.0, codecBytesPerParam = 0.0, extraSteps = 0.0;
    std::string transferPrecision;
    double deadlineFactor = 0.0;              // x the TF32 runtime
    double fullPrecisionAllReduceShare = 0.0; // of the full-precision step, at its static-max configuration
    double bf16OverTf32Peak = 0.0;            // matrix-unit peak ratio
    EadtRun fullPrecision, communicationOnly, allLevers, allLeversScheduled;
};

struct ReproductionReport {
    ChaseSection chase;
    CarbonScalerSection carbonScaler;
    WaitAwhileSection waitAwhile;
    IlpSection ilp;
    EadtSection eadt;
    StudyLessonNumbers reshaping; // when dynamic 3D parallelism pays: the claim's condition, measured
};

// Runs every scenario (seconds to minutes in a Release build; InputError when the sample data cannot be
// read).
ReproductionReport computeReproductionReport(const ReproductionReportInputs& inputs);

std::string renderReproductionMarkdown(const ReproductionReport& report);

} // namespace carbon3d::reports
