// SPDX-License-Identifier: MIT
// Studies (issue 16, docs/STUDIES.md): the study file's strict reading, the cells' expansion, a cell equal to
// simulating its own scenario, infeasible cells with their reason, shards that partition the cells, and the
// store's study tables (idempotent saves, reported conflicts, the export's columns).
#include "config/ConfigFiles.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "runner/ScenarioRunner.h"
#include "storage/ResultsStore.h"
#include "study/StudyCells.h"
#include "study/StudyFigures.h"
#include "study/StudyPlan.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"
#include "study/StudyStoreReading.h"
#include "study/StudyTable.h"
#include "study/StudyView.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>

using namespace carbon3d;

namespace {

const std::string kRoot = CARBON3D_SOURCE_DIR;
const std::string kTraces = kRoot + "/sample_data/traces";
const std::string kSmall = kRoot + "/tests/data/studies/small.json";
const std::string kBase = kRoot + "/sample_data/scenarios/learn-clean-hydro-sweden.json";

std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
    std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}

// The table's rows whose column `column` reads `value`.
StudyTable rowsWhere(const StudyTable& table, std::size_t column, const std::string& value) {
    StudyTable kept = table;
    kept.rows.clear();
    for (const StudyRow& row : table.rows)
        if (row.values[column] == value)
            kept.rows.push_back(row);
    return kept;
}

// The small study's 24 cells, run and saved in `store`; its id.
StudyId saveSmallStudy(ResultsStore& store) {
    const StudyDefinition study = loadStudy(kSmall, kTraces);
    const StudyId id = store.registerStudy(storedStudyOf(study));
    std::vector<StoredCell> cells;
    for (std::size_t i = 0; i < cellCount(study); ++i)
        cells.push_back(storedCellOf(study, runStudyCell(study, cellAt(study, i), false)));
    store.saveCells(id, cells);
    return id;
}

// A study whose "axes" object is `axes`, on line 5 of the file.
std::string studyText(const std::string& axes) {
    return "{\n  \"schema\": 1,\n  \"name\": \"t\",\n  \"base\": \"" + kBase + "\",\n  \"axes\": " + axes +
           "\n}\n";
}

double relativeDifference(double a, double b) {
    return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cellsAreTheCartesianProductInFileOrder() {
        const StudyDefinition study = loadStudy(kSmall, kTraces);
        QCOMPARE(cellCount(study), std::size_t(2 * 2 * 2 * 3));
        QCOMPARE(axisColumns(study), (std::vector<std::string>{"start", "region", "slack", "policy"}));
        // The last axis varies fastest, as nested loops in the file's order.
        QCOMPARE(cellValues(study, cellAt(study, 0)),
                 (std::vector<std::string>{"2022-03-01T00:00:00Z", "SE-SE3", "0.25", "static-max"}));
        QCOMPARE(cellValues(study, cellAt(study, 1)),
                 (std::vector<std::string>{"2022-03-01T00:00:00Z", "SE-SE3", "0.25", "dynamic-3d"}));
        QCOMPARE(cellValues(study, cellAt(study, 3)),
                 (std::vector<std::string>{"2022-03-01T00:00:00Z", "SE-SE3", "1", "static-max"}));
        QCOMPARE(cellValues(study, cellAt(study, 23)),
                 (std::vector<std::string>{"2022-03-02T00:00:00Z", "DE", "1", "oracle"}));
        // Hashes: one per cell, the same on every reading of the file.
        const StudyDefinition again = loadStudy(kSmall, kTraces);
        std::set<std::string> hashes;
        for (std::size_t i = 0; i < cellCount(study); ++i) {
            hashes.insert(cellAt(study, i).hash);
            QCOMPARE(cellAt(again, i).hash, cellAt(study, i).hash);
        }
        QCOMPARE(hashes.size(), cellCount(study));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, cellAt(study, 24));
    }

    // A changed input changes the hashes of the cells it touches, and only the study's when it is the base.
    void hashesFollowTheInputs() {
        QTemporaryDir dir;
        const StudyDefinition one = parseStudy(
            parseJson(studyText(R"({"slack": [0.25, 1.0], "policy": ["static-max"]})"), "a"), "a", kTraces);
        const StudyDefinition other = parseStudy(
            parseJson(studyText(R"({"slack": [0.25, 2.0], "policy": ["static-max"]})"), "b"), "b", kTraces);
        QCOMPARE(cellAt(one, 0).hash, cellAt(other, 0).hash); // slack 0.25 in both
        QVERIFY(cellAt(one, 1).hash != cellAt(other, 1).hash);
        QVERIFY(one.hash != other.hash);
    }

    void withoutAPolicyAxisTheBasePoliciesAreOne() {
        const StudyDefinition study =
            parseStudy(parseJson(studyText(R"({"slack": [0.5]})"), "s"), "s", kTraces);
        QCOMPARE(study.axes.back().key, std::string("policy"));
        QCOMPARE(cellCount(study), loadScenario(kBase).policies.size());
    }

    void malformedStudiesNameFileLineAndProblem_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("problem");
        const auto axes = [](const std::string& json) { return QString::fromStdString(studyText(json)); };
        QTest::newRow("not JSON") << QStringLiteral("{\n  \"schema\": 1,\n  \"name\": \n") << 4
                                  << QStringLiteral("expected");
        QTest::newRow("no schema") << QStringLiteral(
                                          "{\n  \"name\": \"t\", \"base\": \"x\", \"axes\": {}\n}\n")
                                   << 1 << QStringLiteral("schema");
        QTest::newRow("newer schema")
            << QStringLiteral("{\n  \"schema\": 9,\n  \"name\": \"t\"\n}\n") << 2 << QStringLiteral("schema");
        QTest::newRow("no base") << QStringLiteral(
                                        "{\n  \"schema\": 1,\n  \"name\": \"t\",\n  \"axes\": {}\n}\n")
                                 << 1 << QStringLiteral("base");
        QTest::newRow("base of the wrong type")
            << QStringLiteral("{\n  \"schema\": 1,\n  \"name\": \"t\",\n  \"base\": 7,\n  \"axes\": {}\n}\n")
            << 4 << QStringLiteral("scenario file path or an inline scenario");
        QTest::newRow("unknown axis") << axes(R"({"regoin": ["DE"]})") << 5 << QStringLiteral("region");
        QTest::newRow("empty axis") << axes(R"({"slack": []})") << 5 << QStringLiteral("no values");
        QTest::newRow("axis not a list")
            << axes(R"({"slack": 0.5})") << 5 << QStringLiteral("list of values");
        QTest::newRow("slack out of range")
            << axes(R"({"slack": [-1]})") << 5 << QStringLiteral("outside [0, 100]");
        QTest::newRow("start not a date")
            << axes(R"({"start": ["yesterday"]})") << 5 << QStringLiteral("not an ISO-8601");
        QTest::newRow("start range backwards")
            << axes(
                   R"({"start": {"from": "2022-03-02T00:00:00Z", "to": "2022-03-01T00:00:00Z", "every_hours": 1}})")
            << 5 << QStringLiteral("before 'from'");
        QTest::newRow("start step too fine")
            << axes(
                   R"({"start": {"from": "2022-01-01T00:00:00Z", "to": "2022-12-31T00:00:00Z", "every_hours": 0.02}})")
            << 5 << QStringLiteral("at most 100000");
        QTest::newRow("unknown region")
            << axes(R"({"region": ["XX"]})") << 5 << QStringLiteral("neither a bundled region");
        QTest::newRow("region twice") << axes(R"({"region": ["DE", "DE"]})") << 5 << QStringLiteral("twice");
        QTest::newRow("unknown policy")
            << axes(R"({"policy": ["dynamic3d"]})") << 5 << QStringLiteral("dynamic3d");
        QTest::newRow("bad policy option")
            << axes(R"({"policy": [{"name": "suspend-resume", "options": {"percentile": 200}}]})") << 5
            << QStringLiteral("percentile");
        QTest::newRow("slack and deadline hours")
            << axes(R"({"slack": [1], "deadline_hours": [100]})") << 5 << QStringLiteral("not both");
        QTest::newRow("unknown forecast")
            << axes(R"({"forecast": ["crystal-ball"]})") << 5 << QStringLiteral("crystal-ball");
        // Issue 40: 1,000 levels x 10,000 seeds are refused before the expansion (10 million values took over
        // 300 s to validate).
        QTest::newRow("forecast axis past the cap")
            << axes(std::string(R"({"forecast": [{"kind": "noisy", "seeds": 10000, "error": [)") +
                    [] {
                        std::string levels;
                        for (int k = 0; k < 1000; ++k)
                            levels += (k > 0 ? "," : "") + std::to_string(k / 1000.0);
                        return levels;
                    }() +
                    "]}]}")
            << 5 << QStringLiteral("expands to 10000000 values");
        QTest::newRow("error levels on a ridge forecast")
            << axes(R"({"forecast": [{"kind": "ridge", "error": [0.1]}]})") << 5
            << QStringLiteral("error levels belong to noisy");
        QTest::newRow("fractional GPUs")
            << axes(R"({"gpus": [1.5]})") << 5 << QStringLiteral("whole numbers");
        QTest::newRow("fractional context parallelism")
            << axes(R"({"context_parallel": [2.5]})") << 5
            << QStringLiteral("'context_parallel' holds whole numbers");
        QTest::newRow("FSDP in other words")
            << axes(R"({"fsdp": ["yes"]})") << 5 << QStringLiteral("'fsdp' holds true or false");
        QTest::newRow("interleave as a number")
            << axes(R"({"interleave": [4]})") << 5 << QStringLiteral("'interleave' holds true or false");
        QTest::newRow("backfill out of range")
            << axes(R"({"backfill": [2]})") << 5 << QStringLiteral("backfill");
        QTest::newRow("parked GPUs in other words")
            << axes(R"({"parked_gpus": ["maybe"]})") << 5 << QStringLiteral("\"idle\"");
        QTest::newRow("unknown model")
            << axes(R"({"model": ["gpt-5"]})") << 5 << QStringLiteral("neither a model preset");
    }
    void malformedStudiesNameFileLineAndProblem() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "bad-study.json", text.toStdString());
        try {
            loadStudy(path, kTraces);
            QFAIL("the study was accepted");
        } catch (const InputError& error) {
            const QString message = QString::fromUtf8(error.what());
            QVERIFY2(message.startsWith(QString::fromStdString(path) + QStringLiteral(":%1:").arg(line)),
                     qPrintable(message));
            QVERIFY2(message.contains(problem), qPrintable(message));
        }
    }

    // A cell is its scenario: writing the cell's scenario out and simulating it as `simulate` does gives the
    // same numbers (1e-9 relative: both take the same arithmetic path, so they agree to the last bits).
    void aCellEqualsSimulatingItsScenario_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QList<int>>("indexes");
        QTest::newRow("small") << QString::fromStdString(kSmall) << QList<int>{1, 5, 19, 23};
        // The job's cp reaches the cell's scenario and survives its file (cells 1, 2 and 5: cp 1, 2, 4).
        QTest::newRow("context parallel")
            << QString::fromStdString(kRoot + "/tests/data/studies/context-parallel.json")
            << QList<int>{1, 2, 5};
        // Let's Wait Awhile's setting (a measured operating point, its work in the job): both policies at
        // hourly starts across the year, including the last submissions whose deadline still fits.
        QTest::newRow("wait-awhile") << QString::fromStdString(
                                            kRoot + "/sample_data/studies/wait-awhile-germany-hourly.json")
                                     << QList<int>{0, 1, 2, 3, 4001, 9120, 13337, 17488, 17489};
        // The job's stack without the interleaved schedule survives the cell's file (cells 5 and 9:
        // interleave false; 3569, the last).
        QTest::newRow("interleave") << QString::fromStdString(kRoot +
                                                              "/sample_data/studies/interleave-default.json")
                                    << QList<int>{0, 5, 9, 3569};
    }
    void aCellEqualsSimulatingItsScenario() {
        QFETCH(QString, file);
        QFETCH(QList<int>, indexes);
        const StudyDefinition study = loadStudy(file.toStdString(), kTraces);
        QTemporaryDir dir;
        for (int index : indexes) {
            const StudyCell cell = cellAt(study, static_cast<std::size_t>(index));
            const CellResult result = runStudyCell(study, cell, false);
            QVERIFY2(result.feasible, result.reason.c_str());
            const CellSetup setup = cellSetup(study, cell);
            const std::string path = dir.filePath(QStringLiteral("cell.json")).toStdString();
            std::ofstream(path) << toJson(setup.scenario, dir.path().toStdString()).dump(2);
            const Scenario reread = loadScenario(path);
            QCOMPARE(reread.policies.size(), std::size_t(1));
            const RunResult alone = runPolicy(prepareScenario(reread), reread.policies.front());
            // 1e-9 relative: the same schedule summed by the same code; only the scenario's round trip
            // through its file stands between them.
            QVERIFY2(relativeDifference(result.run.metrics.totalG, alone.metrics.totalG) < 1e-9,
                     setup.scenario.name.c_str());
            QVERIFY(relativeDifference(result.run.metrics.energyJ, alone.metrics.energyJ) < 1e-9);
            // The same choices: when the job ran, how often it stopped and was reconfigured.
            QCOMPARE(result.run.metrics.completionSeconds, alone.metrics.completionSeconds);
            QCOMPARE(result.run.metrics.reconfigurations, alone.metrics.reconfigurations);
            QCOMPARE(result.run.metrics.preemptions, alone.metrics.preemptions);
            QVERIFY(result.run.series.empty()); // series are not kept unless asked for
        }
    }

    // Issue 43: a cell opens with its baseline, every other axis equal: each run is the run the study made of
    // its cell (to the bit), the saving the table shows is theirs, and the prepared scenario lists both
    // policies for the form. A measured-work study (Let's Wait Awhile's setting) opens as any other.
    void aCellOpensWithItsBaseline() {
        QTemporaryDir dir;
        // Let's Wait Awhile's measured-work study with the baseline beside its policy, two starts.
        std::ifstream lwa(kRoot + "/sample_data/studies/wait-awhile-germany-hourly.json");
        std::string text((std::istreambuf_iterator<char>(lwa)), std::istreambuf_iterator<char>());
        const auto replace = [&](const std::string& from, const std::string& to) {
            const std::size_t at = text.find(from);
            QVERIFY2(at != std::string::npos, from.c_str());
            text.replace(at, from.size(), to);
        };
        replace("../traces/", kTraces + "/");
        replace(R"("to": "2022-12-31T23:00:00Z")", R"("to": "2022-01-01T01:00:00Z")");
        replace(R"(["wait-awhile", "wait-awhile-interruptible"])", R"(["static-max", "wait-awhile"])");
        const std::string measured = writeFile(dir, "measured.json", text);
        for (const std::string& file :
             {kSmall, measured, kRoot + "/sample_data/studies/wait-awhile-germany-hourly.json"}) {
            const StudyDefinition study = loadStudy(file, kTraces);
            const std::size_t index = 1; // the second policy at the first start: not the baseline
            const OpenedCell opened = openStudyCell(study, index, "static-max");
            QVERIFY(opened.runs.back().policy != "static-max");
            const CellResult alone = runStudyCell(study, cellAt(study, index), true);
            QVERIFY2(alone.feasible, alone.reason.c_str());
            QCOMPARE(opened.runs.back().metrics.totalG, alone.run.metrics.totalG);
            QVERIFY(!opened.runs.back().series.empty());
            QCOMPARE(opened.prepared.scenario.policies.size(), opened.runs.size());
            const std::optional<std::size_t> baseline =
                cellWithPolicy(study, cellAt(study, index), "static-max");
            if (!baseline) { // Let's Wait Awhile's study has no static-max: the cell opens alone
                QCOMPARE(opened.runs.size(), std::size_t(1));
                continue;
            }
            QCOMPARE(opened.runs.size(), std::size_t(2));
            QCOMPARE(opened.runs.front().policy, std::string("static-max"));
            const CellResult base = runStudyCell(study, cellAt(study, *baseline), false);
            QCOMPARE(opened.runs.front().metrics.totalG, base.run.metrics.totalG);
            QCOMPARE(cellValues(study, cellAt(study, *baseline)).size(),
                     cellValues(study, cellAt(study, index)).size());
        }
        // A cell that cannot run says which and why.
        const StudyDefinition tooMany = loadStudy(
            writeFile(dir, "many.json", studyText(R"({"gpus": [100000], "policy": ["static-max"]})")),
            kTraces);
        QVERIFY_THROWS_EXCEPTION(InputError, openStudyCell(tooMany, 0, "static-max"));
    }

    // The Study page's plan: the file it writes is what the reader reads, and its cell count is the
    // reader's, without reading a trace (0 for an empty axis, the start range end included).
    void aPlansCellCountIsItsFilesCellCount() {
        const Scenario base = loadScenario(kBase);
        StudyPlan plan;
        plan.name = "plan";
        plan.from = base.startUtc;
        plan.to = base.startUtc + 3 * kSecondsPerDay; // four daily starts, the last one on `to`
        plan.everyHours = 24.0;
        plan.regions = {"SE-SE3", "DE"};
        plan.slacks = {0.25, 1.0};
        plan.policies = {"static-max", "oracle"};
        plan.parkedIdle = true;
        plan.parkedReleased = false;
        plan.noisyForecast = "noisy";
        plan.errors = {0.05, 0.1};
        plan.seeds = 3;
        QTemporaryDir dir;
        for (bool withForecastAxis : {true, false}) {
            if (!withForecastAxis)
                plan.errors.clear();
            const std::string path =
                writeFile(dir, "plan.json", studyPlanJson(plan, base, dir.path().toStdString()).dump(2));
            const StudyDefinition study = loadStudy(path, kTraces);
            QCOMPARE(plannedCellCount(plan), static_cast<std::uint64_t>(cellCount(study)));
        }
        // Four starts, two regions, two slacks, two policies, one side of who pays for parked GPUs.
        QCOMPARE(plannedCellCount(plan), std::uint64_t{4} * 2 * 2 * 2);
        // The page's "Split savings" box reaches the study the reader reads.
        for (bool split : {false, true}) {
            plan.splitSavings = split;
            const std::string path =
                writeFile(dir, "plan.json", studyPlanJson(plan, base, dir.path().toStdString()).dump(2));
            QCOMPARE(loadStudy(path, kTraces).splitSavings, split);
        }
        plan.policies.clear();
        QCOMPARE(plannedCellCount(plan), std::uint64_t{0});
    }

    // A modelling axis that changes the menu through the goodput (interruptions, checkpoints, restarts,
    // evaluation) builds a menu per value: the runner's shared menus once gave every cell the first value's
    // (the same completion whatever the interruption rate, and a different one in the reversed file).
    void goodputAxesBuildAMenuPerValue() {
        QTemporaryDir dir;
        for (const char* rates : {"[0, 0.001]", "[0.001, 0]"}) {
            const std::string path = writeFile(dir, "goodput.json",
                                               studyText(std::string(R"({"interruptions_per_gpu_hour": )") +
                                                         rates + R"(, "policy": ["static-max"]})"));
            const StudyDefinition study = loadStudy(path, kTraces);
            std::map<std::size_t, CellResult> together;
            StudyRunOptions options;
            options.jobs = 1;
            options.onCell = [&](CellResult&& result) { together[result.cell.index] = std::move(result); };
            runStudy(study, options);
            QCOMPARE(together.size(), std::size_t(2));
            for (const auto& [index, result] : together) {
                const CellResult alone = runStudyCell(study, cellAt(study, index), false);
                // The same cell on the same code path: equal to the bit.
                QCOMPARE(result.run.metrics.completionSeconds, alone.run.metrics.completionSeconds);
                QCOMPARE(result.run.metrics.totalG, alone.run.metrics.totalG);
            }
            // Interruptions cost restarts and lost work: the run takes longer.
            QVERIFY(together.at(0).run.metrics.completionSeconds !=
                    together.at(1).run.metrics.completionSeconds);
        }
    }

    // Issue 17: a context_parallel axis sets the job's cp, and each cell trains on configurations that hold
    // it.
    void contextParallelAxisSetsTheJobsCp() {
        const StudyDefinition study = loadStudy(kRoot + "/tests/data/studies/context-parallel.json", kTraces);
        QCOMPARE(cellCount(study), std::size_t(6));
        const int expected[] = {1, 1, 2, 2, 4, 4};
        for (std::size_t index = 0; index < cellCount(study); ++index) {
            const StudyCell cell = cellAt(study, index);
            QCOMPARE(cellSetup(study, cell).scenario.job.contextParallel, expected[index]);
            const CellResult result = runStudyCell(study, cell, true);
            QVERIFY2(result.feasible, result.reason.c_str());
            int training = 0;
            for (const IntervalRecord& interval : result.run.series) {
                if (interval.activity != IntervalActivity::Training)
                    continue;
                ++training;
                QCOMPARE(interval.config.cp, expected[index]);
            }
            QVERIFY(training > 0);
        }
    }

    // An interleave axis withdraws the interleaved schedule from the cell's job: on the default GPT-3 175B
    // job static-max runs interleaved with it and plain 1F1B without, each value with its own menu.
    void interleaveAxisWithdrawsTheInterleavedSchedule() {
        const StudyDefinition study =
            loadStudy(kRoot + "/sample_data/studies/interleave-default.json", kTraces);
        const StudyCell offered = cellAt(study, 0);   // interleave true, static-max
        const StudyCell withdrawn = cellAt(study, 5); // interleave false, static-max
        QVERIFY(cellSetup(study, offered).scenario.job.interleave);
        QVERIFY(!cellSetup(study, withdrawn).scenario.job.interleave);
        QVERIFY(menuKey(study, offered) != menuKey(study, withdrawn));
        for (const StudyCell& cell : {offered, withdrawn}) {
            const CellResult result = runStudyCell(study, cell, true);
            QVERIFY2(result.feasible, result.reason.c_str());
            int interleaved = 0;
            for (const IntervalRecord& interval : result.run.series)
                interleaved +=
                    interval.activity == IntervalActivity::Training && interval.config.interleave > 1;
            QCOMPARE(interleaved > 0, cellSetup(study, cell).scenario.job.interleave);
        }
    }

    // An fsdp axis offers FSDP to the cell's job: without it no interval runs FSDP, with it the menu has it
    // (on 64 A100s Llama 2 7B runs fastest fully sharded, docs/DECISIONS.md "FSDP is offered when the job
    // asks"), each value with its own menu.
    void fsdpAxisOffersFsdp() {
        const StudyDefinition study =
            parseStudy(parseJson(studyText(R"({"fsdp": [false, true], "policy": ["static-max"]})"), "fsdp"),
                       "fsdp", kTraces);
        QCOMPARE(cellCount(study), std::size_t(2));
        QVERIFY(menuKey(study, cellAt(study, 0)) != menuKey(study, cellAt(study, 1)));
        for (std::size_t index = 0; index < 2; ++index) {
            const StudyCell cell = cellAt(study, index);
            QCOMPARE(cellSetup(study, cell).scenario.job.fsdp, index == 1);
            const CellResult result = runStudyCell(study, cell, true);
            QVERIFY2(result.feasible, result.reason.c_str());
            int sharded = 0;
            for (const IntervalRecord& interval : result.run.series)
                sharded += interval.activity == IntervalActivity::Training && interval.config.fullySharded;
            QCOMPARE(sharded > 0, index == 1);
        }
    }

    // Issue 18: the carbon-price study. In every (price, capacity) the oracle planned for cost+carbon costs
    // no more than any other policy there (its bound holds in the objective it was given), and a dearer
    // tonne never makes its schedule emit more. Cells: price x capacity x 4 policies, the policy axis last.
    void carbonPriceStudyTracesACostCarbonFront() {
        const StudyDefinition study = loadStudy(kRoot + "/sample_data/studies/carbon-price.json", kTraces);
        constexpr std::size_t kPolicies = 4;
        constexpr std::size_t kOracle = 1;
        std::map<std::string, double> lastOracleG; // by capacity
        for (std::size_t group = 0; group * kPolicies < cellCount(study); ++group) {
            std::vector<RunMetrics> metrics;
            std::string capacity;
            for (std::size_t p = 0; p < kPolicies; ++p) {
                const StudyCell cell = cellAt(study, group * kPolicies + p);
                const CellResult result = runStudyCell(study, cell, false);
                QVERIFY2(result.feasible, result.reason.c_str());
                metrics.push_back(result.run.metrics);
                capacity = cellSetup(study, cell).scenario.modelling.gpuCapacity ==
                                   ModellingOptions::GpuCapacity::Reserved
                               ? "reserved"
                               : "on-demand";
            }
            for (const RunMetrics& m : metrics) // 1e-9 relative: summation order
                QVERIFY(metrics[kOracle].costUsd <= m.costUsd * (1.0 + 1e-9));
            const auto last = lastOracleG.find(capacity);
            if (last != lastOracleG.end())
                QVERIFY(metrics[kOracle].totalG <= last->second * (1.0 + 1e-9));
            lastOracleG[capacity] = metrics[kOracle].totalG;
        }
        QCOMPARE(lastOracleG.size(), std::size_t(2));
    }

    // Cancel stops every running cell (the runner returns, the summary says so) and hands back only whole
    // cells: a cancelled cell is not a result and runs again on resume. How fast: bench_study
    // BM_StudyCancelLatency (docs/PERFORMANCE.md).
    void cancelStopsAStudyWithWholeCells() {
        const StudyDefinition study = loadStudy(kSmall, kTraces);
        std::atomic<bool> cancel{false};
        std::vector<CellResult> delivered;
        StudyRunOptions options;
        options.jobs = 2;
        options.cancel = &cancel;
        options.onCell = [&](CellResult&& result) {
            delivered.push_back(std::move(result));
            if (delivered.size() == 3)
                cancel = true;
        };
        const StudyRunSummary summary = runStudy(study, options);
        QVERIFY(summary.cancelled);
        QVERIFY(delivered.size() < cellCount(study));
        for (const CellResult& result : delivered) {
            QVERIFY(!result.run.cancelled);
            QVERIFY(!result.feasible || result.run.metrics.finished);
        }
    }

    void infeasibleCellsKeepTheirReason() {
        const StudyDefinition late = parseStudy(
            parseJson(studyText(R"({"start": ["2022-12-30T00:00:00Z"], "policy": ["static-max"]})"), "late"),
            "late", kTraces);
        const CellResult ended = runStudyCell(late, cellAt(late, 0), false);
        QVERIFY(!ended.feasible);
        QVERIFY2(QString::fromStdString(ended.reason).contains(QStringLiteral("trace")),
                 ended.reason.c_str());
        const StudyDefinition tight =
            parseStudy(parseJson(studyText(R"({"deadline_hours": [10], "policy": ["static-max"]})"), "tight"),
                       "tight", kTraces);
        const CellResult short_ = runStudyCell(tight, cellAt(tight, 0), false);
        QVERIFY(!short_.feasible);
        QVERIFY2(
            QString::fromStdString(short_.reason).contains(QStringLiteral("shorter than the fastest run")),
            short_.reason.c_str());
        const StudyDefinition big = parseStudy(
            parseJson(studyText(R"({"gpus": [100000], "policy": ["static-max"]})"), "big"), "big", kTraces);
        QVERIFY(!runStudyCell(big, cellAt(big, 0), false).feasible);
        // A cp the base's sequence (4,096 tokens) cannot be split by: the cell says so, not "memory".
        const StudyDefinition split = parseStudy(
            parseJson(studyText(R"({"context_parallel": [3], "policy": ["static-max"]})"), "split"), "split",
            kTraces);
        const CellResult unsplit = runStudyCell(split, cellAt(split, 0), false);
        QVERIFY(!unsplit.feasible);
        QVERIFY2(
            QString::fromStdString(unsplit.reason)
                .contains(QStringLiteral("context_parallel 3 does not split the sequence: its length 4096 "
                                         "must be a multiple of 2 x 3")),
            unsplit.reason.c_str());
        // cp with the materialized kernel: the kernel is named as the obstacle.
        Scenario materialized = loadScenario(kBase);
        materialized.job.contextParallel = 2;
        materialized.job.attention = AttentionKernel::Materialized;
        try {
            buildScenarioMenu(materialized);
            QFAIL("a cp job without flash attention was given a menu");
        } catch (const InputError& error) {
            QVERIFY2(QString::fromUtf8(error.what())
                         .contains(
                             QStringLiteral("context parallelism (cp = 2) needs the flash attention kernel")),
                     error.what());
        }
    }

    // Shards partition the cells, resuming skips what is saved, and the thread count changes no number.
    void shardsPartitionAndJobsChangeNothing() {
        const StudyDefinition study = loadStudy(kSmall, kTraces);
        std::map<std::size_t, std::string> alone;
        StudyRunOptions one;
        one.jobs = 1;
        one.onCell = [&](CellResult&& r) { alone[r.cell.index] = exactMetricsJson(r.run.metrics); };
        QCOMPARE(runStudy(study, one).ran, std::size_t(24));
        std::map<std::size_t, std::string> sharded;
        for (std::size_t shard = 0; shard < 3; ++shard) {
            StudyRunOptions part;
            part.jobs = 2;
            part.shard = shard;
            part.shards = 3;
            part.onCell = [&](CellResult&& r) {
                QVERIFY(sharded.emplace(r.cell.index, exactMetricsJson(r.run.metrics)).second);
            };
            QCOMPARE(runStudy(study, part).cells, std::size_t(8));
        }
        QVERIFY(sharded == alone);
        StudyRunOptions resumed;
        resumed.skip = [](std::size_t index) { return index < 20; };
        std::size_t ran = 0;
        resumed.onCell = [&](CellResult&&) { ++ran; };
        const StudyRunSummary summary = runStudy(study, resumed);
        QCOMPARE(summary.skipped, std::size_t(20));
        QCOMPARE(ran, std::size_t(4));
    }

    // A cell's metrics are written straight to text: it is the text the JSON writer gives the same object
    // (parsed and dumped again, it is unchanged), absent values are null, and every number reads back
    // exactly.
    void cellMetricsTextIsCanonicalJson() {
        RunMetrics metrics;
        metrics.totalG = 1.0 / 3.0;
        metrics.energyJ = 1e20;
        metrics.marginalG = std::numeric_limits<double>::quiet_NaN();
        metrics.reconfigurations = 3;
        metrics.deadlineMet = true;
        const std::string text = exactMetricsJson(metrics);
        QCOMPARE(parseJson(text, "t").dump(-1), text);
        QVERIFY(text.find("\"marginal_g\":null") != std::string::npos);
        const RunMetrics back = metricsFromExactJson(text, "t");
        QCOMPARE(back.totalG, 1.0 / 3.0);
        QCOMPARE(back.energyJ, 1e20);
        QVERIFY(std::isnan(back.marginalG));
        QCOMPARE(back.reconfigurations, 3);
        QVERIFY(back.deadlineMet);
    }

    void storeKeepsEachCellOnceAndReportsConflicts() {
        QTemporaryDir dir;
        ResultsStore store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        StoredStudy study;
        study.name = "s";
        study.hash = "h1";
        study.columns = {"slack", "policy"};
        study.cellCount = 2;
        study.programVersion = "test";
        const StudyId id = store.registerStudy(study);
        QCOMPARE(store.registerStudy(study), id); // the same hash: the same study
        RunMetrics metrics;
        metrics.totalG = 1500.0;
        const StoredCell cell{
            0, "c0", {"0.5", "static-max"}, true, "", exactMetricsJson(metrics), std::nullopt, nullptr};
        const StoredCell infeasible{1,           "c1", {"1", "static-max"}, false,
                                    "too short", "",   std::nullopt,        nullptr};
        QVERIFY(store.saveCells(id, {cell, infeasible}).empty());
        QVERIFY(store.saveCells(id, {cell}).empty()); // again: kept once
        StoredCell changed = cell;
        metrics.totalG = 1600.0;
        changed.metricsJson = exactMetricsJson(metrics);
        QCOMPARE(store.saveCells(id, {changed}), std::vector<std::int64_t>{0});
        const std::vector<StoredCell> cells = store.loadCells(id);
        QCOMPARE(cells.size(), std::size_t(2));
        QCOMPARE(metricsFromExactJson(cells[0].metricsJson, "t").totalG, 1500.0); // the first one kept
        QCOMPARE(cells[1].reason, std::string("too short"));
        QCOMPARE(store.listStudies().front().savedCells, std::int64_t(2));
        QCOMPARE(store.listStudies().front().infeasibleCells, std::int64_t(1));
        store.deleteStudy(id);
        QVERIFY(store.listStudies().empty());
        QVERIFY_THROWS_EXCEPTION(InputError, store.deleteStudy(id));
    }

    // `study run --series`: each feasible cell's series is a run of its own, saved with the cell in one
    // transaction and linked by run_id; a cell saved again brings no second run; deleting the study takes
    // the runs along.
    void storeKeepsSeriesWithTheirCells() {
        const StudyDefinition study = loadStudy(kSmall, kTraces);
        QTemporaryDir dir;
        ResultsStore store(dir.filePath(QStringLiteral("series.sqlite")).toStdString());
        const StudyId id = store.registerStudy(storedStudyOf(study));
        std::vector<StoredCell> cells;
        std::vector<std::size_t> intervals;
        for (std::size_t index : {std::size_t(0), std::size_t(1), std::size_t(7)}) { // static-max, dynamic-3d
            const CellResult result = runStudyCell(study, cellAt(study, index), true);
            QVERIFY(result.feasible);
            QVERIFY(!result.run.series.empty());
            intervals.push_back(result.run.series.size());
            cells.push_back(storedCellOf(study, result));
            QVERIFY(cells.back().runToSave != nullptr);
        }
        QVERIFY(store.saveCells(id, cells).empty());
        QVERIFY(store.saveCells(id, cells).empty()); // again: the cells and their runs kept once
        QCOMPARE(store.listRuns().size(), std::size_t(3));
        const std::vector<StoredCell> saved = store.loadCells(id);
        QCOMPARE(saved.size(), std::size_t(3));
        for (std::size_t i = 0; i < saved.size(); ++i) {
            QVERIFY(saved[i].runId.has_value());
            QCOMPARE(store.loadSeries(*saved[i].runId).size(), intervals[i]);
        }
        // Without --series nothing but the metrics is saved.
        const CellResult plain = runStudyCell(study, cellAt(study, 2), false);
        QVERIFY(storedCellOf(study, plain).runToSave == nullptr);
        store.deleteStudy(id);
        QVERIFY(store.listRuns().empty());
    }

    // Issue 39: a study with "split_savings" splits each cell's saving against static-max (runner/
    // SavingSplit.h), the same as a run of that cell's scenario on its own; without it cells are not split,
    // and the two studies have different keys (their cells hold different things).
    void splitSavingsSplitsEachCell() {
        JsonValue json = readJsonFile(kSmall);
        const StudyDefinition plain = parseStudy(json, kSmall, kTraces);
        json.insert("split_savings", JsonValue::makeBool(true));
        const StudyDefinition split = parseStudy(json, kSmall, kTraces);
        QVERIFY(split.splitSavings && !plain.splitSavings);
        QVERIFY(split.hash != plain.hash);
        for (std::size_t i = 0; i < cellCount(split); ++i) {
            const CellResult cell = runStudyCell(split, cellAt(split, i), false);
            QVERIFY(cell.feasible);
            QVERIFY(std::isnan(
                runStudyCell(plain, cellAt(plain, i), false).run.metrics.dedicatedSplit().totalG()));
            if (cell.run.policy == defaultBaselinePolicy().name) {
                QVERIFY(std::isnan(cell.run.metrics.dedicatedSplit().totalG()));
                continue;
            }
            const CellSetup setup = cellSetup(split, cellAt(split, i));
            Scenario alone = setup.scenario;
            alone.policies = {setup.policy};
            const std::vector<RunResult> runs = runAllPolicies(prepareScenario(alone), alone.policies);
            // The same engine on the same input, the references made once per setup either way: exact.
            QCOMPARE(cell.run.metrics.savingConfigurationDedicatedG,
                     runs.front().metrics.savingConfigurationDedicatedG);
            QCOMPARE(cell.run.metrics.savingTimingSharedG, runs.front().metrics.savingTimingSharedG);
            QCOMPARE(cell.run.metrics.savingBeyondDedicatedG, runs.front().metrics.savingBeyondDedicatedG);
        }
    }

    // Issue 39, item 2: the study figure of the split. Per policy and attribution end its three bars add up
    // to the policy's mean saving at that end, recomputed here from the runs' totals and the baseline's in
    // the same cell; an unsplit study draws nothing and says why.
    void splitFigureAddsUpToTheSavingsAtBothEnds() {
        JsonValue json = readJsonFile(kSmall);
        json.insert("split_savings", JsonValue::makeBool(true));
        const StudyDefinition split = parseStudy(json, kSmall, kTraces);
        std::vector<StudyRow> rows;
        for (std::size_t i = 0; i < cellCount(split); ++i)
            rows.push_back(studyRowOf(split, runStudyCell(split, cellAt(split, i), false)));
        const StudyTable table = studyTable(axisColumns(split), rows, "static-max");
        const StudyFigureData figure = studySavingSplit(table);
        QCOMPARE(figure.lines.size(), std::size_t{2 * 2}); // dynamic-3d and oracle, charged and released
        const int policy = table.column("policy");
        for (const StudyLine& line : figure.lines) {
            const bool charged = line.variant == "charged";
            double sum = 0.0;
            std::size_t cells = 0;
            for (const StudyRow& row : table.rows) {
                if (row.values[static_cast<std::size_t>(policy)] != line.policy)
                    continue;
                const StudyRow* baseline = nullptr;
                for (const StudyRow& other : table.rows) {
                    std::vector<std::string> a = row.values, b = other.values;
                    a.erase(a.begin() + policy);
                    b.erase(b.begin() + policy);
                    if (a == b && other.values[static_cast<std::size_t>(policy)] == "static-max")
                        baseline = &other;
                }
                QVERIFY(baseline != nullptr);
                const double own = charged ? row.metrics.dedicatedG : row.metrics.sharedG;
                const double base = charged ? baseline->metrics.dedicatedG : baseline->metrics.sharedG;
                sum += 1.0 - own / base;
                ++cells;
            }
            QCOMPARE(line.y.size(), std::size_t{3});
            // Three means of parts against the mean of their sums: rounding of a few additions only.
            QVERIFY2(std::abs(line.y[0] + line.y[1] + line.y[2] - sum / static_cast<double>(cells)) < 1e-9,
                     (line.policy + " " + line.variant).c_str());
        }
        // A study that sweeps who pays for parked GPUs draws each cell at its own end only.
        std::vector<std::string> sweptColumns = axisColumns(split);
        sweptColumns.push_back("parked_gpus");
        std::vector<StudyRow> released = rows;
        for (StudyRow& row : released)
            row.values.push_back("released");
        const StudyFigureData own =
            studySavingSplit(studyTable(sweptColumns, std::move(released), "static-max"));
        QCOMPARE(own.lines.size(), std::size_t{2});
        for (const StudyLine& line : own.lines)
            QCOMPARE(line.variant, std::string("released"));
        std::vector<StudyRow> unsplitRows = rows; // as a study without split_savings saves them
        for (StudyRow& row : unsplitRows)
            row.metrics.savingConfigurationDedicatedG = row.metrics.savingConfigurationSharedG = std::nan("");
        const StudyFigureData unsplit =
            studySavingSplit(studyTable(axisColumns(split), std::move(unsplitRows), "static-max"));
        QVERIFY(unsplit.lines.empty());
        QVERIFY(unsplit.note.find("split_savings") != std::string::npos);
    }

    // The export: the axis columns, then exactly the issue's metric columns; savings against the baseline
    // policy of the same cell.
    void exportHasTheAxisAndMetricColumns() {
        QTemporaryDir dir;
        ResultsStore store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const StudyId id = saveSmallStudy(store);
        const StudyTable table = studyTable(store.loadStudy(id), store.loadCells(id), "static-max");
        const std::string csv = dir.filePath(QStringLiteral("s.csv")).toStdString();
        writeStudyCsv(table, csv);
        QFile file(QString::fromStdString(csv));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.front(),
                 QByteArray("start,region,slack,policy,emissions_kg,operational_kg,embodied_kg,"
                            "savings_vs_baseline,completion_hours,deadline_met,energy_kwh,"
                            "reconfigurations,preemptions,cost_usd,saving_configuration_dedicated_kg,"
                            "saving_timing_dedicated_kg,saving_beyond_dedicated_kg,"
                            "saving_configuration_shared_kg,saving_timing_shared_kg,saving_beyond_shared_kg,"
                            "feasible,reason"));
        QCOMPARE(lines.size(), 24 + 2); // header, 24 cells, the final newline
        // The streamed export (study export: two passes over the store, no table held) writes the same bytes,
        // against either baseline.
        for (const char* baseline : {"static-max", "oracle"}) {
            const std::string streamed = dir.filePath(QStringLiteral("streamed.csv")).toStdString();
            QCOMPARE(exportStudyCsv(store, store.loadStudy(id), baseline, streamed), std::size_t{24});
            writeStudyCsv(studyTable(store.loadStudy(id), store.loadCells(id), baseline), csv);
            QCOMPARE(readTextFile(streamed), readTextFile(csv));
        }
        for (const StudyRow& row : table.rows) {
            const double baseline =
                table.rows[static_cast<std::size_t>(row.index - row.index % 3)].metrics.totalG;
            QVERIFY(relativeDifference(row.savingsVsBaseline, 1.0 - row.metrics.totalG / baseline) < 1e-12);
            // The oracle bounds the cell's other policies (1e-9: the bound's own tolerance, docs/ENGINE.md).
            if (row.index % 3 == 2)
                for (int k = 1; k <= 2; ++k)
                    QVERIFY(row.metrics.totalG <=
                            table.rows[static_cast<std::size_t>(row.index - k)].metrics.totalG * (1 + 1e-9));
        }
    }

    // Issue 44 item 4: the Study page shows a saved study from the store (StoredStudyRows, read off the GUI
    // thread, none of its cells held) as it shows one in memory (TableRows): the same choices, values, CDF
    // and heatmap, to the bit, under each policy and with a facet held or pooled; a heatmap cell names the
    // lowest feasible cell it pools, which a click opens.
    void aSavedStudyShowsAsTheSameStudyInMemory() {
        QTemporaryDir dir;
        ResultsStore store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const StudyId id = saveSmallStudy(store);
        const StudyTable table = studyTable(store.loadStudy(id), store.loadCells(id), "static-max");
        const StoredStudyRows stored(store, store.loadStudy(id), "static-max");
        for (const char* policy : {"", "dynamic-3d", "oracle"})
            for (const char* slack : {"0.25", "1", kPooledFacet}) {
                const StudyViewChoice choice{policy, {{"slack", slack}}};
                const StudyView inMemory = studyView(TableRows(table), choice);
                const StudyView fromStore = studyView(stored, choice);
                QCOMPARE(fromStore.rows, std::size_t{24});
                QCOMPARE(fromStore.policies, inMemory.policies);
                QCOMPARE(fromStore.policy, *policy == '\0' ? std::string("dynamic-3d") : std::string(policy));
                QCOMPARE(fromStore.facets.size(), std::size_t{1});
                QCOMPARE(fromStore.facets.front().values, (std::vector<std::string>{"0.25", "1"}));
                QCOMPARE(fromStore.facets.front().held, std::string(slack));
                QCOMPARE(fromStore.heatmap.heatmap.savings.size(), std::size_t{4}); // 2 regions x 2 starts
                for (std::size_t i = 0; i < 4; ++i) {
                    QCOMPARE(fromStore.heatmap.heatmap.savings[i], inMemory.heatmap.heatmap.savings[i]);
                    QCOMPARE(fromStore.heatmap.heatmap.cells[i], inMemory.heatmap.heatmap.cells[i]);
                    const StudyRow& opened =
                        table.rows[static_cast<std::size_t>(fromStore.heatmap.heatmap.cells[i])];
                    QCOMPARE(opened.values[3], fromStore.policy);
                    if (*slack != '\0')
                        QCOMPARE(opened.values[2], std::string(slack));
                }
                QCOMPARE(fromStore.heatmap.note, inMemory.heatmap.note);
                QCOMPARE(fromStore.cdf.lines.size(), std::size_t{3});
                for (std::size_t l = 0; l < 3; ++l)
                    QCOMPARE(fromStore.cdf.lines[l].x, inMemory.cdf.lines[l].x);
            }
    }

    // A CDF over more cells than it draws points (4,000) keeps exact points of the empirical CDF, evenly
    // spaced in rank, the least and the greatest saving included, and says so.
    void aLargeCdfIsDrawnAtQuantiles() {
        StudyTable table;
        table.axisColumns = {"start", "policy"};
        table.baselinePolicy = "static-max";
        for (int i = 0; i < 10000; ++i) {
            StudyRow row;
            row.index = i;
            row.values = {"2022-01-01T00:00:00Z", "oracle"};
            row.feasible = true;
            row.savingsVsBaseline = (i * 7919 % 10000) / 10000.0; // every value 0..0.9999 once, shuffled
            table.rows.push_back(row);
        }
        const StudyFigureData cdf = studySavingsCdf(table);
        const StudyLine& line = cdf.lines.front();
        QCOMPARE(line.x.size(), std::size_t{4000});
        QCOMPARE(line.x.front(), 0.0);
        QCOMPARE(line.x.back(), 0.9999);
        QCOMPARE(line.y.back(), 1.0);
        for (std::size_t k = 0; k < line.x.size(); ++k) // the point of rank i is (i / 10000, (i + 1) / 10000)
            QCOMPARE(line.y[k], (std::round(line.x[k] * 1e4) + 1) / 1e4);
        QVERIFY2(cdf.note.find("drawn at 4000 of its cells") != std::string::npos, cdf.note.c_str());
    }

    // forEachCell reads pages of 256 cells: across page boundaries and gaps in the indexes, every saved cell
    // is visited once, in index order, and the visit may use the store (it runs between pages).
    void cellsAreVisitedOnceAcrossPages() {
        QTemporaryDir dir;
        ResultsStore store(dir.filePath(QStringLiteral("pages.sqlite")).toStdString());
        StoredStudy stored;
        stored.name = "pages";
        stored.hash = "pages";
        stored.columns = {"policy"};
        stored.cellCount = 2000;
        const StudyId id = store.registerStudy(stored);
        std::vector<StoredCell> cells;
        std::vector<std::int64_t> saved;
        for (std::int64_t i = 0; i < 2000; i += (i % 7 == 0 ? 3 : 1)) { // gaps, 769 cells
            cells.push_back(
                {i, "h" + std::to_string(i), {"static-max"}, false, "none", "", std::nullopt, nullptr});
            saved.push_back(i);
        }
        store.saveCells(id, cells);
        std::vector<std::int64_t> visited;
        store.forEachCell(id, [&](StoredCell&& cell) {
            visited.push_back(cell.index);
            QCOMPARE(store.loadStudy(id).name, std::string("pages"));
        });
        QCOMPARE(visited, saved);
    }

    // The figures' data, by hand: two days, two regions, two slacks, static-max (the baseline) and oracle.
    void figureDataByHand() {
        StudyTable table;
        table.axisColumns = {"start", "region", "slack", "policy"};
        table.baselinePolicy = "static-max";
        // savings of the oracle: day 1 DE 10 % and 30 % (slack 0.25, 1), FR 0 %; day 2 DE 20 % and 40 %.
        const auto add = [&](const char* day, const char* region, const char* slack, const char* policy,
                             double savings) {
            StudyRow row;
            row.index = static_cast<std::int64_t>(table.rows.size());
            row.values = {day, region, slack, policy};
            row.feasible = true;
            row.savingsVsBaseline = savings;
            table.rows.push_back(row);
        };
        for (const char* slack : {"0.25", "1"}) {
            const bool loose = std::string(slack) == "1";
            add("2022-03-01T00:00:00Z", "DE", slack, "static-max", 0.0);
            add("2022-03-01T00:00:00Z", "DE", slack, "oracle", loose ? 0.3 : 0.1);
            add("2022-03-01T00:00:00Z", "FR", slack, "static-max", 0.0);
            add("2022-03-01T00:00:00Z", "FR", slack, "oracle", 0.0);
            add("2022-03-02T00:00:00Z", "DE", slack, "static-max", 0.0);
            add("2022-03-02T00:00:00Z", "DE", slack, "oracle", loose ? 0.4 : 0.2);
        }
        StudyRow infeasible = table.rows.front();
        infeasible.values[1] = "FR";
        infeasible.values[0] = "2022-03-02T00:00:00Z";
        infeasible.feasible = false;
        infeasible.savingsVsBaseline = std::numeric_limits<double>::quiet_NaN();
        table.rows.push_back(infeasible);

        const StudyFigureData heat = studySavingsHeatmap(table, "oracle");
        QCOMPARE(heat.heatmap.regions, (std::vector<std::string>{"DE", "FR"}));
        const UtcSeconds march1 = *parseIsoDateTime("2022-03-01T00:00:00Z");
        QCOMPARE(heat.heatmap.starts, (std::vector<UtcSeconds>{march1, march1 + 86400}));
        QCOMPARE(heat.heatmap.spacing, UtcSeconds{86400});
        QCOMPARE(heat.heatmap.columnAt(march1 + 86400 + 86399), 1);
        QCOMPARE(heat.heatmap.columnAt(march1 + 2 * 86400), -1);
        QCOMPARE(heat.heatmap.endUtc, march1 + 2 * 86400);
        QCOMPARE(heat.note, std::string("mean over slack (0.25, 1)"));
        // In the study's order whatever order the cells finished in (a running study's table is in that).
        StudyTable finishedBackwards = table;
        std::reverse(finishedBackwards.rows.begin(), finishedBackwards.rows.end());
        QCOMPARE(studySavingsHeatmap(finishedBackwards, "oracle").note,
                 std::string("mean over slack (0.25, 1)"));
        QCOMPARE(studySavingsHeatmap(rowsWhere(table, 2, "1"), "oracle").note, std::string("slack 1"));
        const std::vector<double>& s = heat.heatmap.savings; // DE: mean over slack; FR day 2: no cell
        QVERIFY(std::abs(s[0] - 0.2) < 1e-12 && std::abs(s[1] - 0.3) < 1e-12); // (0.1+0.3)/2, (0.2+0.4)/2
        QCOMPARE(s[2], 0.0);
        QVERIFY(std::isnan(s[3]));

        const StudyFigureData cdf = studySavingsCdf(table);
        QCOMPARE(cdf.leftOut, std::size_t(1));
        const StudyLine& oracle = cdf.lines[0];
        QCOMPARE(oracle.policy, std::string("oracle"));
        QCOMPARE(oracle.x, (std::vector<double>{0.0, 0.0, 0.1, 0.2, 0.3, 0.4}));
        QCOMPARE(oracle.y.back(), 1.0);
        QVERIFY(std::abs(oracle.y[2] - 0.5) < 1e-12);

        const StudyFigureData bySlack = studySavingsBySlack(table);
        QCOMPARE(bySlack.lines[0].x, (std::vector<double>{0.25, 1.0}));
        QVERIFY(std::abs(bySlack.lines[0].y[0] - 0.1) < 1e-12); // (0.1 + 0 + 0.2) / 3
        QVERIFY(std::abs(bySlack.lines[0].y[1] - 0.7 / 3) < 1e-12);

        QVERIFY_THROWS_EXCEPTION(InputError, studySavingsByForecastError(table)); // no forecast axis
    }

    // Issue 43: the heatmap has a column per start, not per day: monthly starts fill the map (each until the
    // next start), where a column a day left 95 % of it grey.
    void heatmapColumnsAreStarts() {
        StudyTable table;
        table.axisColumns = {"start", "region", "gpus", "policy"};
        table.baselinePolicy = "static-max";
        for (const char* start : {"2022-01-01T00:00:00Z", "2022-02-01T00:00:00Z", "2022-03-01T00:00:00Z"}) {
            StudyRow row;
            row.values = {start, "DE", "64", "dynamic-3d"};
            row.feasible = true;
            row.savingsVsBaseline = 0.1;
            table.rows.push_back(row);
        }
        const StudyHeatmap map = studySavingsHeatmap(table, "dynamic-3d").heatmap;
        QCOMPARE(map.starts.size(), std::size_t(3));
        QCOMPARE(map.spacing, UtcSeconds{86400}); // 31 and 28 days apart: a day divides both
        QCOMPARE(map.columnAt(*parseIsoDateTime("2022-02-15T12:00:00Z")), 1);
        // The last start's column is as long as the gap before it (February's 28 days), not a sliver.
        QCOMPARE(map.columnAt(*parseIsoDateTime("2022-03-28T23:59:59Z")), 2);
        QCOMPARE(map.columnAt(*parseIsoDateTime("2022-03-29T00:00:00Z")), -1);
        QCOMPARE(map.savings, (std::vector<double>{0.1, 0.1, 0.1}));
        QCOMPARE(studySavingsHeatmap(table, "dynamic-3d").note, std::string("gpus 64"));
    }

    // The band over seeds: per seed the mean over the other axes first, then the mean and range over seeds.
    void forecastBandIsOverSeeds() {
        StudyTable table;
        table.axisColumns = {"region", "forecast", "forecast_error", "forecast_seed", "policy"};
        table.baselinePolicy = "static-max";
        const auto add = [&](const char* region, const char* seed, double savings) {
            StudyRow row;
            row.values = {region, "noisy", "0.1", seed, "dynamic-3d"};
            row.feasible = true;
            row.savingsVsBaseline = savings;
            table.rows.push_back(row);
        };
        add("DE", "1", 0.10); // seed 1: mean over regions 0.05
        add("FR", "1", 0.00);
        add("DE", "2", 0.30); // seed 2: 0.25
        add("FR", "2", 0.20);
        // The forecast's error and seed are one axis with its kind: a facet or a note reads them as one.
        const std::vector<StudyAxisGroup> axes = studyAxisGroups(table);
        QCOMPARE(axes.size(), std::size_t(3));
        QCOMPARE(axes[1].name, std::string("forecast"));
        QCOMPARE(axes[1].columns, (std::vector<int>{1, 2, 3}));
        QCOMPARE(axisGroupText(table, axes[1], table.rows.front()),
                 std::string("noisy (forecast_error 0.1, forecast_seed 1)"));
        std::size_t held = 0; // what a facet holding that value keeps (StudyView)
        for (const StudyRow& row : table.rows)
            held +=
                axisGroupText(table, axes[1], row) == "noisy (forecast_error 0.1, forecast_seed 1)" ? 1 : 0;
        QCOMPARE(held, std::size_t(2));
        const StudyLine line = studySavingsByForecastError(table).lines.front();
        QCOMPARE(line.x, std::vector<double>{0.1});
        QVERIFY(std::abs(line.y[0] - 0.15) < 1e-12);
        QVERIFY(std::abs(line.low[0] - 0.05) < 1e-12);
        QVERIFY(std::abs(line.high[0] - 0.25) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestStudy)
#include "tst_study.moc"
