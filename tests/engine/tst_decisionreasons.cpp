// SPDX-License-Identifier: MIT
// Issue 15, item 7: the Results page's "why" panel shows, for the moment under the crosshair, the reason
// each policy gave in its own terms. This runs every policy of the catalogue on a bundled three-region
// lesson with reasons asked for and checks that each decision has one, that asking changes no decision,
// and that what a reason says agrees with what the run then did.
#include "config/ScenarioJson.h"
#include "domain/RunSeries.h"
#include "engine/PolicyRegistry.h"
#include "runner/ScenarioRunner.h"

#include <QTest>

using namespace carbon3d;

namespace {

const PreparedScenario& windLesson() {
    static const PreparedScenario prepared = prepareScenario(
        loadScenario(CARBON3D_SOURCE_DIR "/sample_data/scenarios/learn-follow-the-wind-multi-region.json"));
    return prepared;
}

RunResult explained(const PolicySpec& policy) {
    SimulationHooks hooks;
    hooks.explainDecisions = true;
    return runPolicy(windLesson(), policy, hooks);
}

bool says(const DecisionNote& note, const char* words) {
    return note.reason.find(words) != std::string::npos;
}

// What the run did in the interval that starts at a decision (overheads first: the state they lead to).
const IntervalRecord& intervalFrom(const RunResult& run, UtcSeconds at) {
    const IntervalRecord* record = intervalAt(run, static_cast<double>(at));
    if (record == nullptr)
        throw std::runtime_error("no interval at a decision time");
    return *record;
}

} // namespace

class TestDecisionReasons : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPolicyExplainsEveryDecision_data() {
        QTest::addColumn<QString>("policy");
        for (const PolicyInfo& info : policyCatalog())
            QTest::newRow(info.name.c_str()) << QString::fromStdString(info.name);
    }
    void everyPolicyExplainsEveryDecision() {
        QFETCH(QString, policy);
        const RunResult run = explained(PolicySpec{policy.toStdString(), {}});
        QVERIFY(!run.decisions.empty());
        UtcSeconds previous = run.startUtc - 1;
        for (const DecisionNote& note : run.decisions) {
            QVERIFY2(!note.reason.empty(), formatIsoUtc(note.atUtc).c_str());
            QVERIFY(note.atUtc > previous); // one note per decision point, in time order
            previous = note.atUtc;
        }
        QCOMPARE(run.decisions.front().atUtc, run.startUtc);
    }

    // A policy planned for cost plans in thousandths of a dollar (engine/Objective.h); its reasons say
    // dollars, never grams, and a carbon plan's say grams.
    void reasonsSpeakTheObjectivesUnits_data() {
        QTest::addColumn<QString>("policy");
        for (const PolicyInfo& info : policyCatalog()) {
            for (const PolicyOptionInfo& option : info.options) {
                if (option.key == "objective")
                    QTest::newRow(info.name.c_str()) << QString::fromStdString(info.name);
            }
        }
    }
    void reasonsSpeakTheObjectivesUnits() {
        QFETCH(QString, policy);
        const RunResult cost = explained(PolicySpec{policy.toStdString(), {{"objective", "cost"}}});
        bool namesCost = false;
        for (const DecisionNote& note : cost.decisions) {
            QVERIFY2(!says(note, "g/kWh") && !says(note, " kg ") && !says(note, "g per million"),
                     note.reason.c_str());
            namesCost = namesCost || says(note, "USD") || says(note, "cost");
        }
        QVERIFY(namesCost);
        const RunResult carbon = explained(PolicySpec{policy.toStdString(), {}});
        for (const DecisionNote& note : carbon.decisions)
            QVERIFY2(!says(note, "USD"), note.reason.c_str());
    }

    // Reasons are for people: asking for them must not change a decision or a number.
    void explainingChangesNothing_data() {
        QTest::addColumn<QString>("policy");
        for (const char* name : {"suspend-resume", "dynamic-3d", "multi-region", "wait-awhile-interruptible"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void explainingChangesNothing() {
        QFETCH(QString, policy);
        const PolicySpec spec{policy.toStdString(), {}};
        const RunResult quiet = runPolicy(windLesson(), spec);
        const RunResult told = explained(spec);
        QVERIFY(quiet.decisions.empty());
        QCOMPARE(told.series.size(), quiet.series.size());
        for (std::size_t i = 0; i < quiet.series.size(); ++i) {
            QCOMPARE(told.series[i].start, quiet.series[i].start);
            QCOMPARE(told.series[i].activity, quiet.series[i].activity);
            QCOMPARE(told.series[i].gpusActive, quiet.series[i].gpusActive);
            QCOMPARE(told.series[i].regionIndex, quiet.series[i].regionIndex);
        }
        QCOMPARE(told.metrics.totalG, quiet.metrics.totalG); // the same arithmetic: exactly equal
    }

    // suspend-resume's reason compares the forecast with its threshold and says "runs" or "pauses": the
    // interval that follows must do what it said.
    void suspendResumeDoesWhatItSays() {
        const RunResult run = explained(PolicySpec{"suspend-resume", {}});
        int pauses = 0;
        for (const DecisionNote& note : run.decisions) {
            QVERIFY(says(note, "threshold"));
            const IntervalRecord& next = intervalFrom(run, note.atUtc);
            const bool stopped =
                next.activity == IntervalActivity::Paused || next.activity == IntervalActivity::Waiting;
            // A pause the deadline cannot afford is overridden, and the note says so.
            const bool saysPause = says(note, ": pauses") && !says(note, "overridden by the engine");
            QVERIFY2(saysPause == stopped, note.reason.c_str());
            pauses += stopped ? 1 : 0;
        }
        QVERIFY(pauses > 0); // the lesson's grids swing: the threshold bites
    }

    // multi-region names the region it runs in and the mean forecast of every region it compared.
    void multiRegionNamesItsRegions() {
        const RunResult run = explained(PolicySpec{"multi-region", {{"migration", "checkpoint"}}});
        const DecisionNote& first = run.decisions.front();
        for (const char* region : {"GB", "DE", "FR"})
            QVERIFY2(says(first, region), first.reason.c_str());
        // The lesson: the first move is free, so it starts in France.
        QVERIFY2(says(first, "in FR;"), first.reason.c_str());
        QCOMPARE(intervalFrom(run, first.atUtc).regionIndex, 2);
    }
};

QTEST_GUILESS_MAIN(TestDecisionReasons)
#include "tst_decisionreasons.moc"
