// SPDX-License-Identifier: MIT
// Names that say what ran (domain/ScenarioName.h): a bundled scenario's name once stayed "... in
// California, June 2022" on runs of an Irish trace.
#include "domain/ScenarioName.h"

#include <QTest>

using namespace carbon3d;

namespace {

Scenario bundledLike() {
    Scenario s;
    s.name = "GPT-3 175B on 1,024 A100s in California, June 2022";
    s.job.model.name = "GPT-3 175B";
    s.job.tokens = 120e9;
    s.gpus = 1024;
    s.cluster.name = "NVIDIA DGX A100 80GB";
    RegionSpec region;
    region.regionId = "US-CAL-CISO";
    s.regions = {region};
    s.startUtc = 1654041600; // 2022-06-01T00:00:00Z
    return s;
}

} // namespace

class TstScenarioName : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nameStaysWhileItIsTrue() {
        Scenario edited = bundledLike();
        edited.deadline.value = 1.0; // the name says nothing of the slack
        edited.startUtc += 3600;     // nor of the hour
        QCOMPARE(nameAfterEdits(bundledLike(), edited), bundledLike().name);
    }

    void nameFollowsWhatItDescribes_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expected");
        QTest::newRow("region")
            << "region"
            << "GPT-3 175B, 120 B tokens on 1024 x NVIDIA DGX A100 80GB in Ireland (IE) from 2022-06-01";
        QTest::newRow("start day")
            << "start"
            << "GPT-3 175B, 120 B tokens on 1024 x NVIDIA DGX A100 80GB in California (US-CAL-CISO) from "
               "2022-12-01";
        QTest::newRow("GPUs")
            << "gpus"
            << "GPT-3 175B, 120 B tokens on 512 x NVIDIA DGX A100 80GB in California (US-CAL-CISO) from "
               "2022-06-01";
    }
    void nameFollowsWhatItDescribes() {
        QFETCH(QString, change);
        QFETCH(QString, expected);
        Scenario edited = bundledLike();
        if (change == QLatin1String("region"))
            edited.regions.front().regionId = "IE";
        else if (change == QLatin1String("start"))
            edited.startUtc = 1669852800; // 2022-12-01T00:00:00Z
        else
            edited.gpus = 512;
        QCOMPARE(QString::fromStdString(nameAfterEdits(bundledLike(), edited)), expected);
    }

    // Issue 43, item 7: a saved scenario kept its lesson's description after the job or grid changed.
    void descriptionFollowsTheName() {
        Scenario original = bundledLike();
        original.description = "A lesson about California's solar valleys.";
        Scenario slack = original;
        slack.deadline.value = 1.0; // the name holds, so does the description
        QCOMPARE(descriptionAfterEdits(original, slack), original.description);
        Scenario moved = original;
        moved.regions.front().regionId = "IE";
        const std::string edited = descriptionAfterEdits(original, moved);
        QVERIFY(edited != original.description);
        QVERIFY2(edited.find("Edited from \"" + original.name + "\"") == 0, edited.c_str());
    }
};

QTEST_GUILESS_MAIN(TstScenarioName)
#include "tst_scenarioname.moc"
