// SPDX-License-Identifier: MIT
#include "ConfigTestPaths.h"
#include "config/ClusterProfileJson.h"
#include "config/ConfigFiles.h"
#include "config/ModelSpecJson.h"
#include "config/Presets.h"
#include "config/ScenarioHash.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/TrainingJob.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>

using namespace carbon3d;

namespace {

Scenario reparse(const Scenario& scenario, const std::string& asFile) {
    const std::string text = toJson(scenario, directoryOf(asFile)).dump(2);
    return parseScenario(parseJson(text, asFile), asFile);
}

void writeFile(const std::string& path, const std::string& text) {
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.data(), static_cast<qint64>(text.size()));
}

} // namespace

class TestScenarioJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everySampleScenarioLoads_data() {
        QTest::addColumn<QString>("path");
        const QDir dir(QString::fromStdString(sampleData("scenarios")));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 5);
        for (const QString& file : files)
            QTest::newRow(file.toUtf8().constData()) << dir.filePath(file);
    }

    void everySampleScenarioLoads() {
        QFETCH(QString, path);
        const Scenario s = loadScenario(path.toStdString());
        QVERIFY(!s.name.empty());
        QVERIFY(!s.description.empty());
        QVERIFY(s.gpus >= 1 && s.gpus <= s.cluster.gpusAvailable);
        QVERIFY(!s.regions.empty());
        for (const RegionSpec& region : s.regions) {
            // The bundled 2022 traces are full years; the GB archive's actuals cover its six days of May
            // 2023.
            QVERIFY(region.trace.size() == 8760 ||
                    region.trace.provenance.sourceFile.find("GB_2023-05") != std::string::npos);
            QVERIFY(s.startUtc >= region.trace.startUtc && s.startUtc < region.trace.endUtc());
            QVERIFY(!region.trace.provenance.contentSha256.empty());
            QVERIFY(isKnownTimeZone(region.timeZone));
        }
        // Every sample compares the baseline with carbon-aware policies (the lesson on when dynamic 3D
        // parallelism pays runs every policy whose plan it contains, eight in all).
        QVERIFY(s.policies.size() >= 2);
        QCOMPARE(s.sourceFile, path.toStdString());
        QVERIFY(s.cluster.accelerator.peakFlops.count(s.job.precision) == 1);
    }

    void defaultScenarioIsTheDocumentedOne() {
        const Scenario s = loadScenario(sampleData("scenarios/default.json"));
        QCOMPARE(s.job.model.id, std::string("gpt3-175b"));
        QCOMPARE(s.clusterRef, std::string("dgx-a100-80gb"));
        QCOMPARE(s.gpus, 1024);
        QCOMPARE(s.job.globalBatch, 1536);
        QCOMPARE(s.regions[0].regionId, std::string("US-CAL-CISO"));
        QCOMPARE(s.regions[0].timeZone, std::string("America/Los_Angeles"));
        QCOMPARE(formatIsoUtc(s.startUtc), std::string("2022-06-01T00:00:00Z"));
        QVERIFY(s.deadline.kind == DeadlineSpec::Kind::Slack);
        QCOMPARE(s.deadline.value, 0.25);
        QCOMPARE(s.forecast.kind, std::string("operational")); // realistic by default (docs/DECISIONS.md)
        const std::vector<std::string> policies{"static-max", "best-static", "suspend-resume", "dynamic-3d",
                                                "oracle"};
        for (size_t i = 0; i < policies.size(); ++i)
            QCOMPARE(s.policies[i].name, policies[i]);

        // Static-max should take 1-3 weeks: 6 N T FLOPs at ~45 % of the GPUs' dense peak, with N from
        // SC21 Eq. 2 (174.6e9 for GPT-3's shape).
        const ModelSpec& m = s.job.model;
        const double l = m.layers;
        const double h = m.hidden;
        const double n = 12.0 * l * h * h * (1.0 + 13.0 / (12.0 * h) + (m.vocab + m.seqLen) / (12.0 * l * h));
        const double flopPerS = s.gpus * s.cluster.accelerator.peakFlops.at(s.job.precision) * 0.45;
        const double days = 6.0 * n * s.job.tokens / flopPerS / 86400.0;
        QVERIFY2(days >= 7.0 && days <= 21.0, std::to_string(days).c_str());
    }

    void fullFixtureReadsEveryField() {
        const std::string path = configFixture("scenario_full.json");
        const Scenario s = loadScenario(path);
        QCOMPARE(s.job.model.id, std::string("tiny"));
        QCOMPARE(s.job.model.kvHeads, 2);
        QCOMPARE(s.job.tokens, 1e9);
        QVERIFY(s.job.precision == Precision::FP16);
        QCOMPARE(s.cluster.id, std::string("lab-a40"));
        QCOMPARE(s.clusterRef, std::string("cluster_custom.json"));
        QCOMPARE(s.regions[0].trace.size(), size_t(48));
        QCOMPARE(s.regions[0].tracePath, std::string("trace_june_48h.csv"));
        QCOMPARE(resolvedTracePath(s, s.regions[0]), configFixture("trace_june_48h.csv"));
        QCOMPARE(formatIsoUtc(s.startUtc), std::string("2022-06-01T06:00:00Z"));
        QVERIFY(s.deadline.kind == DeadlineSpec::Kind::Hours);
        QCOMPARE(s.deadline.value, 30.0);
        QCOMPARE(s.policies.size(), size_t(3));
        QCOMPARE(s.policies[0].name, std::string("static-max"));
        QVERIFY(s.policies[0].options.empty());
        QCOMPARE(s.policies[1].options.at("percentile"), std::string("30"));
        QCOMPARE(s.policies[1].options.at("size"), std::string("fastest"));
        QCOMPARE(s.policies[2].options.at("hysteresis"), std::string("false")); // booleans kept as text
        QCOMPARE(s.forecast.kind, std::string("noisy"));
        QCOMPARE(s.forecast.errorFraction, 0.05);
        QCOMPARE(s.forecast.seed, std::uint64_t(7));
        QCOMPARE(s.forecast.horizonHours, std::optional<double>(24.0));
        QCOMPARE(s.modelling.backfill, 1.0);
        QVERIFY(s.modelling.batchScaling == ModellingOptions::BatchScaling::PerReplicaConstant);
        QCOMPARE(s.modelling.reconfigurationSeconds, 300.0);
        QCOMPARE(s.modelling.preemptionSeconds, 900.0);
        QCOMPARE(s.modelling.overheadPowerFraction, 0.5);
        QVERIFY(s.modelling.deadlineMode == ModellingOptions::DeadlineMode::Soft);
        QCOMPARE(s.modelling.softDeadlinePenaltyGPerHour, 1000.0);
        QCOMPARE(s.modelling.decisionIntervalSeconds, 1800.0);
        QVERIFY(s.operatingPoints.has_value());
        QCOMPARE(s.operatingPoints->points.size(), size_t(4));
    }

    void roundTripsInPlace_data() {
        everySampleScenarioLoads_data();
        QTest::newRow("full fixture") << QString::fromStdString(configFixture("scenario_full.json"));
    }

    void roundTripsInPlace() {
        QFETCH(QString, path);
        const Scenario original = loadScenario(path.toStdString());
        const Scenario again = reparse(original, path.toStdString());
        QCOMPARE(canonicalJson(again), canonicalJson(original));
        QCOMPARE(toJson(again).dump(2), toJson(original).dump(2));
        QCOMPARE(scenarioHash(again), scenarioHash(original));
        // A preset id survives; a cluster read from a file is written inline and comes back without a ref.
        const bool fromPreset = findClusterPreset(original.clusterRef).has_value();
        QCOMPARE(again.clusterRef, fromPreset ? original.clusterRef : std::string());
    }

    void fp8WeightsAreWrittenForFp8JobsAndReadBack() {
        Scenario s = loadScenario(sampleData("scenarios/default.json"));
        QVERIFY(toJson(s).find("job")->find("fp8_weights") == nullptr); // bf16: nothing to say
        s.cluster = *findClusterPreset("dgx-h100");
        s.clusterRef = "dgx-h100";
        s.job.precision = Precision::FP8;
        QCOMPARE(toJson(s).find("job")->find("fp8_weights")->toBool(), true); // the default, visible
        const std::string fp8WeightsHash = scenarioHash(s);
        s.job.fp8Weights = false;
        const Scenario again = reparse(s, s.sourceFile);
        QCOMPARE(again.job.fp8Weights, false);
        QVERIFY(scenarioHash(again) != fp8WeightsHash); // a stored run knows which it was
    }

    void contextParallelIsWrittenWhenUsedAndReadBack() {
        Scenario s = loadScenario(sampleData("scenarios/default.json"));
        QCOMPARE(s.job.contextParallel, 1);
        QVERIFY(toJson(s).find("job")->find("context_parallel") == nullptr); // the default: nothing to say
        const std::string withoutHash = scenarioHash(s);
        s.job.contextParallel = 4;
        QCOMPARE(toJson(s).find("job")->find("context_parallel")->toNumber(), 4.0);
        const Scenario again = reparse(s, s.sourceFile);
        QCOMPARE(again.job.contextParallel, 4);
        QVERIFY(scenarioHash(again) != withoutHash); // a stored run knows which it was
    }

    // A stack switch (kStackSwitches) is written only off its default, so earlier scenarios keep their
    // hashes, and read back when it is.
    void stackSwitchIsWrittenOffItsDefaultAndReadBack_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("byDefault");
        QTest::newRow("fsdp") << QStringLiteral("fsdp") << false; // Megatron's distributed optimizer only
        QTest::newRow("interleave") << QStringLiteral("interleave") << true; // Megatron-Core interleaves
        QTest::newRow("bf16_gradients") << QStringLiteral("bf16_gradients") << false; // Megatron-LM: fp32
    }
    void stackSwitchIsWrittenOffItsDefaultAndReadBack() {
        QFETCH(QString, key);
        QFETCH(bool, byDefault);
        const auto* stackSwitch =
            std::find_if(std::begin(kStackSwitches), std::end(kStackSwitches),
                         [&key](const StackSwitch& s) { return s.key == key.toStdString(); });
        QVERIFY(stackSwitch != std::end(kStackSwitches));
        const std::string name = key.toStdString();
        Scenario s = loadScenario(sampleData("scenarios/default.json"));
        QCOMPARE(s.job.*stackSwitch->member, byDefault);
        QVERIFY(toJson(s).find("job")->find(name) == nullptr); // the default: earlier hashes stay
        const std::string defaultHash = scenarioHash(s);
        s.job.*stackSwitch->member = !byDefault;
        QCOMPARE(toJson(s).find("job")->find(name)->toBool(), !byDefault);
        const Scenario again = reparse(s, s.sourceFile);
        QCOMPARE(again.job.*stackSwitch->member, !byDefault);
        QVERIFY(scenarioHash(again) != defaultHash); // a stored run knows which it was
    }

    // A switch that does not apply to the job (16-bit gradients in 32-bit training) is left out, so what
    // the writer writes the reader reads back (it refuses the key there: tst_malformed_config).
    void stackSwitchThatDoesNotApplyIsLeftOut() {
        Scenario s = loadScenario(sampleData("scenarios/default.json"));
        s.job.bf16Gradients = true;
        QCOMPARE(toJson(s).find("job")->find("bf16_gradients")->toBool(), true);
        s.job.precision = Precision::TF32;
        QVERIFY(toJson(s).find("job")->find("bf16_gradients") == nullptr);
        const Scenario again = reparse(s, s.sourceFile);
        QVERIFY(again.job.precision == Precision::TF32);
        QCOMPARE(again.job.bf16Gradients, false);
    }

    void writerUsesPresetIdsOnlyForUnchangedPresets() {
        Scenario s = loadScenario(sampleData("scenarios/default.json"));
        JsonValue json = toJson(s);
        QCOMPARE(json.find("cluster")->toString(), std::string("dgx-a100-80gb"));
        QCOMPARE(json.find("job")->find("model")->toString(), std::string("gpt3-175b"));

        s.cluster.pue = 1.5;
        s.job.model.seqLen = 4096;
        json = toJson(s);
        QVERIFY(json.find("cluster")->isObject());
        QVERIFY(json.find("job")->find("model")->isObject());
        const Scenario again = parseScenario(json, s.sourceFile);
        QCOMPARE(again.cluster.pue, 1.5);
        QCOMPARE(again.job.model.seqLen, 4096);
    }

    void writerEmitsPathsRelativeToTheNewDirectory() {
        const Scenario s = loadScenario(sampleData("scenarios/default.json"));
        // Saved next to the config fixtures, the trace is three levels up then into sample_data.
        const JsonValue json = toJson(s, configFixture(""));
        QCOMPARE(json.find("regions")->items()[0].find("trace")->toString(),
                 std::string("../../../sample_data/traces/US-CAL-CISO_2022.csv"));
        // And in the scenario's own folder it is written as it was read.
        QCOMPARE(toJson(s).find("regions")->items()[0].find("trace")->toString(),
                 std::string("../traces/US-CAL-CISO_2022.csv"));
    }

    // Issue 41: an Electricity Maps file's direct (operational) column, asked for by the region, is another
    // trace with another identity; an unknown factor is refused where it stands.
    void aRegionMayAskForTheDirectIntensity() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string trace =
            std::string(CARBON3D_SOURCE_DIR) + "/tests/data/traces/DE_2022_electricitymaps.csv";
        const auto scenarioWith = [&](const std::string& factor) {
            std::string text = readTextFile(sampleData("scenarios/default.json"));
            const std::string regions = "\"regions\": [";
            const std::size_t at = text.find(regions);
            const std::size_t end = text.find(']', at);
            text.replace(at, end + 1 - at,
                         regions + "{\"id\": \"DE\", \"trace\": \"" + trace + "\"" +
                             (factor.empty() ? "" : ", \"emission_factor\": \"" + factor + "\"") + "}]");
            const std::string june = "2022-06-01T00:00:00Z";
            text.replace(text.find(june), june.size(), "2022-01-01T00:00:00Z"); // inside the fixture's 72 h
            const std::string path = dir.filePath(QStringLiteral("de.json")).toStdString();
            writeFile(path, text);
            return path;
        };
        const Scenario lifeCycle = loadScenario(scenarioWith(""));
        const Scenario direct = loadScenario(scenarioWith("direct"));
        QCOMPARE(direct.regions[0].trace.gPerKwh[0], 182.44); // the fixture's direct column, parsed exactly
        QCOMPARE(lifeCycle.regions[0].trace.gPerKwh[0], 212.91);
        QVERIFY(scenarioHash(direct) != scenarioHash(lifeCycle)); // two traces of one file, told apart
        QCOMPARE(toJson(direct).find("regions")->items()[0].find("emission_factor")->toString(),
                 std::string("direct"));
        QCOMPARE(scenarioHash(loadScenario(scenarioWith("lifecycle"))), scenarioHash(lifeCycle));
        try {
            loadScenario(scenarioWith("weekly"));
            QFAIL("an unknown emission factor loaded");
        } catch (const InputError& error) {
            QVERIFY2(error.problem().find("unknown emission_factor 'weekly'") != std::string::npos,
                     error.what());
            QVERIFY(error.line() > 0 && error.column() > 0);
        }
    }

    void savedElsewhereLoadsTheSameTraces() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Scenario original = loadScenario(configFixture("scenario_full.json"));
        const std::string target = dir.filePath(QStringLiteral("moved.json")).toStdString();
        writeFile(target, toJson(original, directoryOf(target)).dump(2));
        const Scenario moved = loadScenario(target);
        QCOMPARE(moved.regions[0].trace.provenance.contentSha256,
                 original.regions[0].trace.provenance.contentSha256);
        QCOMPARE(moved.operatingPoints->points.size(), original.operatingPoints->points.size());
        // The same inputs in another folder: the same canonical text and hash.
        QCOMPARE(canonicalJson(moved), canonicalJson(original));
        QCOMPARE(scenarioHash(moved), scenarioHash(original));
    }

    void canonicalJsonIsSortedCompactAndPathFree() {
        const Scenario s = loadScenario(sampleData("scenarios/default.json"));
        const std::string text = canonicalJson(s);
        QVERIFY(text.rfind("{\"cluster\":{\"accelerator\":", 0) == 0); // sorted keys, cluster inline
        QVERIFY(text.find('\n') == std::string::npos);
        QVERIFY(text.find("traces/") == std::string::npos);
        QVERIFY(text.find("\"trace_sha256\":\"" + s.regions[0].trace.provenance.contentSha256 + "\"") !=
                std::string::npos);
        const JsonValue parsed = parseJson(text, "canonical");
        std::string previous;
        for (const JsonValue::Member& m : parsed.members()) {
            QVERIFY2(previous < m.key, m.key.c_str());
            previous = m.key;
        }
        QCOMPARE(canonicalJson(s), text); // deterministic
    }

    // An unset horizon follows the kind: the oracle sees the whole trace, a forecast service 48 h. A file
    // keeps only a horizon the scenario sets, and a 48-hour forecast hashes as it did when every file held
    // one.
    void forecastHorizonFollowsTheKindUnlessSet() {
        Scenario s = loadScenario(sampleData("scenarios/default.json")); // operational, no horizon
        QVERIFY(!s.forecast.horizonHours);
        QCOMPARE(s.forecast.effectiveHorizonHours(), 48.0);
        QVERIFY(canonicalJson(s).find("\"horizon_hours\":48") != std::string::npos);
        QVERIFY(toJson(s).find("forecast")->find("horizon_hours") == nullptr);
        const std::string leftToTheKind = scenarioHash(s);
        s.forecast.horizonHours = 48.0;
        QCOMPARE(scenarioHash(s), leftToTheKind); // the same forecast either way
        QVERIFY(toJson(s).find("forecast")->find("horizon_hours") != nullptr);

        s.forecast.kind = "oracle";
        const std::string oracleFor48Hours = scenarioHash(s);
        s.forecast.horizonHours.reset();
        QVERIFY(std::isinf(s.forecast.effectiveHorizonHours()));
        QVERIFY(scenarioHash(s) != oracleFor48Hours); // a stored run knows which it was
        QVERIFY(canonicalJson(s).find("horizon_hours") == std::string::npos);
        QVERIFY(!reparse(s, s.sourceFile).forecast.horizonHours);
    }

    void hashChangesWithEveryInput_data() {
        QTest::addColumn<int>("mutation");
        QTest::newRow("tokens") << 0;
        QTest::newRow("gpus") << 1;
        QTest::newRow("pue") << 2;
        QTest::newRow("deadline") << 3;
        QTest::newRow("policy option") << 4;
        QTest::newRow("modelling") << 5;
        QTest::newRow("trace content") << 6;
        QTest::newRow("model shape") << 7;
        QTest::newRow("forecast seed") << 8;
        QTest::newRow("operating point") << 9;
    }

    void hashChangesWithEveryInput() {
        QFETCH(int, mutation);
        const Scenario original = loadScenario(configFixture("scenario_full.json"));
        Scenario changed = original;
        const std::vector<std::function<void(Scenario&)>> mutations{
            [](Scenario& s) { s.job.tokens *= 2; },
            [](Scenario& s) { s.gpus -= 1; },
            [](Scenario& s) { s.cluster.pue += 0.01; },
            [](Scenario& s) { s.deadline.value += 1; },
            [](Scenario& s) { s.policies[1].options["percentile"] = "31"; },
            [](Scenario& s) { s.modelling.preemptionSeconds += 1; },
            [](Scenario& s) { s.regions[0].trace.provenance.contentSha256[0] ^= 1; },
            [](Scenario& s) { s.job.model.layers += 1; },
            [](Scenario& s) { s.forecast.seed += 1; },
            [](Scenario& s) { s.operatingPoints->points[0].powerW += 1; },
        };
        mutations[static_cast<size_t>(mutation)](changed);
        const std::string hash = scenarioHash(original);
        QCOMPARE(hash.size(), size_t(64));
        QVERIFY(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
        QVERIFY(scenarioHash(changed) != hash);
        QCOMPARE(scenarioHash(Scenario(original)), hash);
    }

    void inMemoryTraceIsHashedByValue() {
        Scenario s = loadScenario(configFixture("scenario_full.json"));
        s.regions[0].trace.provenance.contentSha256.clear();
        const std::string before = scenarioHash(s);
        s.regions[0].trace.gPerKwh[10] += 1.0;
        QVERIFY(scenarioHash(s) != before);
    }

    void inlineOperatingPointsAndShorthandPolicies() {
        const std::string base = configFixture("bad/scenario_ok.json");
        JsonValue json = readJsonFile(base);
        json.insert(
            "operating_points",
            parseJson("[{\"dp\": 1, \"throughput\": 10, \"power_w\": 400}, {\"dp\": 2, \"throughput\": 19, "
                      "\"power_w\": 800, \"power_scope\": \"node\"}]",
                      base));
        const Scenario s = parseScenario(json, base);
        QCOMPARE(s.operatingPoints->points.size(), size_t(2));
        QCOMPARE(s.operatingPoints->points[1].dp, std::optional<int>(2));
        QVERIFY(s.operatingPoints->points[0].powerScope == PowerScope::Gpu); // the default
        QVERIFY(s.operatingPoints->points[1].powerScope == PowerScope::Node);
        QCOMPARE(s.policies[0].name, std::string("static-max"));
        const Scenario again = reparse(s, base);
        QCOMPARE(canonicalJson(again), canonicalJson(s));
    }
};

QTEST_GUILESS_MAIN(TestScenarioJson)
#include "tst_scenario_json.moc"
