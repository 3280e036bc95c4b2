// SPDX-License-Identifier: MIT
#include "reports/ValidationFindings.h"

#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "validation/Statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace carbon3d::reports {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Which configurations the findings illustrate (an editorial choice; their numbers are looked up).
struct SeriesChoice {
    const char* group;
    int tp, dp;
    std::vector<int> microBatches;
};
// Measurements that are not smooth in the micro-batch size.
const SeriesChoice kUnevenSeries[] = {{"18.4B on 256", 8, 32, {2, 4, 8, 16}},
                                      {"18.4B on 256", 4, 32, {2, 4, 8}},
                                      {"39.1B on 512", 4, 16, {2, 3, 4, 6}}};
// A tensor-parallel degree the model predicts much too fast in one group only, and a pair of its rows.
const SeriesChoice kSlowTensorParallel = {"39.1B on 512", 2, 32, {2, 3}};
// The largest micro-batch of a configuration, measured far slower than the one below it.
const SeriesChoice kMicroBatchCliff = {"3.6B on 64", 8, 8, {32, 64}};

constexpr double kTiedBand = 0.10;                        // "within +-10 % of each other"
constexpr double kNegligibleKernelOverheadS = 1e-6;       // per layer, against steps of seconds
constexpr double kVtrainStatedIntraNodeBytesPerS = 150e9; // vTrain's configuration (published)

bool isMulti(const PredictedRow& p) {
    return p.row.source == ValidationSource::VtrainMulti;
}

MicroBatchSeries lookUp(const ValidationPredictions& predictions, const std::string& group, int tp, int dp,
                        int pp, const std::vector<int>& microBatches) {
    MicroBatchSeries s;
    s.group = group;
    s.config.tp = tp;
    s.config.dp = dp;
    s.config.pp = pp;
    for (int b : microBatches)
        for (const PredictedRow& p : predictions.rows)
            if (isMulti(p) && p.row.group == group && p.chosen.tp == tp && p.chosen.dp == dp &&
                (pp == 0 || p.chosen.pp == pp) && p.chosen.microBatch == b) {
                s.config.pp = p.chosen.pp;
                s.microBatches.push_back(b);
                s.measuredS.push_back(p.row.measuredStepS);
                s.predictedS.push_back(p.predictedS);
                break;
            }
    return s;
}

MicroBatchSeries lookUp(const ValidationPredictions& predictions, const SeriesChoice& choice) {
    return lookUp(predictions, choice.group, choice.tp, choice.dp, 0, choice.microBatches);
}

bool mostWithinBandOfMedian(const Series& s, double band) {
    const double mid = median(s.measured);
    const auto within = std::count_if(s.measured.begin(), s.measured.end(),
                                      [&](double m) { return std::abs(m / mid - 1.0) <= band; });
    return 2 * static_cast<size_t>(within) > s.size();
}

// The below-target group whose single costliest row would lift it most, and that row's configuration.
CostliestRow costliestRow(const ValidationPredictions& predictions,
                          const std::vector<RankCostRow>& rankCost) {
    const RankCostRow* best = nullptr;
    const std::string* previousGroup = nullptr;
    for (const RankCostRow& r : rankCost) {
        const bool firstOfGroup =
            !previousGroup || *previousGroup != r.group; // a group's rows come best first
        previousGroup = &r.group;
        if (firstOfGroup &&
            (!best || r.spearmanIfExact - r.groupSpearman > best->spearmanIfExact - best->groupSpearman))
            best = &r;
    }
    CostliestRow c;
    c.group = best->group;
    c.row = best->sample;
    c.spearmanIfExact = best->spearmanIfExact;
    std::vector<int> microBatches;
    for (const PredictedRow& p : predictions.rows)
        if (isMulti(p) && p.row.group == c.group && p.chosen.tp == c.row.config.tp &&
            p.chosen.dp == c.row.config.dp && p.chosen.pp == c.row.config.pp)
            microBatches.push_back(p.chosen.microBatch);
    std::sort(microBatches.begin(), microBatches.end());
    c.sameConfiguration =
        lookUp(predictions, c.group, c.row.config.tp, c.row.config.dp, c.row.config.pp, microBatches);
    return c;
}

ResidualTransferEvidence transferEvidence(const std::vector<ResidualTransferRow>& rows, double target) {
    ResidualTransferEvidence e;
    e.groups = rows.size();
    e.ownLnTMostNegative.value = 0.0;
    for (const ResidualTransferRow& r : rows) {
        const double lnT = r.ownFit.at(0);
        if (lnT > 0)
            e.ownLnTPositive.push_back(r.group);
        if (lnT < e.ownLnTMostNegative.value)
            e.ownLnTMostNegative = {r.group, lnT};
        if (r.model < target && r.pairwiseAll >= target)
            e.liftedByPairwise.push_back(r.group);
        if (r.model >= target && r.pairwiseAll < target)
            e.droppedByPairwise.push_back({r.group, r.pairwiseAll});
        if (r.linearHeldOut < r.model)
            ++e.linearHeldOutWorse;
        else
            e.linearHeldOutExceptions.push_back(r.group);
        if (r.pairwiseHeldOut < r.model)
            ++e.pairwiseHeldOutWorse;
        else
            e.pairwiseHeldOutExceptions.push_back(r.group);
    }
    return e;
}

RankCeilingEvidence ceilingEvidence(const std::vector<RankCeilingRun>& runs, double target) {
    RankCeilingEvidence e;
    e.documentedGradientBytes = PerfCalibration{}.dpGradientBytes;
    e.heldWorstMin = 1.0;
    e.heldWorstMax = -1.0;
    bool anyFree = false;
    for (const RankCeilingRun& run : runs) {
        const double worst = run.result.worstGroupSpearman;
        if (!run.options.freeStackFacts) {
            ++e.heldSeeds;
            e.heldBelowTarget += worst < target;
            e.heldWorstMin = std::min(e.heldWorstMin, worst);
            e.heldWorstMax = std::max(e.heldWorstMax, worst);
        } else {
            ++e.freeSeeds;
            e.freeReachingTarget += worst >= target;
            if (!anyFree || worst > e.bestFree.worstGroupSpearman)
                e.bestFree = run.result;
            anyFree = true;
        }
    }
    return e;
}

double memoryGib(const PredictedRow& p, const PerfCalibration& calibration) {
    const PerfProblem problem = validationProblem(p.row, calibration);
    PerfEstimate e;
    estimateMemory(problem, p.chosen, e);
    return e.memory.totalBytes() / kGiB;
}

SlowTensorParallelEvidence slowTensorParallel(const ValidationPredictions& predictions,
                                              const PerfCalibration& calibration) {
    const SeriesChoice& choice = kSlowTensorParallel;
    SlowTensorParallelEvidence e;
    e.group = choice.group;
    e.tp = choice.tp;
    e.pair = lookUp(predictions, choice);
    e.capacityGib = vtrainCluster(calibration).accelerator.memoryBytes / kGiB;
    e.slowerMin = INFINITY;
    e.slowerMax = -INFINITY;
    e.memoryMinGib = INFINITY;
    e.memoryMaxGib = -INFINITY;
    std::map<std::string, std::pair<double, double>> otherMemory; // min, max per group
    std::map<std::string, bool> otherNotSlow;
    Series group;
    for (const PredictedRow& p : predictions.rows) {
        if (!isMulti(p))
            continue;
        const bool atDegree = p.chosen.tp == choice.tp;
        if (p.row.group == choice.group) {
            group.add(atDegree ? p.row.measuredStepS : p.predictedS, p.row.measuredStepS);
            if (!atDegree)
                continue;
            ++e.rows;
            const double slower = p.row.measuredStepS / p.predictedS - 1.0;
            e.slowerMin = std::min(e.slowerMin, slower);
            e.slowerMax = std::max(e.slowerMax, slower);
            const double gib = memoryGib(p, calibration);
            e.memoryMinGib = std::min(e.memoryMinGib, gib);
            e.memoryMaxGib = std::max(e.memoryMaxGib, gib);
        } else if (atDegree) {
            if (otherMemory.find(p.row.group) == otherMemory.end()) {
                e.otherGroups.push_back(p.row.group);
                otherMemory[p.row.group] = {INFINITY, -INFINITY};
                otherNotSlow[p.row.group] = true;
            }
            e.otherMaxAbsError = std::max(e.otherMaxAbsError, std::abs(p.error()));
            const double gib = memoryGib(p, calibration);
            auto& [lo, hi] = otherMemory[p.row.group];
            lo = std::min(lo, gib);
            hi = std::max(hi, gib);
            otherNotSlow[p.row.group] = otherNotSlow[p.row.group] && p.error() >= 0.0;
        }
    }
    e.spearmanIfExact = group.spearman();
    for (const std::string& g : e.otherGroups) {
        const auto [lo, hi] = otherMemory[g];
        if (e.otherHeaviest.group.empty() || hi > e.otherHeaviestMaxGib) {
            e.otherHeaviest = {g, hi};
            e.otherHeaviestMinGib = lo;
            e.otherHeaviestMaxGib = hi;
            e.otherHeaviestNotSlow = otherNotSlow[g];
        }
    }
    return e;
}

MicroBatchCliffEvidence microBatchCliff(const ValidationPredictions& predictions) {
    MicroBatchCliffEvidence e;
    e.group = kMicroBatchCliff.group;
    e.tp = kMicroBatchCliff.tp;
    e.pair = lookUp(predictions, kMicroBatchCliff);
    if (e.pair.measuredS.size() == 2)
        e.error = e.pair.predictedS[1] / e.pair.measuredS[1] - 1.0;
    return e;
}

SingleNodeShapeEvidence singleNodeShapes(const ValidationPredictions& predictions) {
    struct Shape {
        double parameters = 0.0;
        Series series;
    };
    std::map<std::pair<int, int>, Shape> shapes; // (hidden, layers)
    for (const PredictedRow& p : predictions.rows) {
        if (p.row.source != ValidationSource::VtrainSingle)
            continue;
        Shape& s = shapes[{p.row.job.model.hidden, p.row.job.model.layers}];
        s.parameters = parameterCount(p.row.job.model);
        s.series.add(p.predictedS, p.row.measuredStepS);
    }
    SingleNodeShapeEvidence e;
    const Shape* smallest = nullptr;
    const Shape* largest = nullptr;
    const Shape* worst = nullptr;
    auto describe = [&](const Shape* s, ShapeError& out) {
        for (const auto& [key, shape] : shapes)
            if (&shape == s)
                out = {key.first, key.second, shape.series.errors()};
    };
    for (const auto& [key, shape] : shapes) {
        if (!smallest || shape.parameters < smallest->parameters)
            smallest = &shape;
        if (!largest || shape.parameters > largest->parameters)
            largest = &shape;
        if (!worst || shape.series.errors().mape > worst->series.errors().mape)
            worst = &shape;
    }
    describe(smallest, e.smallest);
    describe(largest, e.largest);
    describe(worst, e.worst);
    return e;
}

} // namespace

bool MicroBatchSeries::measuredMonotonic() const {
    const bool rising = std::is_sorted(measuredS.begin(), measuredS.end());
    const bool falling = std::is_sorted(measuredS.rbegin(), measuredS.rend());
    return rising || falling;
}

bool MicroBatchSeries::predictedRising() const {
    return std::adjacent_find(predictedS.begin(), predictedS.end(), std::greater_equal<>()) ==
           predictedS.end();
}

ValidationFindings findValidationEvidence(const ValidationPredictions& predictions,
                                          const PerfCalibration& calibration,
                                          const std::vector<RankCostRow>& rankCost,
                                          const std::vector<ResidualTransferRow>& transfer,
                                          const std::vector<RankCeilingRun>& ceiling) {
    ValidationFindings f;
    f.spearmanTarget = validation_targets::kGroupSpearman;
    f.tiedBand = kTiedBand;
    f.mostWithinTiedBand = true;
    for (const GroupSeries& g : predictions.multiGroups) {
        const double rho = g.series.spearman();
        if (rho >= f.spearmanTarget)
            continue;
        f.groupsBelowTarget.push_back({g.name, rho});
        f.mostWithinTiedBand = f.mostWithinTiedBand && mostWithinBandOfMedian(g.series, kTiedBand);
    }
    for (const SeriesChoice& choice : kUnevenSeries)
        f.unevenSeries.push_back(lookUp(predictions, choice));
    f.hasCostliest = !rankCost.empty();
    if (f.hasCostliest)
        f.costliest = costliestRow(predictions, rankCost);
    f.transfer = transferEvidence(transfer, f.spearmanTarget);
    f.ceiling = ceilingEvidence(ceiling, f.spearmanTarget);
    f.slowTp = slowTensorParallel(predictions, calibration);
    f.cliff = microBatchCliff(predictions);
    f.singleNodeShapes = singleNodeShapes(predictions);
    f.kernelOverheadS = calibration.kernelOverheadS;
    f.kernelOverheadNegligible = calibration.kernelOverheadS < kNegligibleKernelOverheadS;
    f.intraNodeEfficiency = calibration.intraNodeCommEfficiency;
    f.intraNodeNominalBytesPerS = vtrainCluster(calibration).intraNodeBytesPerS;
    f.vtrainStatedIntraNodeBytesPerS = kVtrainStatedIntraNodeBytesPerS;
    return f;
}

} // namespace carbon3d::reports
