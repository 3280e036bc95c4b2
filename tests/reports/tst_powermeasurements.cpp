// SPDX-License-Identifier: MIT
// Power against published measurements (issue 39, item 6; tools/reports/PowerMeasurements): the H100 node
// presets hold the figure derived from the measured peak, every measurement is predicted from its job, and
// the held-out node measurement stays within a stated band.
#include "config/Presets.h"
#include "reports/PowerMeasurements.h"

#include <QTest>

using namespace carbon3d;
using namespace carbon3d::reports;

class TestPowerMeasurements : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // dgx-h100 and dgx-h200 (same chassis, GPUs and limit) charge a node at load and idle what the measured
    // peak leaves outside eight GPUs at their limit: typed into the presets, derived here.
    void hopperNodesHoldTheMeasuredOverhead() {
        for (const char* id : {"dgx-h100", "dgx-h200"}) {
            const std::optional<ClusterProfile> cluster = findClusterPreset(id);
            QVERIFY(cluster.has_value());
            QCOMPARE(cluster->nodeOverheadW, measuredH100NodeOverheadW());
            QCOMPARE(cluster->nodeIdleW, measuredH100NodeOverheadW());
        }
    }

    void everyMeasurementIsPredictedFromItsJob() {
        const std::vector<PowerCheck> checks = checkPowerMeasurements();
        QCOMPARE(checks.size(), powerMeasurements().size());
        for (const PowerCheck& c : checks) {
            const ClusterProfile cluster = *findClusterPreset(c.measurement.cluster);
            QVERIFY2(!c.configuration.empty(), c.measurement.what.c_str());
            QVERIFY(c.gpuW > cluster.accelerator.idleW && c.gpuW <= cluster.accelerator.tdpW);
            QVERIFY(c.modelW > 0.0);
            qInfo("%s: model %.0f W, measured %.0f W, ratio %.3f", c.measurement.what.c_str(), c.modelW,
                  c.measurement.measuredW, c.ratio());
        }
    }

    // The typical node power is held out: nothing was set from it. The model must stay within 15 % of it;
    // the figure is a rounded share of a rating (76 % of 10.2 kW) and the run's batch and stack are unknown,
    // so a closer band would test the guesses, not the model.
    void theHeldOutNodeMeasurementIsWithinItsBand() {
        for (const PowerCheck& c : checkPowerMeasurements()) {
            if (!c.measurement.calibrates.empty() || c.measurement.scope != PowerScope::NodeWall)
                continue;
            QVERIFY2(std::abs(c.ratio() - 1.0) < 0.15, c.measurement.what.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestPowerMeasurements)
#include "tst_powermeasurements.moc"
