// SPDX-License-Identifier: MIT
#include "reports/ReproductionReport.h"

#include "config/OperatingPointsCsv.h"
#include "config/ScenarioJson.h"
#include "domain/Precision.h"
#include "domain/Savings.h"
#include "engine/policies/ChasePolicy.h"
#include "engine/policies/EadtPolicy.h"
#include "engine/policies/IlpPolicy.h"
#include "engine/policies/WaitAwhilePolicy.h"
#include "perf/PerfModel.h"
#include "reports/BundledRegions.h"
#include "runner/ScenarioRunner.h"
#include "validation/Statistics.h"

#include <algorithm>
#include <numeric>

namespace carbon3d::reports {

namespace {

double saving(const RunResult& run, const RunResult& base) {
    return savingsFraction(base.metrics.totalG, run.metrics.totalG);
}

double slowdown(const RunResult& run, const RunResult& base) {
    return run.metrics.completionSeconds / base.metrics.completionSeconds - 1.0;
}

RunResult run(const PreparedScenario& prepared, const std::string& name,
              std::map<std::string, std::string> options = {}) {
    return runPolicy(prepared, PolicySpec{name, std::move(options)});
}

// Every scenario starts from the teaching job (Llama 2 7B, 30e9 tokens on 64 A100 80GB), most of them moved
// to June 2022.
struct Lesson {
    Scenario original;
    Scenario june;
};

Lesson loadLesson(const std::string& data) {
    Lesson l{loadScenario(data + "/scenarios/learn-windy-germany.json"), {}};
    l.june = l.original;
    l.june.startUtc = *parseIsoDateTime("2022-06-01T00:00:00Z");
    return l;
}

PowerLimitSetting settingOf(const ExecutionOption& option) {
    return {option.powerLimitW, option.gpuPowerW / std::max(1, option.gpusActive),
            1.0 / option.workPerSecond};
}

ChaseSection chaseSection(const std::string& data, const Scenario& june) {
    ChaseSection c;
    c.epochs = 90.0;
    Scenario s = june;
    s.operatingPoints = loadOperatingPoints(data + "/profiles/zeus-a40-resnet50-power-limits.csv");
    s.gpus = 1;
    // The table measures one A40 board (Zeus): one GPU, no node overhead, so that the power per GPU chase
    // sees is the measured board power.
    s.cluster.gpusAvailable = 1;
    s.cluster.nodeOverheadW = 0.0;
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Slack, 1.0};
    c.limits = s.operatingPoints->points.size();
    for (const std::string& file : bundledTraceFiles()) {
        const PreparedScenario p = prepareScenario(inBundledRegion(s, data, file), c.epochs);
        const RunResult base = run(p, "static-max");
        const RunResult chase = run(p, "chase");
        const RunResult svr = run(p, "chase", {{"predictor", "svr"}});
        c.rows.push_back({p.input.regions.front().regionId, -saving(chase, base), slowdown(chase, base),
                          -saving(svr, base), slowdown(svr, base)});
        if (c.rows.size() > 1)
            continue;
        // The menu is the table in every region: where the cost switches is a property of the table.
        const ExecutionMenu& menu = p.menu;
        const auto fastest = std::max_element(menu.begin(), menu.end(), [](const auto& a, const auto& b) {
            return a.workPerSecond < b.workPerSecond;
        });
        c.fastest = settingOf(*fastest);
        c.minLimitW = std::min_element(menu.begin(), menu.end(), [](const auto& a, const auto& b) {
                          return a.powerLimitW < b.powerLimitW;
                      })->powerLimitW;
        c.daysAtFastest = c.epochs * c.fastest.secondsPerEpoch / 86400.0;
        const ChaseParameters parameters;
        std::vector<int> all(menu.size());
        std::iota(all.begin(), all.end(), 0);
        const int dirty = chaseChoice(menu, all, parameters.maxCiGPerKwh, parameters);
        c.dirty = settingOf(menu[static_cast<std::size_t>(dirty)]);
        double ci = parameters.maxCiGPerKwh;
        while (ci > 0 && chaseChoice(menu, all, ci - 1, parameters) == dirty)
            --ci;
        c.dirtyFromCi = ci;
    }
    return c;
}

CarbonScalerSection carbonScalerSection(const std::string& data, const Scenario& june) {
    CarbonScalerSection c;
    Scenario s = june;
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Slack, 1.0};
    c.gpus = s.gpus;
    c.reconfigurationMinutes = s.modelling.reconfigurationSeconds / 60.0;
    c.preemptionMinutes = s.modelling.preemptionSeconds / 60.0;
    for (const std::string& file : bundledTraceFiles()) {
        const PreparedScenario p = prepareScenario(inBundledRegion(s, data, file));
        const RunResult base = run(p, "static-max");
        const RunResult sr = run(p, "suspend-resume");
        const RunResult best = run(p, "best-static");
        const RunResult cs = run(p, "carbonscaler");
        const RunResult d3 = run(p, "dynamic-3d");
        c.rows.push_back({p.input.regions.front().regionId, saving(cs, base), saving(cs, sr),
                          saving(cs, best), saving(d3, base), saving(d3, best),
                          best.metrics.totalG == base.metrics.totalG});
        c.fullSizeDays = p.staticMaxHours / 24.0;
        c.windowDays = static_cast<double>(p.input.deadlineUtc - p.input.startUtc) / 86400.0;
    }
    return c;
}

// Let's Wait Awhile's figures (ML jobs, next-workday deadline, 5 % forecast error, 2020 data).
struct WaitAwhileClaim {
    const char* file;
    double nonInterruptible;
    double interruptible;
};
constexpr WaitAwhileClaim kWaitAwhileClaims[] = {{"DE_2022.csv", 0.0591, 0.0793},
                                                 {"GB_2022.csv", 0.0656, 0.0903},
                                                 {"FR_2022.csv", 0.0477, 0.0592},
                                                 {"US-CAL-CISO_2022.csv", 0.0245, 0.0571}};

WaitAwhileSection waitAwhileSection(const std::string& data, const Scenario& lesson, const Scenario& june) {
    WaitAwhileSection w;
    w.jobHours = 8.0;
    Scenario s = lesson;
    s.forecast.kind = "noisy";
    s.forecast.errorFraction = 0.05;
    s.forecast.seed = 1;
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Hours, 96.0}; // the rule's deadline comes first
    w.forecastError = s.forecast.errorFraction;
    w.forecastSeed = s.forecast.seed;
    w.gpus = s.gpus;
    w.preemptionMinutes = s.modelling.preemptionSeconds / 60.0;
    {
        const PreparedScenario p = prepareScenario(inBundledRegion(june, data, "DE_2022.csv"));
        s.job.tokens = w.jobHours * 3600.0 * p.input.totalWork / (p.staticMaxHours * 3600.0);
    }
    const UtcSeconds first = *parseIsoDateTime("2022-01-03T17:00:00Z"); // a Monday
    const UtcSeconds last = *parseIsoDateTime("2022-12-20T17:00:00Z");
    const std::map<std::string, std::string> nextWorkday{{"deadline_rule", "next-workday"}};
    std::vector<double> weekdayWindows, weekendWindows;
    for (const WaitAwhileClaim& claim : kWaitAwhileClaims) {
        WaitAwhileRow row;
        row.paperNonInterruptible = claim.nonInterruptible;
        row.paperInterruptible = claim.interruptible;
        double base = 0.0, nonInt = 0.0, intPaper = 0.0, intOurs = 0.0;
        for (UtcSeconds t = first; t <= last; t += 86400) {
            const auto weekday = ((t - first) / 86400) % 7; // 0 = Monday
            if (weekday >= 5)
                continue; // weekdays only
            Scenario at = inBundledRegion(s, data, claim.file);
            at.startUtc = t;
            const PreparedScenario p = prepareScenario(at);
            row.region = p.input.regions.front().regionId;
            const UtcSeconds deadline =
                waitAwhileDeadline(WaitDeadlineRule::NextWorkday, t, p.staticMaxHours * 3600.0,
                                   at.regions.front().timeZone, p.input.deadlineUtc);
            (weekday == 4 ? weekendWindows : weekdayWindows)
                .push_back(static_cast<double>(deadline - t) / 3600.0);
            base += run(p, "static-max").metrics.totalG;
            nonInt += run(p, "wait-awhile", nextWorkday).metrics.totalG;
            intOurs += run(p, "wait-awhile-interruptible", nextWorkday).metrics.totalG;
            // The paper's accounting, every choice it makes pinned: parked GPUs released, no resume cost,
            // no failures and no evaluation (a job runs exactly its length).
            Scenario paper = at;
            paper.modelling.backfill = 1.0;
            paper.modelling.preemptionSeconds = 0.0;
            paper.modelling.interruptionsPerGpuHour = 0.0;
            paper.modelling.evaluationFraction = 0.0;
            intPaper += run(prepareScenario(paper), "wait-awhile-interruptible", nextWorkday).metrics.totalG;
            ++row.starts;
        }
        row.nonInterruptible = 1.0 - nonInt / base;
        row.interruptiblePaperAccounting = 1.0 - intPaper / base;
        row.interruptibleHeld = 1.0 - intOurs / base;
        w.rows.push_back(row);
    }
    w.weekdayWindowHours = median(weekdayWindows);
    w.weekendWindowHours = median(weekendWindows);
    return w;
}

IlpSection ilpSection(const std::string& data, const Scenario& june) {
    IlpSection c;
    Scenario s = june;
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Slack, 0.2};
    c.gpus = s.gpus;
    c.slack = s.deadline.value;
    const IlpParameters defaults;
    c.horizonHours = defaults.horizonHours;
    c.resolveHours = defaults.resolveHours;
    c.mipGap = defaults.mipGap;
    c.nodeLimit = defaults.nodeLimit;
    c.preemptionMinutes = s.modelling.preemptionSeconds / 60.0;
    {
        const PreparedScenario p = prepareScenario(inBundledRegion(s, data, "DE_2022.csv"));
        s.job.tokens = (claims::kIlpJobGpuHours / s.gpus) * p.input.totalWork / p.staticMaxHours;
    }
    for (const std::string& file : bundledTraceFiles()) {
        const PreparedScenario p = prepareScenario(inBundledRegion(s, data, file));
        const RunResult base = run(p, "static-max");
        const RunResult ilp = run(p, "ilp");
        // The same schedules on reserved capacity (planned for carbon, they do not change): every hour to
        // completion paid.
        Scenario reserved = inBundledRegion(s, data, file);
        reserved.modelling.gpuCapacity = ModellingOptions::GpuCapacity::Reserved;
        const PreparedScenario r = prepareScenario(reserved);
        c.rows.push_back({p.input.regions.front().regionId, base.metrics.totalG / 1000.0,
                          ilp.metrics.totalG / 1000.0, saving(ilp, base), slowdown(ilp, base),
                          ilp.warnings.size(), base.metrics.costUsd, ilp.metrics.costUsd,
                          run(r, "static-max").metrics.costUsd, run(r, "ilp").metrics.costUsd});
        c.fullSizeHours = p.staticMaxHours;
        c.gpuPriceUsdPerHour = p.input.modelling.gpuPriceUsdPerHour;
        c.electricityUsdPerKwh = p.input.modelling.electricityUsdPerKwh;
    }
    return c;
}

EadtRun eadtRun(const RunResult& r, const RunResult& fullPrecision) {
    return {r.metrics.totalG / 1000.0, saving(r, fullPrecision), r.metrics.completionSeconds / 3600.0};
}

// The share of a step the gradient all-reduce takes at the configuration the full-precision run trained
// with: what compression can act on.
double allReduceShare(const Scenario& s, const RunResult& fullPrecision) {
    const auto training =
        std::find_if(fullPrecision.series.begin(), fullPrecision.series.end(),
                     [](const IntervalRecord& i) { return i.activity == IntervalActivity::Training; });
    if (training == fullPrecision.series.end())
        return 0.0;
    ClusterProfile cluster = s.cluster;
    cluster.calibration.dpGradientBytes = bytesPerElement(Precision::FP32); // fp32 transfer, r 1
    const PerfEstimate e = estimate(makePerfProblem(s.job, cluster), training->config);
    return e.time.dpCommExposedS / e.stepTimeS;
}

EadtSection eadtSection(const std::string& data, const Scenario& june) {
    EadtSection c;
    const EadtParameters levers;
    c.compressionRatio = levers.compressionRatio;
    c.codecBytesPerParam = levers.codecBytesPerParam;
    c.extraSteps = levers.extraStepsFraction;
    c.transferPrecision = levers.transferPrecision;
    c.deadlineFactor = 4.0;
    Scenario s = inBundledRegion(june, data, "DE_2022.csv");
    s.job.precision = Precision::TF32;
    c.gpus = s.gpus;
    c.interNodeGbPerS = s.cluster.interNodeBytesPerS * 8.0 / 1e9;
    c.bf16OverTf32Peak = s.cluster.accelerator.peakFlops.at(Precision::BF16) /
                         s.cluster.accelerator.peakFlops.at(Precision::TF32);
    const double tf32Hours = prepareScenario(s).staticMaxHours;
    s.deadline = DeadlineSpec{DeadlineSpec::Kind::Hours, c.deadlineFactor * tf32Hours};
    const PreparedScenario p = prepareScenario(s);
    const RunResult base = run(p, "eadt",
                               {{"inner", "static-max"},
                                {"compression_ratio", "1"},
                                {"transfer_precision", "fp32"},
                                {"extra_steps", "0"}});
    const std::map<std::string, std::string> allLevers{{"arithmetic_precision", "bf16"}};
    std::map<std::string, std::string> fixedInner = allLevers;
    fixedInner["inner"] = "static-max";
    const RunResult levered = run(p, "eadt", fixedInner);
    const RunResult scheduled = run(p, "eadt", allLevers);
    const RunResult comm = run(p, "eadt", {{"inner", "static-max"}});
    c.fullPrecision = eadtRun(base, base);
    c.communicationOnly = eadtRun(comm, base);
    c.allLevers = eadtRun(levered, base);
    c.allLeversScheduled = eadtRun(scheduled, base);
    c.fullPrecisionAllReduceShare = allReduceShare(s, base);
    return c;
}

} // namespace

ReproductionReport computeReproductionReport(const ReproductionReportInputs& inputs) {
    const std::string& data = inputs.sampleDataDirectory;
    const Lesson lesson = loadLesson(data);
    ReproductionReport r;
    r.chase = chaseSection(data, lesson.june);
    r.carbonScaler = carbonScalerSection(data, lesson.june);
    r.waitAwhile = waitAwhileSection(data, lesson.original, lesson.june);
    r.ilp = ilpSection(data, lesson.june);
    r.eadt = eadtSection(data, lesson.june);
    r.reshaping = computeStudyLesson(loadStudyLesson(data));
    return r;
}

} // namespace carbon3d::reports
