// SPDX-License-Identifier: MIT
// Power against published measurements (issue 39, item 6; tools/reports/PowerMeasurements): the presets hold
// the figures derived from the measurements that set them, every measurement is predicted from its job, and
// the held-out ones stay within a stated band.
#include "config/ClusterProfileJson.h"
#include "config/Presets.h"
#include "domain/Json.h"
#include "reports/PowerMeasurements.h"

#include <QTest>

using namespace carbon3d;
using namespace carbon3d::reports;

namespace {

// The preset's value at a dotted key ("accelerator.idle_w") as its file would hold it.
double presetValue(const ClusterProfile& cluster, const std::string& key) {
    const JsonValue json = toJson(cluster);
    const size_t dot = key.find('.');
    const JsonValue* value =
        dot == std::string::npos ? json.find(key) : json.find(key.substr(0, dot))->find(key.substr(dot + 1));
    return value == nullptr ? -1.0 : value->toNumber();
}

} // namespace

class TestPowerMeasurements : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every figure a preset takes from a measurement is the measurement's, typed into the preset file and
    // derived here (the H100 node's overhead from its measured peak, the idle and waiting boards as read).
    void presetsHoldTheMeasuredFigures() {
        for (const PresetFigure& figure : measuredPresetFigures()) {
            const std::optional<ClusterProfile> cluster = findClusterPreset(figure.cluster);
            QVERIFY2(cluster.has_value(), figure.cluster.c_str());
            QVERIFY2(presetValue(*cluster, figure.key) == figure.value,
                     (figure.cluster + " " + figure.key).c_str());
        }
    }

    void everyMeasurementIsPredictedFromItsJob() {
        const std::vector<PowerCheck> checks = checkPowerMeasurements();
        QCOMPARE(checks.size(), powerMeasurements().size());
        for (const PowerCheck& c : checks) {
            const ClusterProfile cluster = *findClusterPreset(c.measurement.cluster);
            QVERIFY(c.gpuW >= cluster.accelerator.idleW && c.gpuW <= cluster.accelerator.tdpW);
            QVERIFY(c.modelW > 0.0);
            if (!isBoardReading(c.measurement.kind))
                QVERIFY2(!c.configuration.empty() && c.gpuW > cluster.accelerator.waitW,
                         c.measurement.what.c_str());
            qInfo("%s: model %.1f W, measured %.1f W, ratio %.3f", c.measurement.what.c_str(), c.modelW,
                  c.measurement.measuredW, c.ratio());
        }
    }

    // Nothing was set from the held-out rows; each must stay within a band that says what the comparison
    // cannot know. A node at the wall: 15 %, the reading is a rounded share of a rating (76 % of 10.2 kW) and
    // the run's batch was not published. One GPU over a long run: 25 %, the run's batch and configuration
    // were not published (the table shows the model's spread over half and twice the assumed batch) and its
    // 8 days include what the steady-state model leaves out (restarts, evaluation, checkpoints). A waiting
    // board: 10 %, the same state read by another team on another board of the family.
    static double bandOf(MeasuredPower kind) {
        switch (kind) {
        case MeasuredPower::NodeWallTraining:
            return 0.15;
        case MeasuredPower::GpuBoardTraining:
            return 0.25;
        case MeasuredPower::GpuBoardIdle:
        case MeasuredPower::GpuBoardWaiting:
            return 0.10;
        }
        return 0.0;
    }

    void heldOutMeasurementsAreWithinTheirBands() {
        int heldOut = 0;
        for (const PowerCheck& c : checkPowerMeasurements()) {
            if (!c.measurement.calibrates.empty())
                continue;
            ++heldOut;
            QVERIFY2(std::abs(c.ratio() - 1.0) < bandOf(c.measurement.kind), c.measurement.what.c_str());
        }
        QVERIFY(heldOut >= 3);
    }
};

QTEST_GUILESS_MAIN(TestPowerMeasurements)
#include "tst_powermeasurements.moc"
