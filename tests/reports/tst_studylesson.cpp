// SPDX-License-Identifier: MIT
// The lesson "When does dynamic 3D parallelism pay?" (issue 39, item 4; tools/reports/StudyLesson): on a
// small study of the lesson's own job, every setting's comparison with the strongest simpler policy is
// consistent with the runs it came from, the oracle's settings never trail (dynamic-3d contains the simpler
// plans under a perfect forecast), the opened cell is a typical dynamic-3d run with parked GPUs released
// under the default forecast, and the text's verdict follows the numbers. The full study is the golden test
// golden_study_lesson (Release only: 4,704 runs).
#include "domain/InputError.h"
#include "domain/Json.h"
#include "reports/StudyLesson.h"
#include "study/StudyCells.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

using namespace carbon3d;
using namespace carbon3d::reports;

namespace {

const std::string kRoot = CARBON3D_SOURCE_DIR;
const std::string kTraces = kRoot + "/sample_data/traces";

// The lesson's study with its axes narrowed to one start and one grid and a shorter job (30 billion tokens:
// about a day on 64 GPUs), so that it runs in seconds under the sanitizers.
StudyDefinition smallLessonStudy(const std::string& policies) {
    const std::string file = kRoot + "/" + kStudyLessonFile;
    std::ifstream in(file);
    JsonValue json = parseJson(std::string(std::istreambuf_iterator<char>(in), {}), file);
    const std::string axes = R"({"gpus": [64, 1024], "start": ["2022-06-01T00:00:00Z"], "region": ["GB"],
        "parked_gpus": ["idle", "released"], "forecast": ["operational", "oracle"], "policy": )" +
                             policies + "}";
    JsonValue base = *json.find("base");
    JsonValue job = *base.find("job");
    job.insert("tokens", JsonValue::makeNumber(30e9));
    base.insert("job", job);
    json.insert("base", base);
    json.insert("axes", parseJson(axes, "axes"));
    return parseStudy(json, file, kTraces);
}

} // namespace

class TestStudyLesson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theComparisonFollowsTheRuns() {
        const StudyDefinition study = smallLessonStudy(
            R"(["static-max", "best-static", "wait-awhile", "suspend-resume", "dynamic-3d"])");
        const StudyLessonNumbers n = computeStudyLesson(study);
        QCOMPARE(n.cells, std::size_t{2 * 2 * 2 * 5});
        QCOMPARE(n.simpler, (std::vector<std::string>{"best-static", "wait-awhile", "suspend-resume"}));
        QCOMPARE(n.groups.size(), std::size_t{8});
        QCOMPARE(n.jobs.size(), std::size_t{2});
        // Scaled past its batch's efficient size the menu spreads more (docs/STUDIES.md).
        QVERIFY(n.jobs[0].spread >= 1.0);
        QVERIFY2(n.jobs[1].spread > n.jobs[0].spread, "1,024 GPUs spread no more than 64");
        for (const StudyLessonGroup& g : n.groups) {
            QCOMPARE(g.runs, std::size_t{1});
            // One run per setting: the lead is the two savings' difference, to rounding of a subtraction.
            QVERIFY(std::abs(g.leadMedian - (g.policyMedian - g.simplerMedian)) < 1e-12);
            QCOMPARE(g.ahead + g.behind <= 1, true);
            QCOMPARE(g.ahead == 1, g.leadMedian > 0.01);
            QCOMPARE(g.behind == 1, g.leadMedian < -0.01);
            QVERIFY(std::find(n.simpler.begin(), n.simpler.end(), g.usualStrongest) != n.simpler.end());
            // Under a perfect forecast dynamic-3d weighs every simpler plan and follows the least
            // (tst_invariants dynamicThreeDContainsTheSimplerPlans); 1e-9 of the baseline is rounding.
            if (g.forecast == "oracle")
                QVERIFY2(g.leadMedian > -1e-9, (g.gpus + " " + g.parked).c_str());
        }
        // The opened cell: dynamic-3d, parked GPUs released, the default forecast.
        const CellSetup opened = cellSetup(study, cellAt(study, n.openedCell));
        QCOMPARE(opened.policy.name, n.policy);
        QCOMPARE(opened.scenario.modelling.backfill, 1.0);
        QCOMPARE(opened.scenario.forecast.kind, n.defaultForecast);
        QCOMPARE(n.openedRegion, std::string("GB"));

        // The text says what the numbers decide.
        const JsonValue lesson =
            studyLessonScenario(study, n, kStudyLessonFile, kRoot + "/sample_data/scenarios");
        const std::string text = lesson.find("description")->toString();
        QVERIFY(text.find("A study of 40 runs") == 0);
        for (const StudyLessonJob& job : n.jobs) {
            const std::string verdict =
                reshapingPays(n, job.gpus) ? "Reshaping pays here" : "Reshaping does not pay";
            QVERIFY2(text.find(verdict) != std::string::npos, verdict.c_str());
        }
        std::size_t settings = 0; // one sentence per GPU count with parked GPUs released
        for (std::size_t at = text.find("GPUs " + n.policy + " saves a median"); at != std::string::npos;
             at = text.find("GPUs " + n.policy + " saves a median", at + 1))
            ++settings;
        QCOMPARE(settings, n.jobs.size());
        const std::string table = studyLessonTableMarkdown(n);
        QCOMPARE(std::count(table.begin(), table.end(), '\n'), std::ptrdiff_t{2 + 2 + 8});
    }

    void aStudyWithoutASimplerPolicyIsRefused() {
        const StudyDefinition study = smallLessonStudy(R"(["static-max", "dynamic-3d"])");
        QVERIFY_THROWS_EXCEPTION(InputError, computeStudyLesson(study));
    }
};

QTEST_GUILESS_MAIN(TestStudyLesson)
#include "tst_studylesson.moc"
