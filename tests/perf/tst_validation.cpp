// SPDX-License-Identifier: MIT
#include "domain/InputError.h"
#include "reports/ValidationPredictions.h"
#include "reports/ValidationReport.h"
#include "validation/Calibration.h"
#include "validation/CollectiveLatency.h"
#include "validation/ExpertAllToAll.h"
#include "validation/GpuVariability.h"
#include "validation/InterleaveSweep.h"
#include "validation/PublishedThroughput.h"
#include "validation/RankCeiling.h"
#include "validation/ResidualTransfer.h"
#include "validation/Statistics.h"
#include "validation/ValidationSet.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <fstream>

using namespace carbon3d;
using reports::GroupSeries;

namespace {

// The rows with every held-out measurement tripled: a fit that reads only calibration rows cannot tell.
std::vector<PublishedThroughputRow> withHeldOutScrambled(std::vector<PublishedThroughputRow> rows) {
    for (PublishedThroughputRow& row : rows) {
        if (row.role == ThroughputRole::HeldOut)
            row.measured *= 3.0;
    }
    return rows;
}

} // namespace

// Recomputes the validation statistics of docs/VALIDATION.md with the default (fitted) calibration and checks
// the done-when targets of the performance-model issue. Where a target is not reached the test pins the
// achieved figure with a margin and marks the target as an expected failure, so a regression still fails.
// The predictions come from the report's own prediction pass (tools/reports/ValidationPredictions.h), so the
// test checks the numbers the document prints.
class TestValidation : public QObject {
    Q_OBJECT
private:
    std::vector<ValidationRow> m_rows;
    reports::ValidationPredictions m_predictions;

private Q_SLOTS:
    void initTestCase() {
        m_rows =
            loadValidationRows(QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString());
        QCOMPARE(m_rows.size(), size_t(10 + 109 + 1440));
        m_predictions = reports::predictValidationSet(m_rows, PerfCalibration{});
        QCOMPARE(m_predictions.rows.size(), m_rows.size());
    }

    void sc21IterationTimes() {
        const ErrorStats stats = m_predictions.set(ValidationSource::Sc21).errors();
        // Targets: median |error| <= 8 %, max <= 15 % (achieved 2.1 % and 4.9 %).
        QVERIFY2(stats.medianAbsError <= 0.08, qPrintable(QString::number(stats.medianAbsError)));
        QVERIFY2(stats.maxAbsError <= 0.15, qPrintable(QString::number(stats.maxAbsError)));
    }

    void vtrainMultiNode() {
        const ErrorStats stats = m_predictions.set(ValidationSource::VtrainMulti).errors();
        // Target MAPE <= 12 % (achieved 8.0 %; vTrain's own simulator: 14.73 %).
        QVERIFY2(stats.mape <= 0.12, qPrintable(QString::number(stats.mape)));
    }

    void vtrainMultiNodeRanks_data() {
        QTest::addColumn<QString>("group");
        QTest::addColumn<double>("floor");
        QTest::addColumn<bool>("targetMet");
        // Achieved Spearman: 3.6B 0.962, 175B 0.894 (target 0.8 met); 18.4B 0.764 and 39.1B 0.661 fall short
        // of 0.8 (docs/VALIDATION.md, "what the model cannot explain"; residualOrderIsGroupSpecific below
        // keeps the evidence for that section true). Floors are the achieved values - 0.05 so a regression
        // still fails.
        QTest::newRow("3.6B") << QStringLiteral("3.6B on 64") << 0.8 << true;
        QTest::newRow("175B") << QStringLiteral("175B on 512") << 0.8 << true;
        QTest::newRow("18.4B") << QStringLiteral("18.4B on 256") << 0.71 << false;
        QTest::newRow("39.1B") << QStringLiteral("39.1B on 512") << 0.61 << false;
    }
    void vtrainMultiNodeRanks() {
        QFETCH(QString, group);
        QFETCH(double, floor);
        QFETCH(bool, targetMet);
        const GroupSeries* found = m_predictions.findMultiGroup(group.toStdString());
        QVERIFY(found != nullptr);
        QVERIFY(found->series.size() >= 5);
        const double rho = found->series.spearman();
        QVERIFY2(rho >= floor, qPrintable(QString::number(rho)));
        if (!targetMet)
            QEXPECT_FAIL("", "rank correlation target 0.8 not reached for this group", Continue);
        QVERIFY2(rho >= 0.8, qPrintable(QString::number(rho)));
    }

    // The claims of VALIDATION.md's "does the error follow the configuration the same way in every group?":
    // if a model change makes them false, this fails and the section and the status need another
    // look.
    void residualOrderIsGroupSpecific() {
        for (CorrectionTerms terms : {CorrectionTerms::Linear, CorrectionTerms::Pairwise}) {
            // No correction in (t, p, b) shared by the groups, fitted on all their rows, reaches 0.8 in all.
            const std::vector<ResidualSample>& samples = m_predictions.multiSamples;
            const std::vector<double> shared = fitSharedCorrection(samples, terms);
            double worst = 1.0;
            int heldOutWorse = 0;
            for (const GroupSeries& g : m_predictions.multiGroups) {
                worst = std::min(worst, correctedSpearman(samples, g.name, terms, shared));
                // Learned on the other groups, the correction lowers this group's rank correlation.
                const std::vector<double> others = fitSharedCorrection(samples, terms, g.name);
                if (correctedSpearman(samples, g.name, terms, others) < g.series.spearman())
                    ++heldOutWorse;
            }
            QVERIFY2(worst < 0.8, qPrintable(QString::number(worst)));
            QCOMPARE(heldOutWorse, 3);
        }
    }

    // The search behind VALIDATION.md's "how far can any calibration take the rank order?", on a short
    // budget (each evaluation predicts all 1,559 rows): it starts from the fitted calibration, which meets
    // the error targets at the Spearman figures above; it never trades a target away nor returns a worse
    // worst group; and a seed gives the same answer twice.
    void rankCeilingSearchKeepsTheTargets() {
        PreparedValidationRows prepared(m_rows);
        const RankOrderResult start = evaluateRankOrder(prepared, PerfCalibration{});
        QVERIFY(start.errors.met());
        QCOMPARE(start.groupSpearman.size(), size_t(4));
        const GroupSeries* g = m_predictions.findMultiGroup("39.1B on 512");
        QVERIFY(g != nullptr);
        QCOMPARE(start.worstGroupSpearman, g->series.spearman()); // 39.1B is the worst group
        for (bool freeStackFacts : {false, true}) {
            const RankCeilingOptions options{7, 40, freeStackFacts};
            const RankOrderResult a = searchRankCeiling(m_rows, PerfCalibration{}, options);
            const RankOrderResult b = searchRankCeiling(m_rows, PerfCalibration{}, options);
            QCOMPARE(a.evaluations, 40);
            QVERIFY(a.calibration.gemmEfficiencyMax != PerfCalibration{}.gemmEfficiencyMax); // it moved
            QVERIFY(a.errors.met());
            QVERIFY(a.worstGroupSpearman >= start.worstGroupSpearman);
            QCOMPARE(a.worstGroupSpearman, b.worstGroupSpearman);
            QCOMPARE(a.calibration.gemmEfficiencyMax, b.calibration.gemmEfficiencyMax);
            if (!freeStackFacts) // the stack's facts stay as documented
                QCOMPARE(a.calibration.dpGradientBytes, PerfCalibration{}.dpGradientBytes);
        }
    }

    void vtrainSingleNode() {
        const ErrorStats stats = m_predictions.set(ValidationSource::VtrainSingle).errors();
        // Target MAPE <= 15 % (achieved 7.8 %; vTrain's own simulator: 8.37 %).
        QVERIFY2(stats.mape <= 0.15, qPrintable(QString::number(stats.mape)));
    }

    void defaultsAreTheFittedOptimum() {
        // The defaults are what `carbon3d-validate calibrate` wrote: a short rerun from them must not find a
        // loss more than 1 % lower (1 %: Nelder-Mead termination tolerance, not a tuned constant).
        const PerfCalibration defaults;
        const CalibrationResult rerun = calibrate(m_rows, defaults, 60);
        QVERIFY2(rerun.loss >= 0.99 * rerun.initialLoss,
                 qPrintable(QStringLiteral("%1 -> %2").arg(rerun.initialLoss).arg(rerun.loss)));
    }

    void publishedThroughputRowsLoadAndBadRowsAreNamed() {
        const std::string dir = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString();
        const auto rows = loadPublishedThroughput(dir);
        QCOMPARE(rows.size(), size_t(65)); // hopper/README.md: 34 calibration and 31 held-out rows
        QCOMPARE(std::count_if(rows.begin(), rows.end(),
                               [](const auto& r) { return r.role == ThroughputRole::HeldOut; }),
                 31L);
        // llm-foundry's twelve FULL_SHARD rows and Megatron-Bridge's Llama 3 8B (its archive: FSDP = 8), all
        // held out.
        QCOMPARE(std::count_if(rows.begin(), rows.end(),
                               [](const auto& r) {
                                   return r.config.fullySharded && r.role == ThroughputRole::HeldOut;
                               }),
                 13L);
        // 16-bit gradient buffers where the configuration says so: NeMo 24.07's Nemotron-4 340B and the
        // five Megatron-Bridge rows (hopper/SOURCES.md, conventions).
        QCOMPARE(std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.job.bf16Gradients; }),
                 6L);
        QCOMPARE(std::count_if(rows.begin(), rows.end(),
                               [](const auto& r) { return r.gpu == PublishedGpu::H200; }),
                 2L); // MLPerf Training v5.0's Llama 3.1 405B on 512 and 1,024 H200
        // A role that is neither is refused with the file, its line and what was expected.
        QTemporaryDir copy;
        QVERIFY(QDir().mkpath(copy.filePath(QStringLiteral("hopper"))));
        std::ifstream in(dir + "/hopper/runs.csv");
        std::ofstream out(copy.filePath(QStringLiteral("hopper/runs.csv")).toStdString());
        std::string line;
        std::getline(in, line);
        out << line << '\n';
        std::getline(in, line);
        out << "maybe" << line.substr(line.find(',')) << '\n';
        out.close();
        try {
            loadPublishedThroughput(copy.path().toStdString());
            QFAIL("a bad role was accepted");
        } catch (const InputError& error) {
            const std::string text = error.what();
            QVERIFY2(text.find("runs.csv") != std::string::npos && text.find(":2") != std::string::npos &&
                         text.find("'calibration' or 'held-out'") != std::string::npos,
                     text.c_str());
        }
    }

    // The Hopper family's two fitted terms: the BF16 GEMM efficiency on the BF16 calibration rows, then the
    // FP8 cast on the FP8 ones with it. Each compiled-in value is the fit's (to the 4 significant digits
    // `calibrate` prints), held-out rows cannot move it, and it helps the rows it was fitted on.
    void hopperTermsAreFittedOnCalibrationRowsOnly() {
        const auto hopper = loadPublishedThroughput(
            QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString());
        const PerfCalibration family = familyCalibration(CalibrationFamily::Hopper);
        const std::vector<PublishedThroughputRow> scrambled = withHeldOutScrambled(hopper);

        const PerfCalibration gemm = fitGemmEfficiency(hopper, family, Precision::BF16);
        QVERIFY2(std::abs(gemm.gemmEfficiencyMax - kHopperGemmEfficiencyMax) < 5e-4,
                 qPrintable(QString::number(gemm.gemmEfficiencyMax)));
        QCOMPARE(fitGemmEfficiency(scrambled, family, Precision::BF16).gemmEfficiencyMax,
                 gemm.gemmEfficiencyMax);
        QVERIFY(throughputLoss(hopper, Precision::BF16, family) <
                throughputLoss(hopper, Precision::BF16, PerfCalibration{}));

        // 5e-3: the FP8 loss is nearly flat at its minimum, so the A100 terms' fourth digit (which a rerun
        // of `calibrate` from other start values moves) shifts the fitted cast by up to 3e-3.
        const PerfCalibration cast = fitFp8Cast(hopper, family);
        QVERIFY2(std::abs(cast.fp8CastBytesPerElement - family.fp8CastBytesPerElement) < 5e-3,
                 qPrintable(QString::number(cast.fp8CastBytesPerElement)));
        QCOMPARE(fitFp8Cast(scrambled, family).fp8CastBytesPerElement, cast.fp8CastBytesPerElement);
        PerfCalibration without = family;
        without.fp8CastBytesPerElement = 0.0;
        QVERIFY(throughputLoss(hopper, Precision::FP8, family) <
                throughputLoss(hopper, Precision::FP8, without));
    }

    // The CDNA 3 family's GEMM efficiency is fitted on its FP8 calibration row (MI325X): the compiled-in
    // value is the fit's (4 significant digits) and the held-out rows cannot move it. AMD's own Llama 3.1
    // 8B figure, on another model and sequence length, is the check: within 5 % (its global batch is
    // inferred from AMD's recipe, and two runs of one stack on one GPU differ by a few percent), where the
    // A100 fit the mi300x-node preset used before was 28 % fast in step time.
    void cdna3EfficiencyIsFittedOnCalibrationRowsOnly() {
        const std::string dir = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString();
        const auto rows = loadPublishedThroughput(dir, CalibrationFamily::Cdna3);
        QCOMPARE(rows.size(), size_t(6)); // cdna3/README.md: one calibration and five held-out rows
        QVERIFY(std::all_of(rows.begin(), rows.end(),
                            [](const auto& r) { return r.gpu == PublishedGpu::MI325X; }));
        QVERIFY(std::none_of(rows.begin(), rows.end(), [](const auto& r) { return r.job.fp8Weights; }));
        const PerfCalibration family = familyCalibration(CalibrationFamily::Cdna3);
        const std::vector<PublishedThroughputRow> scrambled = withHeldOutScrambled(rows);
        const PerfCalibration fitted = fitGemmEfficiency(rows, family, Precision::FP8);
        QVERIFY2(std::abs(fitted.gemmEfficiencyMax - kCdna3GemmEfficiencyMax) < 5e-4,
                 qPrintable(QString::number(fitted.gemmEfficiencyMax)));
        QCOMPARE(fitGemmEfficiency(scrambled, family, Precision::FP8).gemmEfficiencyMax,
                 fitted.gemmEfficiencyMax);

        const auto errorOf = [](const PublishedThroughputRow& row, const PerfCalibration& calibration) {
            const ThroughputPrediction p = predictThroughput(row, calibration);
            return p.feasible ? row.measured / p.value - 1.0 : 1.0;
        };
        const auto heldOut = std::find_if(rows.begin(), rows.end(), [](const auto& r) {
            return r.source == "amd_perf_results_llama31_8b_mi325x";
        });
        QVERIFY(heldOut != rows.end());
        QVERIFY2(std::abs(errorOf(*heldOut, family)) < 0.05,
                 qPrintable(QString::number(errorOf(*heldOut, family))));
        QVERIFY2(errorOf(*heldOut, PerfCalibration{}) < -0.2,
                 qPrintable(QString::number(errorOf(*heldOut, PerfCalibration{}))));
        // The FSDP rows (70B with full recomputation, FP8) are a second check, on another mechanism: within
        // 5 % for the same reasons.
        for (const PublishedThroughputRow& row : rows) {
            if (!row.config.fullySharded || row.job.precision != Precision::FP8)
                continue;
            QVERIFY2(std::abs(errorOf(row, family)) < 0.05,
                     qPrintable(QStringLiteral("line %1: %2").arg(row.line).arg(errorOf(row, family))));
        }
    }

    // The cost of a pipeline exchange is fitted on the Zero Bubble pairs that ran inside one node: the
    // compiled-in value is the fit's (4 significant digits), the pairs across nodes (whose network the
    // paper does not give) cannot move it, and it brings the predicted speed-ups to the measured ones.
    void interleaveCostIsFittedOnOneNodePairs() {
        const std::string dir = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString();
        const std::vector<InterleavePair> pairs = loadInterleaveSweep(dir);
        QCOMPARE(pairs.size(), size_t(12)); // zero_bubble/table4.csv: 4 models x 3 micro-batch counts
        const PerfCalibration defaults;
        const PerfCalibration refit = fitPipelineTransferOverhead(pairs, defaults);
        QVERIFY2(std::abs(refit.pipelineTransferOverheadS - defaults.pipelineTransferOverheadS) < 5e-7,
                 qPrintable(QString::number(refit.pipelineTransferOverheadS)));
        std::vector<InterleavePair> scrambled = pairs;
        int acrossNodes = 0;
        for (InterleavePair& pair : scrambled) {
            if (!runsInOneNode(pair, interleaveSweepCluster(defaults))) {
                pair.interleavedMeasured *= 3.0;
                ++acrossNodes;
            }
        }
        QCOMPARE(acrossNodes, 6);
        QCOMPARE(fitPipelineTransferOverhead(scrambled, defaults).pipelineTransferOverheadS,
                 refit.pipelineTransferOverheadS);
        PerfCalibration without = defaults;
        without.pipelineTransferOverheadS = 0.0;
        const double loss = interleaveLoss(pairs, interleaveSweepCluster(defaults));
        // Root mean square error of the speed-up: 3 % without the cost, under 1 % with it.
        QVERIFY2(std::sqrt(interleaveLoss(pairs, interleaveSweepCluster(without))) > 0.03,
                 qPrintable(QString::number(interleaveLoss(pairs, interleaveSweepCluster(without)))));
        QVERIFY2(std::sqrt(loss) < 0.01, qPrintable(QString::number(loss)));
    }

    // The model's collective latency beyond one node and its GPU speed spread are measurements, not fits on
    // throughput: the compiled-in values are what the data in tests/data/validation give (5e-4 relative: the
    // four significant digits they are written with).
    void measuredTermsAreWhatTheirDataGive() {
        const std::string dir = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString();
        const PerfCalibration defaults;
        const CollectiveLatencyFit latency = fitCollectiveLatency(dir);
        QCOMPARE(latency.rows.size(), size_t(5));
        QVERIFY(std::abs(latency.networkS / defaults.networkLatencyS - 1.0) < 5e-4);
        QVERIFY(std::abs(latency.perDoublingS / defaults.networkLatencyPerDoublingS - 1.0) < 5e-4);
        // The line fits the four multi-node runs to within a microsecond (of 33 to 62 us).
        QVERIFY(latency.largestResidualS < 1e-6);
        const GpuSpeedSpread spread = measureGpuSpeedSpread(dir);
        QCOMPARE(spread.gpus, 219);
        QCOMPARE(spread.nodesLeftOut, 2); // the two nodes at 2.1-2.2x the median
        QVERIFY(std::abs(spread.spread / defaults.gpuSpeedSpread - 1.0) < 5e-4);
        // The expert dispatch and combine: DeepEP's H800 rows, per link (5e-4 relative, as above).
        const ExpertAllToAllFit allToAll = fitExpertAllToAll(dir);
        QCOMPARE(allToAll.rows.size(), size_t(5));
        QVERIFY(std::abs(allToAll.intraNodeEfficiency / defaults.intraNodeAllToAllEfficiency - 1.0) < 5e-4);
        QVERIFY(std::abs(allToAll.interNodeEfficiency / defaults.interNodeAllToAllEfficiency - 1.0) < 5e-4);
        // The Hopper and CDNA 3 families take the A100 fleet's spread (no H100 fleet measurement found).
        QCOMPARE(familyCalibration(CalibrationFamily::Hopper).gpuSpeedSpread, defaults.gpuSpeedSpread);
    }

    // SC21 Table 1 runs the configurations NVIDIA's reproduction script gives (no rule), and Table 2 is held
    // out: calibration never loads it, and its check reports each model's published drop (175B: 153 -> 141
    // TFLOP/s per GPU is 7.8 %; 530B: 171 -> 159 is 7.0 %; to the 0.05-point rounding of three-digit
    // figures).
    void sc21ConfigurationsArePublishedAndTable2IsHeldOut() {
        for (const ValidationRow& row : m_rows) {
            if (row.source != ValidationSource::Sc21)
                continue;
            QVERIFY(!row.chooseInterleave);
            if (row.publishedParamsBillion > 1000.0)
                QCOMPARE(row.config.interleave, 1); // the 1T run does not interleave
            if (row.publishedParamsBillion > 500.0 && row.publishedParamsBillion < 600.0)
                QCOMPARE(row.config.interleave, 3); // 105 layers, p 35, one layer per virtual stage
            QVERIFY(row.job.model.hidden != 12288 || row.job.model.layers != 96); // no 175B row
            QVERIFY(row.job.globalBatch != 2240); // no Table 2 row of the 530B model
        }
        const std::string dir = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString();
        const reports::StrongScalingCheck check = reports::checkStrongScaling(dir, PerfCalibration{});
        QCOMPARE(check.series.size(), size_t(2));
        const double publishedDrops[] = {1.0 - 141.0 / 153.0, 1.0 - 159.0 / 171.0};
        // 96 layers on 12 stages split evenly with v 1, 2, 4 and 8; 105 on 35 with v 1 and 3. m is a
        // multiple of p on every row, so each of them is held on every row.
        const std::vector<int> legalInterleaves[] = {{1, 2, 4, 8}, {1, 3}};
        for (size_t i = 0; i < check.series.size(); ++i) {
            const reports::StrongScalingSeries& series = check.series[i];
            QCOMPARE(series.rows.size(), size_t(3));
            QVERIFY2(std::abs(series.measuredDrop - publishedDrops[i]) < 5e-4,
                     qPrintable(QString::number(series.measuredDrop)));
            QCOMPARE(series.heldDrops.size(), legalInterleaves[i].size());
            // The schedule is published nowhere: the measured drop lies between the readings, above the most
            // interleaved one (the smallest bubble) and below plain 1F1B (the largest), each of which the
            // report states with its distance (docs/DECISIONS.md, "Table 2 reads as plain 1F1B").
            const reports::HeldInterleaveDrop* plain = series.heldDropAt(1);
            QVERIFY(plain != nullptr);
            QVERIFY2(series.measuredDrop < plain->drop, qPrintable(QString::number(plain->drop)));
            QVERIFY2(series.measuredDrop > series.heldDrops.back().drop,
                     qPrintable(QString::number(series.heldDrops.back().drop)));
            for (const reports::StrongScalingRow& row : series.rows) {
                QVERIFY(row.row.chooseInterleave && row.row.microBatchPublished);
                QCOMPARE(row.chosen.microBatch, 1);
                QCOMPARE(row.held.size(), legalInterleaves[i].size());
                for (size_t k = 0; k < row.held.size(); ++k)
                    QCOMPARE(row.held[k].interleave, legalInterleaves[i][k]);
                // The rule picks the fastest of the held ones.
                for (const reports::HeldInterleaveStep& held : row.held)
                    QVERIFY(held.stepS >= row.ruleS);
                QVERIFY(std::any_of(row.held.begin(), row.held.end(),
                                    [&row](const reports::HeldInterleaveStep& h) {
                                        return h.interleave == row.chosen.interleave && h.stepS == row.ruleS;
                                    }));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
