// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ParallelConfig.h"
#include "domain/TrainingJob.h"
#include "perf/PerfModel.h"

#include <cstddef>
#include <string>
#include <vector>

namespace carbon3d {

// The measured runs of tests/data/validation (see its README.md), as jobs and configurations the model can
// evaluate. Used by calibration, the validation report and the tests; never looked up at run time.
enum class ValidationSource { Sc21, VtrainMulti, VtrainSingle };

struct ValidationRow {
    ValidationSource source = ValidationSource::Sc21;
    int line = 0;      // line in its CSV file
    std::string group; // "(model, GPU count)" group for rank statistics, e.g. "18.4B on 256"
    TrainingJob job;
    ParallelConfig config;
    bool chooseInterleave =
        false; // the interleave degree is not published: the rule chooses it (predictStepS)
    bool microBatchPublished = false; // with chooseInterleave: the rule chooses v only, not b
    double measuredStepS = 0.0;
    double publishedParamsBillion = 0.0; // SC21 and vTrain multi: the parameter count the source lists
};

// The done-when targets of the performance-model issue, in one place for the validation report and the
// rank-ceiling search (errors are fractions).
namespace validation_targets {
constexpr double kSc21MedianAbsError = 0.08;
constexpr double kSc21MaxAbsError = 0.15;
constexpr double kMultiNodeMape = 0.12;
constexpr double kSingleNodeMape = 0.15;
constexpr double kGroupSpearman = 0.8;
constexpr size_t kMinGroupRows = 5; // the rank target covers groups with at least this many rows
} // namespace validation_targets

// Loads megatron_sc21_table1.csv and vtrain/ground_truth_{multi,single}.csv from dataDir. Throws InputError.
std::vector<ValidationRow> loadValidationRows(const std::string& dataDir);
// Loads megatron_sc21_table2.csv, SC21's strong scaling of GPT-3 175B: held out, so it is not among the rows
// above, which are what `calibrate` fits.
std::vector<ValidationRow> loadSc21StrongScalingRows(const std::string& dataDir);

// The clusters the measurements ran on, from their stated hardware (README.md of the data):
// Selene: DGX A100 80GB, 8 GPUs per node, NVLink 600 GB/s bidirectional = 300 GB/s per direction, 8x200 Gb/s
// HDR per node = 25 GB/s per GPU. vTrain: 8 A100 per node, intra-node 150 GB/s, inter-node 800 Gb/s per node
// = 12.5 GB/s per GPU. Both use `calibration` for the fitted efficiencies.
ClusterProfile seleneCluster(const PerfCalibration& calibration = {});
ClusterProfile vtrainCluster(const PerfCalibration& calibration = {});

// The row's problem: its job on its cluster, cross-node tensor parallelism allowed (the runs used it).
PerfProblem validationProblem(const ValidationRow& row, const PerfCalibration& calibration);

// Documented rule for SC21 (micro-batch size and interleave not published): the micro-batch b (unless the row
// publishes it) and the interleave degree v (dividing the layers per stage, with m a multiple of p) for which
// the model predicts the shortest step.
// Returns the predicted step time and writes the chosen configuration.
double predictStepS(const ValidationRow& row, const PerfCalibration& calibration,
                    ParallelConfig* chosen = nullptr);
// The same with the row's problem already built (makePerfProblem on the row's job and cluster).
double predictStepS(const ValidationRow& row, const PerfProblem& problem, ParallelConfig* chosen = nullptr);

// The rows with their problems built once, for searches that predict every row under many calibrations
// (calibrate, the rank-ceiling search): only the calibration changes between calls. Keeps a reference to
// `rows`, which must outlive it.
class PreparedValidationRows {
public:
    explicit PreparedValidationRows(const std::vector<ValidationRow>& rows);
    const std::vector<ValidationRow>& rows() const { return *m_rows; }
    // Predicted step time of every row, in order, under `calibration`; 0 where no legal configuration.
    const std::vector<double>& predict(const PerfCalibration& calibration);

private:
    const std::vector<ValidationRow>* m_rows;
    std::vector<PerfProblem> m_problems;
    std::vector<double> m_predicted;
};

} // namespace carbon3d
