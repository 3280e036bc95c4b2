// SPDX-License-Identifier: MIT
#include "domain/PerfCalibration.h"
#include "reports/PublishedRunCheck.h"

#include <QTest>
#include <cmath>

using namespace carbon3d;
using namespace carbon3d::reports;

class TestPublishedRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // BLOOM-176B ran 70 layers on 12 stages; the model used to refuse that layout (issue 17).
    void bloomRunsItsRealLayout() {
        const PublishedRunCheck check = checkPublishedRun(bloom176b(), PerfCalibration{});
        QVERIFY2(check.estimate.feasible, infeasibilityText(check.estimate.reason));
        QCOMPARE(check.estimate.stages.first, 5);
        QCOMPARE(check.estimate.stages.middle, 6);
        QCOMPARE(check.estimate.stages.last, 5);
    }

    // The check's arithmetic, by hand from the estimate (1e-12: rounding only).
    void totalsFollowFromTheEstimate() {
        const PublishedRun& run = bloom176b();
        const PublishedRunCheck check = checkPublishedRun(run, PerfCalibration{});
        const PerfEstimate& e = check.estimate;
        const double gpus = run.dp * run.tp * run.pp;
        QVERIFY(std::abs(check.productiveGpuHours * 3600.0 / gpus * e.tokensPerS / run.tokens - 1.0) < 1e-12);
        QVERIFY(std::abs(check.gpuEnergyKwh / (check.productiveGpuHours * e.power.gpuAverageW / 1000.0) -
                         1.0) < 1e-12);
        QVERIFY(
            std::abs(check.gpuEnergyAtAllocatedKwh / (run.allocatedGpuHours * e.power.gpuAverageW / 1000.0) -
                     1.0) < 1e-12);
        // The published energy is hours x TDP; the model's GPUs never average above the limit.
        QVERIFY(e.power.gpuAverageW <= run.publishedEnergyBoardW);
        QVERIFY(
            std::abs(run.allocatedGpuHours * run.publishedEnergyBoardW / 1000.0 / run.publishedGpuEnergyKwh -
                     1.0) < 1e-5); // 1e-5: the published kWh is rounded to the unit
    }
};

QTEST_GUILESS_MAIN(TestPublishedRun)
#include "tst_publishedrun.moc"
