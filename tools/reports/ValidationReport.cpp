// SPDX-License-Identifier: MIT
#include "reports/ValidationReport.h"

#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "validation/Calibration.h"

#include <algorithm>
#include <optional>

namespace carbon3d::reports {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Korthikanti et al. 2022, Fig. 1 as encoded by Calculon (published; docs/MODEL.md (memory)), with the
// settings that reproduce the published GiB: micro-batch 4 for 22B, interleave 3 for 175B and 530B.
constexpr int kKorthikantiSeqLen = 2048;
constexpr int kKorthikantiVocab = 51200;
constexpr KorthikantiCase kKorthikanti[] = {
    {"22B", 48, 6144, 64, 8, 1, 4, 1, 45.56, 59.25, 9.56},
    {"175B", 96, 12288, 96, 8, 8, 1, 3, 45.56, 66.84, 12.35},
    {"530B", 105, 20480, 128, 8, 35, 1, 3, 31.64, 114.02, 23.08},
    {"1T", 128, 25600, 160, 8, 64, 1, 1, 32.96, 131.25, 26.56},
};
// Megatron's model states: bf16 weights 2, fp32 main gradients 4, fp32 Adam master, m and v 12.
constexpr double kStateBytesPerParameter = 18.0;

CalibrationEvidence calibrationEvidence(const std::vector<ValidationRow>& rows,
                                        const PerfCalibration& calibration,
                                        const ValidationPredictions& fitted) {
    CalibrationEvidence e;
    e.loss = calibrationLoss(rows, calibration);
    PerfCalibration fourBytes = calibration;
    fourBytes.dpGradientBytes = e.refitGradientBytes;
    const CalibrationResult refit = calibrate(rows, fourBytes);
    e.refitLoss = refit.loss;
    const ValidationPredictions refitted = predictValidationSet(rows, refit.fitted);
    double largestDrop = -1.0;
    for (const GroupSeries& g : fitted.multiGroups) {
        const GroupSeries* other = refitted.findMultiGroup(g.name);
        const double before = g.series.spearman();
        const double after = other->series.spearman();
        if (before - after > largestDrop) {
            largestDrop = before - after;
            e.fittedMostHurtGroup = {g.name, before};
            e.refitMostHurtGroup = {g.name, after};
        }
    }
    PerfCalibration hyperbola = calibration;
    hyperbola.gemmSaturationExponent = 1.0;
    e.hyperbolaLoss = calibrationLoss(rows, hyperbola);
    e.hyperbolaSingleMape = predictValidationSet(rows, hyperbola).single.errors().mape;
    return e;
}

std::vector<TargetCheck> targetChecks(const ValidationPredictions& p) {
    using Metric = TargetCheck::Metric;
    namespace t = validation_targets;
    const ErrorStats sc21 = p.sc21.errors();
    const ErrorStats multi = p.multi.errors();
    const ErrorStats single = p.single.errors();
    std::vector<TargetCheck> out{
        {Metric::Sc21MedianAbsError,
         t::kSc21MedianAbsError,
         sc21.medianAbsError,
         sc21.medianAbsError <= t::kSc21MedianAbsError,
         {},
         0},
        {Metric::Sc21MaxAbsError,
         t::kSc21MaxAbsError,
         sc21.maxAbsError,
         sc21.maxAbsError <= t::kSc21MaxAbsError,
         {},
         0},
        {Metric::MultiNodeMape, t::kMultiNodeMape, multi.mape, multi.mape <= t::kMultiNodeMape, {}, 0}};
    for (const GroupSeries& g : p.multiGroups) {
        if (g.series.size() < t::kMinGroupRows)
            continue; // the rank target covers groups with enough rows to rank
        const double rho = g.series.spearman();
        out.push_back({Metric::GroupSpearman, t::kGroupSpearman, rho, rho >= t::kGroupSpearman, g.name,
                       g.series.size()});
    }
    out.push_back(
        {Metric::SingleNodeMape, t::kSingleNodeMape, single.mape, single.mape <= t::kSingleNodeMape, {}, 0});
    return out;
}

// The error statistics of one (role, GPU, precision, sharding) group; nothing when the group has no row.
std::optional<ThroughputSummary> summariseGroup(const std::vector<ThroughputComparison>& rows,
                                                ThroughputRole role, PublishedGpu gpu, Precision precision,
                                                bool fsdp) {
    ThroughputSummary summary{role, gpu, precision, fsdp, {}, 0};
    std::vector<double> predictedStep, measuredStep; // inverse throughputs
    for (const ThroughputComparison& c : rows) {
        if (c.row.role != role || c.row.gpu != gpu || c.row.job.precision != precision ||
            c.row.config.fullySharded != fsdp)
            continue;
        if (!c.predicted.feasible) {
            ++summary.infeasible;
            continue;
        }
        predictedStep.push_back(1.0 / c.predicted.value);
        measuredStep.push_back(1.0 / c.row.measured);
    }
    if (predictedStep.empty() && summary.infeasible == 0)
        return std::nullopt;
    summary.errors = errorStats(predictedStep, measuredStep);
    return summary;
}

MemoryEvidence memoryEvidence(const PerfCalibration& calibration) {
    MemoryEvidence m;
    m.seqLen = kKorthikantiSeqLen;
    m.vocab = kKorthikantiVocab;
    m.stateBytesPerParameter = kStateBytesPerParameter;
    m.publishedParametersPerGpu = kKorthikanti[0].statesGib * kGiB / kStateBytesPerParameter;
    const ClusterProfile selene = seleneCluster(calibration);
    for (const KorthikantiCase& k : kKorthikanti) {
        TrainingJob job;
        job.model = gptModel(k.layers, k.hidden, k.heads, kKorthikantiSeqLen, kKorthikantiVocab);
        job.globalBatch = 2 * k.pp * k.microBatch;
        job.attention = AttentionKernel::Materialized; // Korthikanti et al. counted the stored scores
        const PerfProblem problem = makePerfProblem(job, selene);
        ParallelConfig c{1, k.tp, k.pp, k.microBatch, k.interleave, Recompute::None, false, false, 1};
        PerfEstimate e;
        estimateMemory(problem, c, e);
        MemoryComparison row{k, 0.0, 0.0, 0.0};
        row.statesGib = e.memory.modelStatesBytes() / kGiB;
        row.noneGib = e.memory.activationsBytes / kGiB;
        c.recompute = Recompute::Selective;
        c.sequenceParallel = true;
        estimateMemory(problem, c, e);
        row.selectiveGib = e.memory.activationsBytes / kGiB;
        m.cases.push_back(row);
    }
    return m;
}

std::vector<GroupSummary> summarize(const std::vector<GroupSeries>& groups) {
    std::vector<GroupSummary> out;
    out.reserve(groups.size());
    for (const GroupSeries& g : groups)
        out.push_back({g.name, g.series.errors(), g.series.spearman()});
    return out;
}

double throughputDrop(const ValidationRow& first, double firstS, const ValidationRow& last, double lastS) {
    return 1.0 - (firstS * first.config.gpus()) / (lastS * last.config.gpus());
}

StrongScalingRow predictStrongScalingRow(const ValidationRow& row, const PerfCalibration& calibration) {
    StrongScalingRow out;
    out.row = row;
    const PerfProblem problem = validationProblem(row, calibration);
    out.ruleS = predictStepS(row, problem, &out.chosen);
    for (int v = 1; v <= row.job.model.layers / row.config.pp; ++v) {
        ParallelConfig held = row.config;
        held.interleave = v;
        PerfEstimate e;
        estimate(problem, held, 0.0, e);
        if (e.reason == Infeasibility::None)
            out.held.push_back({v, e.stepTimeS});
    }
    return out;
}

// Rows of one strong-scaling series run the same model on the same global batch.
bool sameSeries(const ValidationRow& a, const ValidationRow& b) {
    return a.job.model.layers == b.job.model.layers && a.job.model.hidden == b.job.model.hidden &&
           a.job.globalBatch == b.job.globalBatch;
}

void measureDrops(StrongScalingSeries& series) {
    if (series.rows.size() < 2)
        return;
    const StrongScalingRow& a = series.rows.front();
    const StrongScalingRow& z = series.rows.back();
    series.measuredDrop = throughputDrop(a.row, a.row.measuredStepS, z.row, z.row.measuredStepS);
    series.ruleDrop = throughputDrop(a.row, a.ruleS, z.row, z.ruleS);
    for (const HeldInterleaveStep& first : a.held) {
        if (const HeldInterleaveStep* last = z.heldAt(first.interleave))
            series.heldDrops.push_back(
                {first.interleave, throughputDrop(a.row, first.stepS, z.row, last->stepS)});
    }
}

} // namespace

StrongScalingCheck checkStrongScaling(const std::string& dataDirectory, const PerfCalibration& calibration) {
    StrongScalingCheck check;
    for (const ValidationRow& row : loadSc21StrongScalingRows(dataDirectory)) {
        if (check.series.empty() || !sameSeries(check.series.back().rows.back().row, row))
            check.series.emplace_back();
        check.series.back().rows.push_back(predictStrongScalingRow(row, calibration));
    }
    for (StrongScalingSeries& series : check.series)
        measureDrops(series);
    return check;
}

InterleaveCheck checkInterleaveSweep(const std::string& dataDirectory, const PerfCalibration& calibration) {
    InterleaveCheck check;
    PerfCalibration without = calibration;
    without.pipelineTransferOverheadS = 0.0;
    const ClusterProfile cluster = interleaveSweepCluster(calibration);
    const ClusterProfile clusterWithout = interleaveSweepCluster(without);
    const ClusterProfile fastNetwork = interleaveSweepCluster(calibration, kInterleaveFastNetworkBytesPerS);
    const std::vector<InterleavePair> pairs = loadInterleaveSweep(dataDirectory);
    for (const InterleavePair& pair : pairs) {
        InterleaveCheckRow row;
        row.pair = pair;
        row.inOneNode = runsInOneNode(pair, cluster);
        row.predicted = predictInterleavePair(pair, cluster);
        row.noOverhead = predictInterleavePair(pair, clusterWithout);
        if (!row.inOneNode)
            row.fastNetwork = predictInterleavePair(pair, fastNetwork);
        check.rows.push_back(row);
    }
    check.loss = interleaveLoss(pairs, cluster);
    check.lossWithout = interleaveLoss(pairs, clusterWithout);
    return check;
}

PublishedRunSet comparePublishedRuns(const std::string& dataDirectory, CalibrationFamily family,
                                     const PerfCalibration& base) {
    PublishedRunSet set;
    const PerfCalibration calibration = familyCalibration(family, base);
    for (const PublishedThroughputRow& row : loadPublishedThroughput(dataDirectory, family)) {
        ThroughputComparison c{row, predictThroughput(row, calibration), 0.0};
        if (c.predicted.feasible)
            c.error = row.measured / c.predicted.value - 1.0;
        set.rows.push_back(c);
    }
    for (const ThroughputRole role : {ThroughputRole::Calibration, ThroughputRole::HeldOut})
        for (const PublishedGpu gpu : kPublishedGpus)
            for (const Precision precision : {Precision::BF16, Precision::FP8})
                for (const bool fsdp : {false, true})
                    if (const auto summary = summariseGroup(set.rows, role, gpu, precision, fsdp))
                        set.summary.push_back(*summary);
    return set;
}

ValidationReport computeValidationReport(const ValidationReportInputs& inputs) {
    const std::vector<ValidationRow> rows = loadValidationRows(inputs.dataDirectory);
    ValidationReport r;
    r.dataDirectory = inputs.dataDirectory;
    r.calibration = inputs.calibration;
    r.predictions = predictValidationSet(rows, inputs.calibration);
    r.calibrationEvidence = calibrationEvidence(rows, inputs.calibration, r.predictions);
    for (ValidationSource s :
         {ValidationSource::Sc21, ValidationSource::VtrainMulti, ValidationSource::VtrainSingle})
        r.sets.push_back({s, r.predictions.set(s).errors(), r.predictions.set(s).spearman()});
    r.targets = targetChecks(r.predictions);
    r.memory = memoryEvidence(inputs.calibration);
    r.vtrainIntraNodeNominalBytesPerS = vtrainCluster(inputs.calibration).intraNodeBytesPerS;
    r.multiGroups = summarize(r.predictions.multiGroups);
    r.singleGroups = summarize(r.predictions.singleGroups);
    r.rankCost = rankCostRows(r.predictions);
    r.residualTransfer = residualTransferRows(r.predictions);
    r.rankCeilingEvaluations = inputs.rankCeilingEvaluations;
    r.rankCeiling =
        searchRankCeilings(rows, inputs.calibration, inputs.rankCeilingSeeds, inputs.rankCeilingEvaluations);
    r.bloom = checkPublishedRun(bloom176b(), inputs.calibration);
    r.power = checkPowerMeasurements();
    r.hopper = comparePublishedRuns(inputs.dataDirectory, CalibrationFamily::Hopper, inputs.calibration);
    r.cdna3 = comparePublishedRuns(inputs.dataDirectory, CalibrationFamily::Cdna3, inputs.calibration);
    r.strongScaling = checkStrongScaling(inputs.dataDirectory, inputs.calibration);
    r.fixedBatch =
        computeFixedBatchScaling(inputs.dataDirectory, inputs.calibration, r.predictions, r.strongScaling);
    r.interleave = checkInterleaveSweep(inputs.dataDirectory, inputs.calibration);
    r.moe = checkMixtureOfExperts(inputs.dataDirectory, inputs.calibration);
    r.findings = findValidationEvidence(r.predictions, inputs.calibration, r.rankCost, r.residualTransfer,
                                        r.rankCeiling);
    return r;
}

} // namespace carbon3d::reports
