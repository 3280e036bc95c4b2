// SPDX-License-Identifier: MIT
#include "ConfigTestPaths.h"
#include "config/ClusterProfileJson.h"
#include "config/ModelSpecJson.h"
#include "config/OperatingPointsCsv.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"

#include <QTest>

using namespace carbon3d;

// One row per malformed fixture in tests/data/config/bad/: which loader reads it, where the error
// must point (file, line, column) and a phrase the message must contain. Positions are counted by
// hand from the fixture text (1-based; the column of the offending key or value).
class TestMalformedConfig : public QObject {
    Q_OBJECT
    static void addRow(const char* name, const char* kind, const char* fixture, const char* errorFile,
                       int line, int column, const char* phrase) {
        QTest::newRow(name) << QString::fromUtf8(kind) << QString::fromUtf8(fixture)
                            << QString::fromUtf8(errorFile) << line << column << QString::fromUtf8(phrase);
    }

private Q_SLOTS:
    void fixtureOkLoads() {
        // The base the scenario rows are derived from is itself valid, so each row fails for its one change.
        const Scenario s = loadScenario(configFixture("bad/scenario_ok.json"));
        QCOMPARE(s.gpus, 64);
    }

    void rejects_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("errorFile"); // empty: the fixture itself
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column"); // -1: not checked (error from another area's loader)
        QTest::addColumn<QString>("phrase");

        // Models: base lines are 1 "{", 2 schema, 3 id, 4 layers, 5 hidden, 6 heads, 7 vocab, 8 seq_len.
        // '  "layers": ' is 12 characters, so the value is at column 13.
        addRow("wrong type", "model", "model_wrong_type.json", "", 4, 13,
               "'layers' must be an integer (layers), found a string");
        addRow("non-integer layers", "model", "model_layers_fraction.json", "", 4, 13,
               "must be an integer (layers), found 32.5");
        addRow("missing schema", "model", "model_missing_schema.json", "", 1, 1, "missing key 'schema'");
        addRow("newer schema", "model", "model_newer_schema.json", "", 2, 13, "written by a newer Carbon3D");
        // '  "heads": ' is 11 characters -> value at 12.
        addRow("hidden % heads", "model", "model_hidden_heads.json", "", 6, 12,
               "'hidden' = 1600 is not divisible by 'heads' = 24");
        // '  "kv_heads": ' is 14 characters -> value at 15 on the inserted line 7.
        addRow("heads % kv_heads", "model", "model_kv_heads.json", "", 7, 15,
               "'heads' = 32 is not a multiple of 'kv_heads' = 5");

        // Clusters: line 6 is '    "peak_tflops": {"bf16": 989.4},'; the precision key starts at 21 and the
        // number at 29.
        addRow("sparse H100", "cluster", "cluster_sparse_h100.json", "", 6, 29,
               "accelerator.peak_tflops.bf16 = 1979 looks like the sparse (2:4) figure of "
               "an H100; Carbon3D needs the dense figure (989.4)");
        addRow("sparse unnamed", "cluster", "cluster_sparse_generic.json", "", 6, 29,
               "looks like a sparse (2:4) figure");
        addRow("unknown precision key", "cluster", "cluster_unknown_precision.json", "", 6, 21,
               "unknown precision 'bf61'");
        // '  "pue": ' is 9 characters -> value at 10 on line 16.
        addRow("out of range", "cluster", "cluster_pue_range.json", "", 16, 10,
               "'pue' = 0.5 is out of range; expected 1 to 3");
        addRow("unknown key", "cluster", "cluster_unknown_key.json", "", 19, 3, "unknown key 'colour'");
        // '  "sources": {' is 14 characters -> the key starts at 15.
        addRow("sources typo", "cluster", "cluster_sources_typo.json", "", 19, 15,
               "unknown key 'sources.accelerator.tdp'; did you mean 'accelerator.tdp_w'?");

        // Scenarios: 4 job, 5 cluster, 6 gpus, 7 regions, 8 start, 9 deadline, 10 policies.
        addRow("typo'd required key", "scenario", "scenario_typo_deadline.json", "", 9, 3,
               "unknown key 'deadine'; did you mean 'deadline'?");
        addRow("typo'd optional key", "scenario", "scenario_nested_typo.json", "", 11, 17,
               "unknown key 'modelling.backfil'; did you mean 'backfill'?");
        addRow("unknown precision", "scenario", "scenario_unknown_precision.json", "", 4, 81,
               "unknown precision 'bf61'");
        addRow("precision not on hardware", "scenario", "scenario_fp8_on_a100.json", "", 4, 81,
               "precision fp8 is not supported by NVIDIA A100 80GB SXM4");
        // '  "job": {"model": "llama2-7b", "tokens": 1e9, "global_batch": 64, "precision": "bf16",
        // "fp8_weights": ' is 103 characters -> 104.
        addRow("fp8 weights outside fp8", "scenario", "scenario_fp8_weights_bf16.json", "", 4, 104,
               "'job.fp8_weights' applies to fp8 training only; this job trains in bf16");
        // '  "job": {"model": "llama2-7b", "tokens": 1e9, "global_batch": 64, "precision": "tf32",
        // "bf16_gradients": ' is 106 characters -> 107.
        addRow("16-bit gradients in 32-bit training", "scenario", "scenario_bf16_gradients_tf32.json", "", 4,
               107, "'job.bf16_gradients' applies to 16-bit and fp8 training only; this job trains in tf32");
        // '  "job": {"model": "llama2-7b", "tokens": 1e9, "global_batch": 64, "precision": "bf16",
        // "context_parallel": ' is 108 characters -> 109.
        addRow("context parallelism that does not split the sequence", "scenario",
               "scenario_context_parallel_split.json", "", 4, 109,
               "'job.context_parallel' 3 does not split the sequence: its length 4096 must be a multiple of "
               "2 x 3");
        // '  "gpus": ' is 10 characters -> 11.
        addRow("too many GPUs", "scenario", "scenario_too_many_gpus.json", "", 6, 11,
               "'gpus' = 2048 is more than the cluster has available (1024");
        // '  "start": ' is 11 characters -> 12.
        addRow("start outside trace", "scenario", "scenario_start_outside_trace.json", "", 8, 12,
               "is outside the trace of region 'TEST'");
        // '  "deadline": ' is 14 characters -> the object's brace at 15.
        addRow("deadline hours and slack", "scenario", "scenario_deadline_both.json", "", 9, 15,
               "exactly one of 'hours'");
        // '  "cluster": ' is 13 characters -> 14.
        addRow("unknown cluster preset", "scenario", "scenario_unknown_cluster.json", "", 5, 14,
               "unknown cluster preset 'dgx-a100-80g'");
        // The trace loader's own error, unchanged: it names the trace file and its line 3 ("abc").
        // What simulate refuses, validate refuses, at the value (issue 13, item 5).
        addRow("unknown policy", "scenario", "scenario_unknown_policy.json", "", 10, 30,
               "expected a policy name");
        addRow("policy option out of range", "scenario", "scenario_policy_option_range.json", "", 10, 69,
               "expected option 'percentile' to be a number in [0, 100], found '-1'");
        addRow("unknown policy option", "scenario", "scenario_unknown_policy_option.json", "", 10, 64,
               "unknown option 'label'");
        addRow("unknown forecast kind", "scenario", "scenario_unknown_forecast.json", "", 10, 24,
               "expected a forecast kind");
        // '  "job": {"model": "llama2-7b", "tokens": 1e9, "global_batch": 64, "work": ' is 75 characters.
        addRow("negative measured work", "scenario", "scenario_negative_work.json", "", 4, 76,
               "'job.work' = -4 work units is out of range");
        // Issue 40, item 10: a decision interval of 1 s passed the reader and was refused by the engine with
        // no line. '  "modelling": {"decision_interval_seconds": ' is 45 characters.
        addRow(
            "decision interval under a minute", "scenario", "scenario_decision_interval.json", "", 11, 46,
            "expected 'modelling.decision_interval_seconds' to be 0 or a number in [60, 2592000] s, found 1");
        addRow("trace error surfaces", "scenario", "scenario_bad_trace.json", "bad/trace_broken.csv", 3, -1,
               "abc");

        // Operating points CSV.
        addRow("csv missing throughput", "points", "points_missing_throughput.csv", "", 1, 1,
               "missing required column 'throughput'");
        addRow("csv non-integer dp", "points", "points_non_integer_dp.csv", "", 3, 1,
               "dp must be a positive integer, found '2.5'");
        // '2,180,' is 6 characters -> the power at 7.
        addRow("csv negative power", "points", "points_negative_power.csv", "", 3, 7,
               "power_w must be greater than 0, found '-50'");
        // Issue 40, item 10: 1e308 W passed validate and failed in the oracle.
        addRow("csv absurd power", "points", "points_absurd_power.csv", "", 3, 7,
               "power_w must be at most 1e9 W (a gigawatt), found '1e308'");
        addRow("csv duplicate point", "points", "points_duplicate.csv", "", 4, 1,
               "duplicate operating point: same dp, tp, pp, micro_batch and "
               "power_limit_w as line 2");
        // '120,2400,' is 9 characters -> 10.
        addRow("csv unknown power scope", "points", "points_bad_power_scope.csv", "", 3, 10,
               "power_scope must be gpu, node or facility (what power_w covers), found 'wall'");
        // 'dp,tp,throughput,power_w,' is 25 characters -> 26.
        addRow("csv unknown column", "points", "points_unknown_column.csv", "", 1, 26,
               "unknown column 'watts'");
    }

    void rejects() {
        QFETCH(QString, kind);
        QFETCH(QString, fixture);
        QFETCH(QString, errorFile);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, phrase);
        const std::string path = configFixture("bad/" + fixture.toStdString());
        try {
            if (kind == QStringLiteral("model"))
                loadModelSpec(path);
            else if (kind == QStringLiteral("cluster"))
                loadClusterProfile(path);
            else if (kind == QStringLiteral("scenario"))
                loadScenario(path);
            else
                loadOperatingPoints(path);
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            const std::string expectedFile =
                errorFile.isEmpty() ? path : configFixture(errorFile.toStdString());
            QCOMPARE(error.file(), expectedFile);
            QCOMPARE(error.line(), line);
            if (column >= 0)
                QCOMPARE(error.column(), column);
            QVERIFY2(error.problem().find(phrase.toStdString()) != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestMalformedConfig)
#include "tst_malformed_config.moc"
