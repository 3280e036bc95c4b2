// SPDX-License-Identifier: MIT
#include "reports/RankOrderAnalysis.h"

#include "reports/ParallelRuns.h"

#include <algorithm>
#include <numeric>

namespace carbon3d::reports {

std::vector<RankCostRow> rankCostRows(const ValidationPredictions& predictions, size_t rowsShown) {
    std::vector<RankCostRow> out;
    for (const GroupSeries& g : predictions.multiGroups) {
        const double rho = g.series.spearman();
        if (rho >= validation_targets::kGroupSpearman)
            continue;
        std::vector<const ResidualSample*> rows;
        for (const ResidualSample& s : predictions.multiSamples)
            if (s.group == g.name)
                rows.push_back(&s);
        const std::vector<double> ifExact = spearmanIfRowExact(g.series.predicted, g.series.measured);
        std::vector<size_t> order(rows.size());
        std::iota(order.begin(), order.end(), size_t{0});
        // Stable: rows that would lift the group equally keep their order in the data.
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return ifExact[a] > ifExact[b]; });
        for (size_t k = 0; k < std::min(rowsShown, order.size()); ++k)
            out.push_back({g.name, rho, *rows[order[k]], ifExact[order[k]]});
    }
    return out;
}

std::vector<ResidualTransferRow> residualTransferRows(const ValidationPredictions& predictions) {
    const std::vector<ResidualSample>& samples = predictions.multiSamples;
    const std::vector<double> linearAll = fitSharedCorrection(samples, CorrectionTerms::Linear);
    const std::vector<double> pairwiseAll = fitSharedCorrection(samples, CorrectionTerms::Pairwise);
    std::vector<ResidualTransferRow> out;
    for (const GroupSeries& g : predictions.multiGroups) {
        std::vector<ResidualSample> own;
        for (const ResidualSample& s : samples)
            if (s.group == g.name)
                own.push_back(s);
        auto rho = [&](CorrectionTerms terms, const std::vector<double>& c) {
            return correctedSpearman(samples, g.name, terms, c);
        };
        ResidualTransferRow row;
        row.group = g.name;
        row.model = rho(CorrectionTerms::Linear, {});
        row.linearAll = rho(CorrectionTerms::Linear, linearAll);
        row.linearHeldOut =
            rho(CorrectionTerms::Linear, fitSharedCorrection(samples, CorrectionTerms::Linear, g.name));
        row.pairwiseAll = rho(CorrectionTerms::Pairwise, pairwiseAll);
        row.pairwiseHeldOut =
            rho(CorrectionTerms::Pairwise, fitSharedCorrection(samples, CorrectionTerms::Pairwise, g.name));
        row.ownFit = fitSharedCorrection(own, CorrectionTerms::Linear);
        out.push_back(std::move(row));
    }
    return out;
}

std::vector<RankCeilingRun> searchRankCeilings(const std::vector<ValidationRow>& rows,
                                               const PerfCalibration& start, unsigned seeds,
                                               int evaluations) {
    std::vector<RankCeilingOptions> searches;
    for (bool freeStackFacts : {false, true})
        for (unsigned seed = 1; seed <= seeds; ++seed)
            searches.push_back({seed, evaluations, freeStackFacts});
    return mapInParallel<RankCeilingRun>(searches.size(), [&](size_t i) {
        return RankCeilingRun{searches[i], searchRankCeiling(rows, start, searches[i])};
    });
}

} // namespace carbon3d::reports
