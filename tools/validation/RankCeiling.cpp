// SPDX-License-Identifier: MIT
#include "validation/RankCeiling.h"

#include "validation/Calibration.h"
#include "validation/Statistics.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace carbon3d {

namespace {

// Step sizes in coordinate units (0.3 in a log coordinate is a 35 % change): wide first to travel, then finer
// to settle; the evaluations are split evenly between them.
constexpr double kStepStages[] = {0.3, 0.1, 0.03};

// The stack's facts that `freeStackFacts` lets move, each within its documented range (PerfCalibrationField),
// searched as the logit of its position in that range (kept finite at the range's ends).
// The order fixes which coordinate each random step draws first, so it is part of what a seed reproduces.
constexpr double PerfCalibration::*kStackFactMembers[] = {&PerfCalibration::dpGradientBytes,
                                                          &PerfCalibration::dpOverlap};

const std::vector<const PerfCalibrationField*>& stackFacts() {
    static const std::vector<const PerfCalibrationField*> facts = [] {
        std::vector<const PerfCalibrationField*> found;
        for (auto member : kStackFactMembers)
            for (const PerfCalibrationField& f : perfCalibrationFields())
                if (f.member == member)
                    found.push_back(&f);
        return found;
    }();
    return facts;
}

std::vector<double> encode(const PerfCalibration& c, bool freeStackFacts) {
    const FittedCoordinates fitted = encodeFitted(c);
    std::vector<double> x(fitted.begin(), fitted.end());
    if (freeStackFacts)
        for (const PerfCalibrationField* f : stackFacts()) {
            const double u = std::clamp((c.*f->member - f->min) / (f->max - f->min), 1e-6, 1.0 - 1e-6);
            x.push_back(std::log(u / (1.0 - u)));
        }
    return x;
}

PerfCalibration decode(const std::vector<double>& x, const PerfCalibration& start) {
    FittedCoordinates fitted{};
    std::copy_n(x.begin(), fitted.size(), fitted.begin());
    PerfCalibration c = decodeFitted(fitted, start);
    for (size_t i = fitted.size(), k = 0; i < x.size(); ++i, ++k) {
        const PerfCalibrationField& f = *stackFacts()[k];
        c.*f.member = f.min + (f.max - f.min) / (1.0 + std::exp(-x[i]));
    }
    return c;
}

} // namespace

bool ErrorTargetStats::met() const {
    using namespace validation_targets;
    return sc21MedianAbsError <= kSc21MedianAbsError && sc21MaxAbsError <= kSc21MaxAbsError &&
           multiMape <= kMultiNodeMape && singleMape <= kSingleNodeMape;
}

RankOrderResult evaluateRankOrder(PreparedValidationRows& rows, const PerfCalibration& calibration) {
    const std::vector<double>& predicted = rows.predict(calibration);
    std::map<ValidationSource, std::pair<std::vector<double>, std::vector<double>>> sets;
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> groups;
    for (size_t i = 0; i < predicted.size(); ++i) {
        const ValidationRow& row = rows.rows()[i];
        auto& set = sets[row.source];
        set.first.push_back(predicted[i]);
        set.second.push_back(row.measuredStepS);
        if (row.source == ValidationSource::VtrainMulti) {
            groups[row.group].first.push_back(predicted[i]);
            groups[row.group].second.push_back(row.measuredStepS);
        }
    }
    RankOrderResult result;
    result.calibration = calibration;
    result.evaluations = 1;
    result.worstGroupSpearman = 1.0;
    for (const auto& [group, series] : groups) {
        if (series.first.size() < validation_targets::kMinGroupRows)
            continue;
        const double rho = spearman(series.first, series.second);
        result.groupSpearman[group] = rho;
        result.worstGroupSpearman = std::min(result.worstGroupSpearman, rho);
    }
    auto stats = [&](ValidationSource s) { return errorStats(sets[s].first, sets[s].second); };
    const ErrorStats sc21 = stats(ValidationSource::Sc21);
    result.errors = {sc21.medianAbsError, sc21.maxAbsError, stats(ValidationSource::VtrainMulti).mape,
                     stats(ValidationSource::VtrainSingle).mape};
    return result;
}

RankOrderResult searchRankCeiling(const std::vector<ValidationRow>& rows, const PerfCalibration& start,
                                  const RankCeilingOptions& options) {
    PreparedValidationRows prepared(rows);
    std::vector<double> x = encode(start, options.freeStackFacts);
    RankOrderResult best = evaluateRankOrder(prepared, decode(x, start));
    int used = 1;
    std::mt19937 random(options.seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const int perStage = std::max(1, (options.evaluations - 1) / static_cast<int>(std::size(kStepStages)));
    for (double step : kStepStages) {
        for (int i = 0; i < perStage && used < options.evaluations; ++i, ++used) {
            std::vector<double> candidate = x;
            for (double& value : candidate)
                value += step * normal(random);
            RankOrderResult trial = evaluateRankOrder(prepared, decode(candidate, start));
            if (trial.errors.met() && trial.worstGroupSpearman >= best.worstGroupSpearman) {
                best = std::move(trial);
                x = std::move(candidate);
            }
        }
    }
    best.evaluations = used;
    return best;
}

} // namespace carbon3d
