// SPDX-License-Identifier: MIT
#include "domain/InputError.h"
#include "perf/Calibration.h"
#include "perf/PublishedThroughput.h"
#include "perf/RankCeiling.h"
#include "perf/ResidualTransfer.h"
#include "perf/Statistics.h"
#include "perf/ValidationSet.h"
#include "reports/ValidationPredictions.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <fstream>

using namespace carbon3d;
using reports::GroupSeries;

// Recomputes the validation statistics of docs/VALIDATION.md with the default (fitted) calibration and checks
// the done-when targets of the performance-model issue. Where a target is not reached the test pins the
// achieved figure with a margin and marks the target as an expected failure, so a regression still fails.
// The predictions come from the report's own prediction pass (core/reports/ValidationPredictions.h), so the
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
        // Targets: median |error| <= 8 %, max <= 15 % (achieved 3.0 % and 5.1 %).
        QVERIFY2(stats.medianAbsError <= 0.08, qPrintable(QString::number(stats.medianAbsError)));
        QVERIFY2(stats.maxAbsError <= 0.15, qPrintable(QString::number(stats.maxAbsError)));
    }

    void vtrainMultiNode() {
        const ErrorStats stats = m_predictions.set(ValidationSource::VtrainMulti).errors();
        // Target MAPE <= 12 % (achieved 8.5 %; vTrain's own simulator: 14.73 %).
        QVERIFY2(stats.mape <= 0.12, qPrintable(QString::number(stats.mape)));
    }

    void vtrainMultiNodeRanks_data() {
        QTest::addColumn<QString>("group");
        QTest::addColumn<double>("floor");
        QTest::addColumn<bool>("targetMet");
        // Achieved Spearman: 3.6B 0.962, 175B 0.889 (target 0.8 met); 18.4B 0.764 and 39.1B 0.675 fall short
        // of 0.8 (docs/VALIDATION.md, "what the model cannot explain"; residualOrderIsGroupSpecific below
        // keeps the evidence for that section true). Floors are the achieved values - 0.05 so a regression
        // still fails.
        QTest::newRow("3.6B") << QStringLiteral("3.6B on 64") << 0.8 << true;
        QTest::newRow("175B") << QStringLiteral("175B on 512") << 0.8 << true;
        QTest::newRow("18.4B") << QStringLiteral("18.4B on 256") << 0.71 << false;
        QTest::newRow("39.1B") << QStringLiteral("39.1B on 512") << 0.62 << false;
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
        // Target MAPE <= 15 % (achieved 8.2 %; vTrain's own simulator: 8.37 %).
        QVERIFY2(stats.mape <= 0.15, qPrintable(QString::number(stats.mape)));
    }

    void defaultsAreTheFittedOptimum() {
        // The defaults are what `carbon3d-cli calibrate` wrote: a short rerun from them must not find a loss
        // more than 1 % lower (1 %: Nelder-Mead termination tolerance, not a tuned constant).
        const PerfCalibration defaults;
        const CalibrationResult rerun = calibrate(m_rows, defaults, 60);
        QVERIFY2(rerun.loss >= 0.99 * rerun.initialLoss,
                 qPrintable(QStringLiteral("%1 -> %2").arg(rerun.initialLoss).arg(rerun.loss)));
    }

    void publishedThroughputRowsLoadAndBadRowsAreNamed() {
        const std::string dir = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString();
        const auto rows = loadPublishedThroughput(dir);
        QCOMPARE(rows.size(), size_t(51)); // hopper/README.md: 34 calibration and 17 held-out rows
        QCOMPARE(std::count_if(rows.begin(), rows.end(),
                               [](const auto& r) { return r.role == ThroughputRole::HeldOut; }),
                 17L);
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

    void fp8CastIsFittedOnCalibrationRowsOnly() {
        const auto hopper = loadPublishedThroughput(
            QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString());
        // The compiled-in value is the fit's (to the 4 significant digits `calibrate` prints).
        const PerfCalibration defaults;
        const PerfCalibration refit = fitFp8Cast(hopper, defaults);
        QVERIFY2(std::abs(refit.fp8CastBytesPerElement - defaults.fp8CastBytesPerElement) < 5e-3,
                 qPrintable(QString::number(refit.fp8CastBytesPerElement)));
        // Held-out rows cannot move it: changing every held-out measurement leaves the fit where it was.
        std::vector<PublishedThroughputRow> scrambled = hopper;
        for (PublishedThroughputRow& row : scrambled) {
            if (row.role == ThroughputRole::HeldOut)
                row.measured *= 3.0;
        }
        QCOMPARE(fitFp8Cast(scrambled, defaults).fp8CastBytesPerElement, refit.fp8CastBytesPerElement);
        // And the fitted term helps the rows it was fitted on (loss with it below the loss without).
        PerfCalibration without = defaults;
        without.fp8CastBytesPerElement = 0.0;
        QVERIFY(throughputLoss(hopper, Precision::FP8, defaults) <
                throughputLoss(hopper, Precision::FP8, without));
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
