// SPDX-License-Identifier: MIT
// The modelling-option table: every field reads back what it wrote, the older CLI spellings find the same
// field, and values are checked by the declared kind and range.
#include "domain/ModellingFields.h"

#include <QTest>
#include <set>

using namespace carbon3d;

class TstModellingFields : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyFieldRoundTripsThroughItsText() {
        ModellingOptions changed;
        changed.backfill = 1.0;
        changed.batchScaling = ModellingOptions::BatchScaling::PerReplicaConstant;
        changed.reconfigurationSeconds = 600.5;
        changed.preemptionSeconds = 0.25;
        changed.migrationSeconds = 7200;
        changed.resizeSeconds = 45;
        changed.overheadPowerFraction = 0.3;
        changed.deadlineMode = ModellingOptions::DeadlineMode::Soft;
        changed.softDeadlinePenaltyGPerHour = 1e6;
        changed.decisionIntervalSeconds = 300;
        changed.powerLimitsW = {150, 212.5, 300};
        changed.interruptionsPerGpuHour = 1.5e-5;
        changed.restartSeconds = 900;
        changed.checkpointIntervalSeconds = 1800;
        changed.evaluationFraction = 0.02;
        changed.gpuCapacity = ModellingOptions::GpuCapacity::Spot;
        changed.gpuPriceUsdPerHour = 2.5;
        changed.spotPreemptionsPerGpuHour = 1e-4;
        changed.spotSeed = 7;
        changed.electricityUsdPerKwh = 0.12;
        changed.carbonPriceUsdPerT = 80;
        changed.overheadPowerW = 600;
        std::set<std::string> keys;
        for (const ModellingField& field : modellingFields()) {
            QVERIFY2(keys.insert(field.key).second, field.key.c_str());
            const std::string text = field.get(changed);
            QVERIFY2(isValidModellingValue(field, text), (field.key + " = " + text).c_str());
            ModellingOptions copy;
            field.set(copy, text);
            QCOMPARE(field.get(copy), text);
            // The changed value differs from the default, so a field that ignored its member would fail.
            QVERIFY2(field.get(ModellingOptions{}) != text, field.key.c_str());
        }
        QCOMPARE(modellingRecord(changed).at("power_limits_w"), std::string("150,212.5,300"));
        QCOMPARE(modellingRecord(changed).at("reconfiguration_seconds"), std::string("600.5"));
    }

    void olderSpellingsFindTheSameField() {
        QCOMPARE(findModellingField("reconfiguration_s"), findModellingField("reconfiguration_seconds"));
        QCOMPARE(findModellingField("soft_penalty_g_per_h"),
                 findModellingField("soft_deadline_penalty_g_per_hour"));
        QVERIFY(findModellingField("reconfiguration_seconds") != nullptr);
        QVERIFY(findModellingField("reconfiguration") == nullptr);
    }

    void valuesAreCheckedByKindAndRange() {
        const ModellingField& seconds = *findModellingField("preemption_seconds");
        QVERIFY(isValidModellingValue(seconds, "0"));
        QVERIFY(isValidModellingValue(seconds, "86400"));
        QVERIFY(!isValidModellingValue(seconds, "86400.5"));
        QVERIFY(!isValidModellingValue(seconds, "-1"));
        QVERIFY(!isValidModellingValue(seconds, "600,5")); // a decimal comma is not a number here
        QVERIFY(!isValidModellingValue(seconds, "nan"));
        QCOMPARE(expectedModellingValue(seconds), std::string("a number in [0, 86400] s"));
        const ModellingField& backfill = *findModellingField("backfill");
        QVERIFY(isValidModellingValue(backfill, "0.5"));
        QVERIFY(!isValidModellingValue(backfill, "1.5"));
        QCOMPARE(expectedModellingValue(backfill), std::string("a number in [0, 1]"));
        const ModellingField& batch = *findModellingField("batch_scaling");
        QVERIFY(isValidModellingValue(batch, "global-constant"));
        QVERIFY(!isValidModellingValue(batch, "Global-Constant"));
        QCOMPARE(expectedModellingValue(batch), std::string("global-constant or per-replica-constant"));
        // A retired key is refused with what replaced it.
        QVERIFY(findModellingField("parked_gpus") == nullptr);
        QVERIFY(retiredModellingKey("parked_gpus").find("backfill") != std::string::npos);
        const ModellingField& limits = *findModellingField("power_limits_w");
        QVERIFY(isValidModellingValue(limits, "")); // none: the default limit only
        QVERIFY(isValidModellingValue(limits, "200,250"));
        QVERIFY(!isValidModellingValue(limits, "200,,250"));
        QVERIFY(!isValidModellingValue(limits, "5"));
        // 0 (decide at the trace's slots) or at least a minute: what the engine accepts (issue 40, item 10).
        const ModellingField& interval = *findModellingField("decision_interval_seconds");
        QVERIFY(isValidModellingValue(interval, "0"));
        QVERIFY(isValidModellingValue(interval, "60"));
        QVERIFY(!isValidModellingValue(interval, "1"));
        QVERIFY(!isValidModellingValue(interval, "59.9"));
        QCOMPARE(expectedModellingValue(interval), std::string("0 or a number in [60, 2592000] s"));
    }
};

QTEST_GUILESS_MAIN(TstModellingFields)
#include "tst_modellingfields.moc"
