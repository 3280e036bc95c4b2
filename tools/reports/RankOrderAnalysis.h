// SPDX-License-Identifier: MIT
#pragma once

#include "domain/PerfCalibration.h"
#include "reports/ValidationPredictions.h"
#include "validation/RankCeiling.h"
#include "validation/ResidualTransfer.h"
#include "validation/ValidationSet.h"

#include <string>
#include <vector>

// The three analyses of the multi-node rank order in docs/VALIDATION.md: which rows cost it, whether the
// error follows the configuration alike in every group, and how far any calibration can take it.
namespace carbon3d::reports {

// A row of "Which rows cost the rank order".
struct RankCostRow {
    std::string group;
    double groupSpearman = 0.0;
    ResidualSample sample;
    double spearmanIfExact = 0.0;
};

// For each group below the Spearman target, its `rowsShown` rows whose exact prediction would raise the
// group's Spearman most (Statistics.h, spearmanIfRowExact), best first: is the gap spread out or in a few?
std::vector<RankCostRow> rankCostRows(const ValidationPredictions& predictions, size_t rowsShown = 3);

// A row of "Does the error follow the configuration the same way in every group?".
struct ResidualTransferRow {
    std::string group;
    double model = 0.0;
    double linearAll = 0.0, linearHeldOut = 0.0;
    double pairwiseAll = 0.0, pairwiseHeldOut = 0.0;
    std::vector<double> ownFit; // the group's own linear fit: c for ln t, ln p, ln b
};

// Shared corrections (validation/ResidualTransfer.h) fitted on all groups and on all but the scored one, and
// each group's own fit, scored as the group's Spearman.
std::vector<ResidualTransferRow> residualTransferRows(const ValidationPredictions& predictions);

struct RankCeilingRun {
    RankCeilingOptions options;
    RankOrderResult result;
};

// validation/RankCeiling.h's search from `start`, seeds 1..seeds with the stack's facts held and then with
// them free. The searches run in parallel; each is deterministic, so the result is too.
std::vector<RankCeilingRun> searchRankCeilings(const std::vector<ValidationRow>& rows,
                                               const PerfCalibration& start, unsigned seeds, int evaluations);

} // namespace carbon3d::reports
