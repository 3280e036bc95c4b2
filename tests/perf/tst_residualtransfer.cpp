// SPDX-License-Identifier: MIT
#include "validation/ResidualTransfer.h"

#include <QTest>
#include <cmath>

using namespace carbon3d;

// The shared-correction fit behind docs/VALIDATION.md's "does the error follow the configuration the same way
// in every group?" table, on synthetic groups whose error is a known function of (t, p, b).
class TestResidualTransfer : public QObject {
    Q_OBJECT

    // Three groups with their own offsets and one shared error law:
    // ln(measured / predicted) = offset + 0.1 ln t - 0.05 ln p + 0.02 ln t ln p.
    // Predicted times cycle through 10..16 s so that their order differs from the measured order.
    static std::vector<ResidualSample> synthetic(bool varyMicroBatch) {
        std::vector<ResidualSample> samples;
        const std::pair<const char*, double> groups[] = {{"A", 0.0}, {"B", 0.3}, {"C", -0.2}};
        int index = 0;
        for (const auto& [group, offset] : groups)
            for (int t : {1, 2, 4, 8})
                for (int p : {1, 2, 4})
                    for (int b : varyMicroBatch ? std::vector<int>{1, 2} : std::vector<int>{1}) {
                        ResidualSample s{group, ParallelConfig{.tp = t, .pp = p, .microBatch = b},
                                         10.0 + index++ % 7, 0.0};
                        const double lt = std::log(t), lp = std::log(p);
                        s.measuredS = s.predictedS * std::exp(offset + 0.1 * lt - 0.05 * lp + 0.02 * lt * lp);
                        samples.push_back(s);
                    }
        return samples;
    }

private Q_SLOTS:
    void featuresAreLogsAndTheirProducts() {
        const ResidualSample s{"g", ParallelConfig{.tp = 2, .pp = 4, .microBatch = 8}, 1.0, 1.0};
        const double l2 = std::log(2.0);
        // ln 2, ln 4 = 2 ln 2, ln 8 = 3 ln 2; products 2, 3 and 6 (ln 2)^2.
        const std::vector<double> pairwise = correctionFeatures(s, CorrectionTerms::Pairwise);
        const std::vector<double> expected{l2, 2 * l2, 3 * l2, 2 * l2 * l2, 3 * l2 * l2, 6 * l2 * l2};
        QCOMPARE(pairwise.size(), expected.size());
        for (size_t k = 0; k < expected.size(); ++k)
            QVERIFY(std::abs(pairwise[k] - expected[k]) < 1e-12);
        QCOMPARE(correctionFeatures(s, CorrectionTerms::Linear).size(), size_t(3));
    }

    void recoversTheSharedLawDespiteGroupOffsets() {
        const std::vector<ResidualSample> samples = synthetic(true);
        const std::vector<double> c = fitSharedCorrection(samples, CorrectionTerms::Pairwise);
        const std::vector<double> truth{0.1, -0.05, 0.0, 0.02, 0.0, 0.0};
        QCOMPARE(c.size(), truth.size());
        for (size_t k = 0; k < truth.size(); ++k) // 1e-9: exact data, only rounding in the decomposition
            QVERIFY2(std::abs(c[k] - truth[k]) < 1e-9, qPrintable(QString::number(c[k])));
        // The uncorrected predictions rank group A wrongly; the corrected ones rank it exactly.
        QVERIFY(correctedSpearman(samples, "A", CorrectionTerms::Pairwise, {}) < 0.9);
        // 1e-9: a tie broken by rounding would move a rank by half a place, far more than this.
        QVERIFY(correctedSpearman(samples, "A", CorrectionTerms::Pairwise, c) > 1.0 - 1e-9);
    }

    void aSharedLawSurvivesHoldingOutAGroup() {
        const std::vector<ResidualSample> samples = synthetic(true);
        for (const char* group : {"A", "B", "C"}) {
            const std::vector<double> c = fitSharedCorrection(samples, CorrectionTerms::Pairwise, group);
            QVERIFY(std::abs(c[0] - 0.1) < 1e-9);
            QVERIFY(correctedSpearman(samples, group, CorrectionTerms::Pairwise, c) > 1.0 - 1e-9);
        }
    }

    void aFeatureThatNeverVariesGetsNoWeight() {
        // b = 1 everywhere: ln b is a zero column; the minimum-norm solution leaves its coefficient at 0 and
        // still recovers the others (plain normal equations would be singular).
        const std::vector<double> c = fitSharedCorrection(synthetic(false), CorrectionTerms::Linear);
        QVERIFY(std::abs(c[2]) < 1e-12);
        QVERIFY(std::isfinite(c[0]) && std::isfinite(c[1]));
    }
};

QTEST_GUILESS_MAIN(TestResidualTransfer)
#include "tst_residualtransfer.moc"
