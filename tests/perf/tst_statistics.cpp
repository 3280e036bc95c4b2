// SPDX-License-Identifier: MIT
#include "validation/Statistics.h"

#include <QTest>
#include <cmath>

using namespace carbon3d;

// The error and rank statistics of docs/VALIDATION.md on hand-computed cases.
class TestStatistics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void errorStatsOfThreeRows() {
        // Errors (pred - meas) / meas: (11 - 10) / 10 = +0.1, (18 - 20) / 20 = -0.1, (45 - 40) / 40 = +0.125.
        // MAPE (0.1 + 0.1 + 0.125) / 3 = 0.108333; median 0.1; max 0.125; mean signed 0.125 / 3 = 0.041667.
        const ErrorStats s = errorStats({11.0, 18.0, 45.0}, {10.0, 20.0, 40.0});
        QCOMPARE(s.count, 3);
        QVERIFY(std::abs(s.mape - 0.325 / 3) < 1e-12);
        QVERIFY(std::abs(s.medianAbsError - 0.1) < 1e-12);
        QVERIFY(std::abs(s.maxAbsError - 0.125) < 1e-12);
        QVERIFY(std::abs(s.meanSignedError - 0.125 / 3) < 1e-12);
    }

    void spearmanWithTies() {
        // Ranks (1, 2, 3) against (1, 3, 2): deviations from the mean rank 2 are (-1, 0, 1) and (-1, 1, 0);
        // sum of products 1, sums of squares 2 and 2: rho = 1 / 2 = 0.5.
        QVERIFY(std::abs(spearman({1.0, 2.0, 3.0}, {1.0, 3.0, 2.0}) - 0.5) < 1e-12);
        // Ties take their average rank: (1, 3, 3) ranks as (1, 2.5, 2.5), deviations (-1, 0.5, 0.5) against
        // (-1, 1, 0): products sum to 1.5, squares to 1.5 and 2: rho = 1.5 / sqrt(3) = 0.866025.
        QVERIFY(std::abs(spearman({1.0, 3.0, 3.0}, {1.0, 3.0, 2.0}) - 1.5 / std::sqrt(3.0)) < 1e-12);
        QCOMPARE(spearman({1.0, 1.0, 1.0}, {1.0, 2.0, 3.0}), 0.0); // one side constant: no correlation
    }

    void spearmanIfRowExactReplacesOneRowAtATime() {
        // predicted (1, 2, 3), measured (1, 3, 2): row 0 is already exact (0.5 as above); row 1 exact gives
        // (1, 3, 3), row 2 exact gives (1, 2, 2): both rank as (1, 2.5, 2.5) against (1, 3, 2), 0.866025.
        const std::vector<double> rho = spearmanIfRowExact({1.0, 2.0, 3.0}, {1.0, 3.0, 2.0});
        QCOMPARE(rho.size(), size_t(3));
        QVERIFY(std::abs(rho[0] - 0.5) < 1e-12);
        QVERIFY(std::abs(rho[1] - 1.5 / std::sqrt(3.0)) < 1e-12);
        QVERIFY(std::abs(rho[2] - 1.5 / std::sqrt(3.0)) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
