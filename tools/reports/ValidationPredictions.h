// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ParallelConfig.h"
#include "domain/PerfCalibration.h"
#include "validation/ResidualTransfer.h"
#include "validation/Statistics.h"
#include "validation/ValidationSet.h"

#include <string>
#include <vector>

// The one prediction pass over the measured runs that docs/VALIDATION.md and tests/perf/tst_validation both
// start from, so the report and the test cannot disagree on what the model predicted.
namespace carbon3d::reports {

// One measured row and what the model made of it.
struct PredictedRow {
    ValidationRow row;
    ParallelConfig chosen; // the row's configuration, with SC21's unpublished b and v filled in by the rule
    double predictedS = 0.0;
    double error() const { return predictedS / row.measuredStepS - 1.0; } // > 0: the model is slow
};

// Predicted and measured step times of a set of rows, in row order.
struct Series {
    std::vector<double> predicted;
    std::vector<double> measured;
    void add(double predictedS, double measuredS);
    size_t size() const { return measured.size(); }
    ErrorStats errors() const;
    double spearman() const;
};

struct GroupSeries {
    std::string name; // e.g. "18.4B on 256"
    Series series;
};

struct ValidationPredictions {
    std::vector<PredictedRow> rows; // every row, in input order
    Series sc21, multi, single;
    // vTrain's (model, GPU count) groups in order of first appearance; SC21 rows belong to no group.
    std::vector<GroupSeries> multiGroups, singleGroups;
    std::vector<ResidualSample> multiSamples; // the multi-node rows, for validation/ResidualTransfer.h

    const Series& set(ValidationSource source) const;
    const GroupSeries* findMultiGroup(const std::string& name) const; // nullptr when absent
};

// Predicts every row under `calibration` (predictStepS, SC21 rule included).
ValidationPredictions predictValidationSet(const std::vector<ValidationRow>& rows,
                                           const PerfCalibration& calibration);

} // namespace carbon3d::reports
