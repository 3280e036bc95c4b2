// SPDX-License-Identifier: MIT
#include "cli/Commands.h"
#include "cli/ReportOutput.h"
#include "domain/InputError.h"
#include "domain/PerfCalibration.h"
#include "perf/Calibration.h"
#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "perf/RankCeiling.h"
#include "perf/ResidualTransfer.h"
#include "perf/Statistics.h"
#include "perf/ValidationSet.h"

#include <QSaveFile>
#include <QString>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <sstream>

namespace carbon3d::cli {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string fmt(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string pct(double fraction) {
    return fmt(100.0 * fraction, 1) + " %";
}

std::string signedPct(double fraction) {
    return (fraction >= 0 ? "+" : "") + fmt(100.0 * fraction, 1) + " %";
}

struct Series {
    std::vector<double> predicted;
    std::vector<double> measured;
};

// Korthikanti et al. 2022 shapes (MODELING.md section 3) and the settings that reproduce the published GiB.
struct KorthikantiCase {
    const char* name;
    int layers, hidden, heads, tp, pp, microBatch, interleave;
    double statesGib, noneGib, selectiveGib;
};
constexpr KorthikantiCase kKorthikanti[] = {
    {"22B", 48, 6144, 64, 8, 1, 4, 1, 45.56, 59.25, 9.56},
    {"175B", 96, 12288, 96, 8, 8, 1, 3, 45.56, 66.84, 12.35},
    {"530B", 105, 20480, 128, 8, 35, 1, 3, 31.64, 114.02, 23.08},
    {"1T", 128, 25600, 160, 8, 64, 1, 1, 32.96, 131.25, 26.56},
};

// Whether the multi-node errors depend on (t, p, b) the same way in every group (perf/ResidualTransfer.h):
// shared corrections fitted on all groups and on all but the scored one, and each group's own fit.
std::string residualTransferSection(const std::vector<ResidualSample>& samples,
                                    const std::vector<std::string>& groups) {
    std::ostringstream md;
    md << "\n### Does the error follow the configuration the same way in every group?\n\n"
          "A missing physical term would show as the same dependence of the error on t, p and b in every "
          "group. The test: fit ln(measured / predicted) = a_group + c . f(t, p, b) by least squares, with "
          "one intercept per group (it never changes a rank inside the group) and coefficients c shared by "
          "the groups; f is ln t, ln p, ln b (linear) or those and their pairwise products (pairwise). "
          "*All groups*: c fitted on all "
       << samples.size()
       << " rows, the rows it is then scored on. *Held out*: c fitted on the other groups and applied to "
          "this one, which is what a shared term would have to survive. Computed by "
          "perf/ResidualTransfer.cpp.\n\n"
          "| group | model | linear, all groups | linear, held out | pairwise, all groups | pairwise, held "
          "out | own fit: c for ln t, ln p, ln b |\n|---|---|---|---|---|---|---|\n";
    const std::vector<double> linearAll = fitSharedCorrection(samples, CorrectionTerms::Linear);
    const std::vector<double> pairwiseAll = fitSharedCorrection(samples, CorrectionTerms::Pairwise);
    for (const std::string& g : groups) {
        std::vector<ResidualSample> own;
        for (const ResidualSample& s : samples)
            if (s.group == g)
                own.push_back(s);
        const std::vector<double> ownFit = fitSharedCorrection(own, CorrectionTerms::Linear);
        auto rho = [&](CorrectionTerms terms, const std::vector<double>& c) {
            return fmt(correctedSpearman(samples, g, terms, c), 3);
        };
        md << "| " << g << " | " << rho(CorrectionTerms::Linear, {}) << " | "
           << rho(CorrectionTerms::Linear, linearAll) << " | "
           << rho(CorrectionTerms::Linear, fitSharedCorrection(samples, CorrectionTerms::Linear, g)) << " | "
           << rho(CorrectionTerms::Pairwise, pairwiseAll) << " | "
           << rho(CorrectionTerms::Pairwise, fitSharedCorrection(samples, CorrectionTerms::Pairwise, g))
           << " | " << fmt(ownFit[0], 3) << ", " << fmt(ownFit[1], 3) << ", " << fmt(ownFit[2], 3) << " |\n";
    }
    return md.str();
}

// For each multi-node group below the rank target, the rows whose exact prediction would raise its
// Spearman most (Statistics.h, spearmanIfRowExact): whether the gap is spread out or sits in a few rows.
std::string rankCostSection(const std::vector<ResidualSample>& samples,
                            const std::vector<std::string>& groups) {
    constexpr size_t kRowsShown = 3;
    std::ostringstream md;
    md << "\n### Which rows cost the rank order\n\n"
          "For each group below the target, the rows that would raise its Spearman most had the model "
          "predicted them exactly (each row alone, the others as predicted).\n\n"
          "| group | Spearman | row (t, d, p, b) | measured s | predicted s | error | Spearman if this row "
          "were exact |\n|---|---|---|---|---|---|---|\n";
    for (const std::string& g : groups) {
        std::vector<const ResidualSample*> rows;
        std::vector<double> predicted, measured;
        for (const ResidualSample& s : samples)
            if (s.group == g) {
                rows.push_back(&s);
                predicted.push_back(s.predictedS);
                measured.push_back(s.measuredS);
            }
        const double rho = spearman(predicted, measured);
        if (rho >= validation_targets::kGroupSpearman)
            continue;
        const std::vector<double> ifExact = spearmanIfRowExact(predicted, measured);
        std::vector<size_t> order(rows.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return ifExact[a] > ifExact[b]; });
        for (size_t k = 0; k < std::min(kRowsShown, order.size()); ++k) {
            const ResidualSample& r = *rows[order[k]];
            const ParallelConfig& c = r.config;
            md << "| " << g << " | " << fmt(rho, 3) << " | t" << c.tp << " d" << c.dp << " p" << c.pp << " b"
               << c.microBatch << " | " << fmt(r.measuredS, 3) << " | " << fmt(r.predictedS, 3) << " | "
               << signedPct(r.predictedS / r.measuredS - 1.0) << " | " << fmt(ifExact[order[k]], 3) << " |\n";
        }
    }
    return md.str();
}

// The rank-ceiling searches (perf/RankCeiling.h): four seeds with the stack's documented facts held, four
// with them free. Seeds run in parallel; each is deterministic, so the report is too.
constexpr unsigned kCeilingSeeds = 4;
constexpr int kCeilingEvaluations = 30000;

std::string rankCeilingSection(const std::vector<ValidationRow>& rows,
                               const std::vector<std::string>& groups) {
    std::vector<RankCeilingOptions> searches;
    for (bool freeStackFacts : {false, true})
        for (unsigned seed = 1; seed <= kCeilingSeeds; ++seed)
            searches.push_back({seed, kCeilingEvaluations, freeStackFacts});
    const QList<RankOrderResult> results =
        QtConcurrent::blockingMapped<QList<RankOrderResult>>(searches, [&rows](const RankCeilingOptions& o) {
            return searchRankCeiling(rows, PerfCalibration{}, o);
        });

    std::ostringstream md;
    md << "\n### How far can any calibration take the rank order?\n\n"
          "The calibration above is fitted on error. Fitted instead for the worst group's Spearman, what "
          "does the model reach? A random local search (core/perf/RankCeiling.cpp) from the calibration "
          "above moves its eight fitted parameters and keeps a step only when every error target of the "
          "issue still holds (SC21 median <= 8 %, max <= 15 %; multi-node MAPE <= 12 %; single-node MAPE "
          "<= 15 %) and the worst group does not get worse; "
       << kCeilingEvaluations
       << " evaluations per seed. *Stack facts held*: dp_gradient_bytes 2 and dp_overlap 0, as the "
          "runs used them. *Stack facts free*: those two move as well (1-4 bytes, 0-1). A search gives a "
          "lower bound on the ceiling; seeds that agree suggest it is close.\n\n"
          "| search | seed | worst group |";
    for (const std::string& g : groups)
        md << " " << g << " |";
    md << " SC21 median / max | multi MAPE | single MAPE | dp_gradient_bytes | intra / inter efficiency "
          "|\n|---|---|---|";
    for (size_t i = 0; i < groups.size(); ++i)
        md << "---|";
    md << "---|---|---|---|---|\n";
    for (size_t i = 0; i < searches.size(); ++i) {
        const RankOrderResult& r = results[static_cast<qsizetype>(i)];
        md << "| " << (searches[i].freeStackFacts ? "stack facts free" : "stack facts held") << " | "
           << searches[i].seed << " | " << fmt(r.worstGroupSpearman, 3) << " |";
        for (const std::string& g : groups) {
            const auto it = r.groupSpearman.find(g);
            md << " " << (it != r.groupSpearman.end() ? fmt(it->second, 3) : std::string("-")) << " |";
        }
        md << " " << pct(r.errors.sc21MedianAbsError) << " / " << pct(r.errors.sc21MaxAbsError) << " | "
           << pct(r.errors.multiMape) << " | " << pct(r.errors.singleMape) << " | "
           << fmt(r.calibration.dpGradientBytes, 2) << " | " << fmt(r.calibration.intraNodeCommEfficiency, 2)
           << " / " << fmt(r.calibration.interNodeCommEfficiency, 2) << " |\n";
    }
    return md.str();
}

std::string buildReport(const std::vector<ValidationRow>& rows, const std::string& dataDir) {
    const PerfCalibration calibration;
    std::ostringstream md;
    md << "# Validation of the performance model\n\n"
       << "Generated by `carbon3d-cli report-validation --data " << dataDir
       << " --out docs/VALIDATION.md` (app/cli/ValidationReportCommand.cpp; about 1.5 min on two cores, "
          "most of it the rank-ceiling search); do not edit by hand. The "
          "calibration "
          "below was fitted by `carbon3d-cli calibrate --data "
       << dataDir
       << "` and is compiled in as the defaults of `PerfCalibration` (core/domain/PerfCalibration.h). "
          "tests/perf/tst_validation recomputes these statistics and checks the targets.\n\n";

    md << "## Calibration (one parameter set for every row)\n\n"
       << "Loss: mean over the three measured sets of each set's mean squared log error "
          "ln(predicted/measured)^2 "
          "(per set, so the 1,440 single-node rows do not drown the 10 SC21 rows). Optimiser: Nelder-Mead in "
          "logit/log coordinates with restarts (core/perf/Calibration.cpp). Loss at these values: "
       << fmt(calibrationLoss(rows, calibration), 5)
       << ".\n\n| key | value | unit | meaning |\n|---|---|---|---|\n";
    for (const PerfCalibrationField& f : perfCalibrationFields()) {
        char value[32];
        std::snprintf(value, sizeof value, "%.4g", calibration.*f.member);
        md << "| " << f.key << " | " << value << " | " << f.unit << " | " << f.meaning << " |\n";
    }
    md << "\n`dp_overlap` (0), `dp_gradient_bytes` (2) and `memory_reserve_gib` (3) are not fitted: "
          "Megatron-LM "
          "at SC21 and Megatron-DeepSpeed without gradient bucketing (vTrain) run the gradient all-reduce "
          "after "
          "the backward pass; both all-reduce fp16 gradients (2 bytes per parameter, MODELING.md section 3); "
          "the reserve is MODELING.md's 2-4 GiB. The loss barely tells 2 from 4 gradient bytes (a refit with "
          "4 lands within 1 % of this loss), but the rank order does: with 4 bytes the 18.4B group's "
          "Spearman "
          "falls to about 0.6, because the model then charges the d = 32 configurations about 1 s too much. "
          "`gemm_saturation_exponent` > 1 (a sharper knee than the hyperbola) is what lowered the loss most "
          "(single-node MAPE 14 % -> 8 %): large GEMMs run near the maximum, small ones fall off fast. "
          "`kernel_overhead_s` ends at ~0: the data support no fixed per-layer cost.\n\n";

    // Predictions
    std::map<int, Series> sets;
    std::map<std::string, Series> multiGroups, singleGroups;
    std::vector<std::string> multiGroupOrder, singleGroupOrder;
    std::vector<ResidualSample> multiSamples;
    std::ostringstream sc21Table, multiTable;
    sc21Table << "| model | GPUs | t | p | d | b, v (rule) | measured s | predicted s | error |\n"
                 "|---|---|---|---|---|---|---|---|---|\n";
    multiTable << "| group | t | d | p | b | measured s | predicted s | error "
                  "|\n|---|---|---|---|---|---|---|---|\n";
    for (const ValidationRow& row : rows) {
        ParallelConfig chosen;
        const double predicted = predictStepS(row, calibration, &chosen);
        Series& set = sets[static_cast<int>(row.source)];
        set.predicted.push_back(predicted);
        set.measured.push_back(row.measuredStepS);
        const double error = predicted / row.measuredStepS - 1.0;
        if (row.source == ValidationSource::Sc21) {
            sc21Table << "| " << row.publishedParamsBillion << "B | " << chosen.gpus() << " | " << chosen.tp
                      << " | " << chosen.pp << " | " << chosen.dp << " | b" << chosen.microBatch << " v"
                      << chosen.interleave << " | " << fmt(row.measuredStepS, 2) << " | " << fmt(predicted, 2)
                      << " | " << signedPct(error) << " |\n";
        } else {
            auto& groups = row.source == ValidationSource::VtrainMulti ? multiGroups : singleGroups;
            auto& order = row.source == ValidationSource::VtrainMulti ? multiGroupOrder : singleGroupOrder;
            if (groups.find(row.group) == groups.end())
                order.push_back(row.group);
            groups[row.group].predicted.push_back(predicted);
            groups[row.group].measured.push_back(row.measuredStepS);
            if (row.source == ValidationSource::VtrainMulti) {
                multiSamples.push_back({row.group, chosen, predicted, row.measuredStepS});
                multiTable << "| " << row.group << " | " << chosen.tp << " | " << chosen.dp << " | "
                           << chosen.pp << " | " << chosen.microBatch << " | " << fmt(row.measuredStepS, 3)
                           << " | " << fmt(predicted, 3) << " | " << signedPct(error) << " |\n";
            }
        }
    }

    auto statsOf = [&](ValidationSource s) {
        const Series& set = sets[static_cast<int>(s)];
        return std::make_pair(errorStats(set.predicted, set.measured), spearman(set.predicted, set.measured));
    };
    const auto [sc21, sc21Rho] = statsOf(ValidationSource::Sc21);
    const auto [multi, multiRho] = statsOf(ValidationSource::VtrainMulti);
    const auto [single, singleRho] = statsOf(ValidationSource::VtrainSingle);

    md << "## Summary\n\n| set | rows | MAPE | median abs error | max abs error | mean signed error | "
          "Spearman (all rows) |\n"
          "|---|---|---|---|---|---|---|\n";
    auto summaryRow = [&](const char* name, const ErrorStats& s, double rho) {
        md << "| " << name << " | " << s.count << " | " << pct(s.mape) << " | " << pct(s.medianAbsError)
           << " | " << pct(s.maxAbsError) << " | " << signedPct(s.meanSignedError) << " | " << fmt(rho, 3)
           << " |\n";
    };
    summaryRow("Megatron SC21 Table 1", sc21, sc21Rho);
    summaryRow("vTrain multi-node", multi, multiRho);
    summaryRow("vTrain single-node", single, singleRho);
    md << "\nSigned error > 0 means the model predicts a longer step than measured. References: vTrain's own "
          "profile-driven simulator reports 14.73 % MAPE (multi-node) and 8.37 % (single-node) on these "
          "sets.\n\n";

    // Targets
    md << "## Targets (issue \"Performance model\")\n\n| target | achieved | met |\n|---|---|---|\n";
    auto target = [&](const std::string& name, const std::string& achieved, bool met) {
        md << "| " << name << " | " << achieved << " | " << (met ? "yes" : "**no**") << " |\n";
    };
    target("SC21 median abs error <= 8 %", pct(sc21.medianAbsError),
           sc21.medianAbsError <= validation_targets::kSc21MedianAbsError);
    target("SC21 max abs error <= 15 %", pct(sc21.maxAbsError),
           sc21.maxAbsError <= validation_targets::kSc21MaxAbsError);
    target("vTrain multi-node MAPE <= 12 %", pct(multi.mape),
           multi.mape <= validation_targets::kMultiNodeMape);
    for (const std::string& g : multiGroupOrder) {
        const Series& s = multiGroups[g];
        if (s.measured.size() < validation_targets::kMinGroupRows)
            continue;
        const double rho = spearman(s.predicted, s.measured);
        target("vTrain multi-node Spearman >= 0.8, " + g + " (" + std::to_string(s.measured.size()) +
                   " rows)",
               fmt(rho, 3), rho >= validation_targets::kGroupSpearman);
    }
    target("vTrain single-node MAPE <= 15 %", pct(single.mape),
           single.mape <= validation_targets::kSingleNodeMape);

    // Memory
    md << "\n## Memory against Korthikanti et al. (MODELING.md section 3)\n\n"
          "Per GPU on the most loaded (first) pipeline stage, s = 2048, V = 51,200, t = 8, as GiB. Model "
          "states "
          "count 18 bytes per parameter (bf16 weights 2, fp32 main gradients 4, fp32 Adam master/m/v 12: "
          "Megatron's layout, which is what the published 45.56 GiB for 2.72e9 parameters per GPU implies; "
          "MODELING.md's 16 bytes omits the fp32 gradient copy). Our count includes the embedding on the "
          "first "
          "stage; the published one does not.\n\n"
          "The published activation GiB are reproduced exactly by Korthikanti's formulas with micro-batch 4 "
          "for "
          "22B (not 1) and interleaving v = 3 for 175B and 530B (the factor 1 + (p-1)/(p v)), v = 1 for 1T; "
          "these "
          "are the settings used below (the brief's \"micro-batch 1\" does not reproduce the 22B "
          "figures).\n\n"
          "| model | t, p, b, v | states published | states model | error | activations (no recompute) "
          "published | "
          "model | error | activations (SP + selective) published | model | error |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|\n";
    const ClusterProfile selene = seleneCluster(calibration);
    for (const KorthikantiCase& k : kKorthikanti) {
        TrainingJob job;
        job.model = gptModel(k.layers, k.hidden, k.heads, 2048, 51200);
        job.globalBatch = 2 * k.pp * k.microBatch;
        const PerfProblem problem = makePerfProblem(job, selene);
        ParallelConfig c{1, k.tp, k.pp, k.microBatch, k.interleave, Recompute::None, false, false};
        PerfEstimate e;
        estimateMemory(problem, c, e);
        const double states =
            (e.memory.weightsBytes + e.memory.gradientsBytes + e.memory.optimizerBytes) / kGiB;
        const double none = e.memory.activationsBytes / kGiB;
        c.recompute = Recompute::Selective;
        c.sequenceParallel = true;
        estimateMemory(problem, c, e);
        const double selective = e.memory.activationsBytes / kGiB;
        md << "| " << k.name << " | t" << k.tp << " p" << k.pp << " b" << k.microBatch << " v" << k.interleave
           << " | " << fmt(k.statesGib, 2) << " | " << fmt(states, 2) << " | "
           << signedPct(states / k.statesGib - 1) << " | " << fmt(k.noneGib, 2) << " | " << fmt(none, 2)
           << " | " << signedPct(none / k.noneGib - 1) << " | " << fmt(k.selectiveGib, 2) << " | "
           << fmt(selective, 2) << " | " << signedPct(selective / k.selectiveGib - 1) << " |\n";
    }

    md << "\n## Megatron SC21 Table 1\n\nMeasured = iteration time implied by the published TFLOP/s per GPU "
          "through "
          "Eq. 3 (F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)), time = F / (GPUs x TFLOP/s)). Full "
          "recomputation, "
          "interleaved 1F1B, scatter/gather, Selene (25 GB/s per GPU inter-node). The micro-batch size and "
          "the "
          "interleave degree are not published: the documented rule is that both are the values for which "
          "the "
          "model predicts the shortest step among the legal ones (b divides B/d; v divides l/p with m a "
          "multiple "
          "of p), the same rule `carbon3d-cli estimate` applies when they are not given.\n\n"
       << sc21Table.str();

    md << "\n## vTrain multi-node (109 rows)\n\nMegatron-DeepSpeed, full activation checkpointing, 1F1B (v = "
          "1), "
          "vocabulary 50,257 padded to a multiple of 128 t. Cluster: 8 A100 per node, inter-node 800 Gb/s "
          "per node "
          "(12.5 GB/s per GPU); intra-node modelled at the A100's NVLink 3 300 GB/s per direction (vTrain's "
          "config "
          "states 150 GB/s; both clusters use the same NVLink hardware, and the fitted efficiency 0.71 "
          "puts the achieved figure at about 212 GB/s).\n\n| group | rows | MAPE | max abs error | Spearman "
          "|\n"
          "|---|---|---|---|---|\n";
    for (const std::string& g : multiGroupOrder) {
        const Series& s = multiGroups[g];
        const ErrorStats st = errorStats(s.predicted, s.measured);
        md << "| " << g << " | " << st.count << " | " << pct(st.mape) << " | " << pct(st.maxAbsError) << " | "
           << fmt(spearman(s.predicted, s.measured), 3) << " |\n";
    }
    md << rankCostSection(multiSamples, multiGroupOrder)
       << residualTransferSection(multiSamples, multiGroupOrder) << rankCeilingSection(rows, multiGroupOrder)
       << "\n"
       << multiTable.str();

    md << "\n## vTrain single-node (1,440 rows, grouped)\n\nGroups are (hidden, layers, GPUs); the rows of a "
          "group "
          "differ in t, d, p, micro-batch and global batch.\n\n| group | rows | MAPE | max abs error | mean "
          "signed "
          "error | Spearman |\n|---|---|---|---|---|---|\n";
    for (const std::string& g : singleGroupOrder) {
        const Series& s = singleGroups[g];
        const ErrorStats st = errorStats(s.predicted, s.measured);
        md << "| " << g << " | " << st.count << " | " << pct(st.mape) << " | " << pct(st.maxAbsError) << " | "
           << signedPct(st.meanSignedError) << " | " << fmt(spearman(s.predicted, s.measured), 3) << " |\n";
    }

    md << "\n## What the model cannot explain\n\n"
          "- **Rank order inside the 18.4B and 39.1B multi-node groups** (Spearman about 0.76 and 0.68, "
          "target "
          "0.8). Most configurations of these groups lie within +-10 % of each other, and the measurements "
          "are not smooth in the micro-batch size: 18.4B t = 8, d = 32 measured 10.45, 9.93, 9.60, 10.51 s "
          "for b = 2, 4, 8, 16 and t = 4, d = 32 measured 10.03, 10.95, 10.86 s for b = 2, 4, 8; 39.1B t = "
          "4, "
          "d = 16 measured 16.07, 17.61, 17.41, 16.09 s for b = 2, 3, 4, 6. "
          "In 18.4B one row carries most of the gap (table \"Which rows cost the rank order\"): t = 4, "
          "d = 32, p = 2, b = 4 measured 10.95 s, slower than the same configuration with b = 8 (10.86 s) "
          "and 0.92 s slower than with b = 2, where the model has the time grow with b (9.12, 9.47, "
          "10.39 s: fewer micro-batches, a longer pipeline bubble); predicted exactly, that row alone "
          "would lift the group to 0.90. "
          "The residual order is specific to each group (table \"Does the error follow the configuration the "
          "same way in every group?\" "
          "above): the groups' own fits disagree in sign and size (the ln t coefficient is positive for "
          "175B and strongly negative for 39.1B); the shared pairwise correction that lifts 18.4B and 39.1B "
          "above 0.8 drops 175B far below it; and a correction learned on three groups lowers the fourth "
          "group's rank correlation in three of the four cases, for both forms (18.4B is the exception). A "
          "physical term that depended on the configuration this way would move every group alike; none in "
          "this family does, and the candidates that depend on other quantities (listed at the end of this "
          "item) did not help. Nor does a different calibration (table \"How far can any calibration take "
          "the rank order?\"): searched for the best worst group while keeping every error target and the "
          "stack's documented facts, four seeds of four stop at 0.79. Freed of those facts, one seed of "
          "four reaches 0.80, by having the gradient all-reduce move about 1 byte per parameter (the runs "
          "moved fp16's 2) and NVLink run at 98 % of nominal, with the multi-node MAPE at the edge of its "
          "target: a fit of the rank statistic, not a description of the runs. We keep the calibration "
          "fitted on error. In "
          "39.1B the t = 2 runs are 10-50 % slower than predicted (b = 2 slower than b = 3 at d = 32, p = "
          "8), "
          "while t = 2 in the 3.6B, 18.4B and 175B groups is predicted within 10 %, with similar per-GPU "
          "parameter counts, memory and communication volumes: no term that depends on t, d, p, b, memory "
          "or NIC sharing grows that much only there. Were those six rows predicted exactly, the 39.1B "
          "Spearman would be about 0.84. Memory pressure (by the model's count these runs need "
          "32-62 GiB of 80, and 175B's t = 2 runs need 66-72 GiB without slowing down), "
          "DP/PP communicator contention on shared NICs, per-tensor all-reduces without bucketing and the "
          "1F1B bubble were examined and do not reproduce the pattern.\n"
          "- **Very large micro-batches**: 3.6B with t = 8, b = 64 measured 9.8 s against 5.0 s for b = 32; "
          "the model "
          "predicts them equal (-52 % error). Likely memory pressure; the analytic model has no such cliff "
          "below "
          "the capacity limit.\n"
          "- **Small single-node models** carry most of the single-node error (mean error positive for the "
          "smallest shapes): kernel-launch and framework overheads that do not scale with FLOPs or bytes. "
          "The fit "
          "drives the per-layer overhead term to ~0 because the multi-node and SC21 sets do not support it.\n"
          "- **Intra-node efficiency 0.71 of the nominal 300 GB/s (about 212 GB/s)**: between vTrain's "
          "stated "
          "150 GB/s and the NVLink 3 figure; close to the bus bandwidth NCCL reaches for large all-reduces "
          "on A100 NVSwitch systems. An earlier fit started at exactly 1.0, where the logit coordinate is "
          "infinite and the optimiser could not move it; the fit now starts inside the bound.\n"
          "- SC21's unpublished micro-batch and interleave are chosen by the model; a different (published) "
          "choice "
          "would change the SC21 errors by a few percent.\n"
          "- Power is not validated against measurements here (no public per-configuration power data for "
          "these "
          "runs); the phase powers and the power-limit curve are documented assumptions "
          "(docs/PERFORMANCE.md).\n";
    return md.str();
}

} // namespace

Command makeReportValidationCommand() {
    Command command;
    command.name = "report-validation";
    command.summary = "regenerate docs/VALIDATION.md: model vs measured step times and memory";
    command.usage = "report-validation --data DIR --out FILE";
    command.flags = {{"data", true, false, "DIR", "tests/data/validation"},
                     {"out", true, false, "FILE", "Markdown file to write (e.g. docs/VALIDATION.md)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const auto data = args.value("data");
        const auto out = args.value("out");
        if (!data || !out)
            throw UsageError("--data and --out are required");
        writeReport(buildReport(loadValidationRows(*data), *data), out, io);
        return 0;
    };
    return command;
}

Command makeCalibrateCommand() {
    Command command;
    command.name = "calibrate";
    command.summary = "fit the performance model's PerfCalibration to tests/data/validation";
    command.usage = "calibrate --data DIR [--max-evaluations N]";
    command.details =
        "Starts from the compiled-in defaults and prints the fitted values as JSON (a cluster's "
        "\"calibration\" object) and as C++ defaults for core/domain/PerfCalibration.h.";
    command.flags = {{"data", true, false, "DIR", "tests/data/validation"},
                     {"max-evaluations", true, false, "N", "loss evaluations (default 6000)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const auto data = args.value("data");
        if (!data)
            throw UsageError("--data is required");
        const auto rows = loadValidationRows(*data);
        const int evaluations = args.intValue("max-evaluations", 1, 10000000).value_or(6000);
        const CalibrationResult result = calibrate(rows, PerfCalibration{}, evaluations);
        io.out << "loss " << result.initialLoss << " -> " << result.loss << " after " << result.evaluations
               << " evaluations\n{\n";
        const auto& fields = perfCalibrationFields();
        for (size_t i = 0; i < fields.size(); ++i) {
            char value[32];
            std::snprintf(value, sizeof value, "%.4g", result.fitted.*fields[i].member);
            io.out << "  \"" << fields[i].key << "\": " << value << (i + 1 < fields.size() ? "," : "")
                   << '\n';
        }
        io.out << "}\n";
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
