// SPDX-License-Identifier: MIT
#include "SqliteProbe.h"
#include "StorageSamples.h"
#include "domain/InputError.h"
#include "storage/ResultsStore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <set>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

std::string fixture(const char* name) {
    QFile file(QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/storage/") + QString::fromLatin1(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

// Every table, index and view of the current schema (SQLite's own autoindexes excluded).
std::set<std::string> schemaObjects(const std::string& path) {
    std::set<std::string> names;
    for (const auto& row : queryRows(path, "SELECT type || ' ' || name FROM sqlite_master "
                                           "WHERE name NOT LIKE 'sqlite_autoindex%'"))
        names.insert(row.at(0));
    return names;
}

} // namespace

class TestStorageMigrations : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_counter = 0;
    std::string freshPath() {
        return m_dir.filePath(QStringLiteral("m%1.sqlite").arg(++m_counter)).toStdString();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void eachVersionHasExactlyItsObjects_data() {
        QTest::addColumn<int>("version");
        QTest::addColumn<QStringList>("objects");
        const QStringList v1 = {QStringLiteral("table scenarios"), QStringLiteral("table traces"),
                                QStringLiteral("table runs"),      QStringLiteral("table run_traces"),
                                QStringLiteral("table metrics"),   QStringLiteral("table series"),
                                QStringLiteral("table warnings")};
        QStringList v2 = v1;
        v2 << QStringLiteral("index runs_by_scenario") << QStringLiteral("index run_traces_by_trace")
           << QStringLiteral("view run_summary") << QStringLiteral("view run_savings");
        QTest::newRow("v0: empty") << 0 << QStringList();
        QTest::newRow("v1: tables") << 1 << v1;
        QTest::newRow("v2: names, indexes, views") << 2 << v2;
        QTest::newRow("v3: both ends of the attribution (columns and the same objects)") << 3 << v2;
        QStringList v4 = v2;
        v4 << QStringLiteral("table studies") << QStringLiteral("table study_cells")
           << QStringLiteral("view study_cell_summary");
        QTest::newRow("v4: studies") << 4 << v4;
        QTest::newRow("v5: cost (columns and the same objects)") << 5 << v4;
        QTest::newRow("v6: context parallelism (a column and the same objects)") << 6 << v4;
        QTest::newRow("v7: FSDP and recomputed blocks (columns and the same objects)") << 7 << v4;
        QTest::newRow("v8: where the saving comes from (columns and the same objects)") << 8 << v4;
    }
    void eachVersionHasExactlyItsObjects() {
        QFETCH(int, version);
        QFETCH(QStringList, objects);
        const std::string path = freshPath();
        ResultsStore::createWithSchemaVersion(path, version);
        QCOMPARE(queryInt(path, "PRAGMA user_version"), std::int64_t(version));
        std::set<std::string> expected;
        for (const QString& o : objects)
            expected.insert(o.toStdString());
        QVERIFY(schemaObjects(path) == expected);
        if (version >= 1)
            QCOMPARE(queryInt(path, "PRAGMA application_id"), std::int64_t(ResultsStore::kApplicationId));
    }

    void currentVersionIsTheLastMigration() {
        const std::string path = freshPath();
        { ResultsStore store(path); }
        const std::string last = freshPath();
        ResultsStore::createWithSchemaVersion(last, ResultsStore::kSchemaVersion);
        QVERIFY(schemaObjects(path) == schemaObjects(last));
    }

    void upgradesFromEveryEarlierVersion_data() {
        QTest::addColumn<int>("version");
        QTest::addColumn<QString>("dataFile");
        QTest::newRow("from v0 (empty file)") << 0 << QString();
        QTest::newRow("from v1 with a run") << 1 << QStringLiteral("v1_data.sql");
        QTest::newRow("from v2 with a run") << 2 << QStringLiteral("v2_data.sql");
        QTest::newRow("from v3 with a run") << 3 << QStringLiteral("v3_data.sql");
        QTest::newRow("from v4 with a run and a study cell") << 4 << QStringLiteral("v4_data.sql");
        QTest::newRow("from v5 with a costed run") << 5 << QStringLiteral("v5_data.sql");
        QTest::newRow("from v6 with a context-parallel run") << 6 << QStringLiteral("v6_data.sql");
        QTest::newRow("from v7 with a run before its saving was split") << 7 << QStringLiteral("v7_data.sql");
        QTest::newRow("from v8 with a run whose saving is split") << 8 << QStringLiteral("v8_data.sql");
        static_assert(ResultsStore::kSchemaVersion == 9, "add a row (and a vN_data.sql) for the new version");
    }
    void upgradesFromEveryEarlierVersion() {
        QFETCH(int, version);
        QFETCH(QString, dataFile);
        const std::string path = freshPath();
        ResultsStore::createWithSchemaVersion(path, version);
        if (!dataFile.isEmpty()) {
            const std::string sql = fixture(dataFile.toLatin1().constData());
            QVERIFY(!sql.empty());
            execSql(path, sql);
        }

        ResultsStore store(path);
        QCOMPARE(queryInt(path, "PRAGMA user_version"), std::int64_t(ResultsStore::kSchemaVersion));
        const std::string current = freshPath();
        ResultsStore::createWithSchemaVersion(current, ResultsStore::kSchemaVersion);
        QVERIFY(schemaObjects(path) == schemaObjects(current));

        if (version >= 1) {
            // The old run is intact; v2's name was backfilled from its scenario and policy (a v2 name kept).
            const StoredRun old = store.loadRun(1);
            QCOMPARE(old.summary.name, version == 1 ? std::string("June CAISO / static-max")
                                                    : "renamed in v" + std::to_string(version));
            QCOMPARE(old.result.policy, std::string("static-max"));
            QCOMPARE(old.result.options.at("a"), std::string("1"));
            QCOMPARE(old.programVersion, std::string("0.0.9"));
            QCOMPARE(old.result.metrics.totalG, 1500.0); // decimal literals that are exact binary doubles
            QCOMPARE(old.result.series.size(), std::size_t(3));
            QCOMPARE(old.result.series[1].emissionsG, 1025.0);
            QCOMPARE(old.result.series[2].activity, IntervalActivity::Paused);
            QCOMPARE(old.result.warnings,
                     std::vector<std::string>{"saved by schema version " + std::to_string(version)});
            // v3's totals at both ends were not kept before: unknown (NaN), not 0.
            if (version < 3) {
                QVERIFY(std::isnan(old.result.metrics.dedicatedG));
                QVERIFY(std::isnan(old.result.metrics.sharedG));
            } else {
                QCOMPARE(old.result.metrics.dedicatedG, 1600.0);
                QCOMPARE(old.result.metrics.sharedG, 1450.0);
            }
            // Cost came with v5: unknown (NaN) before, and no spot strikes.
            if (version < 5) {
                QVERIFY(std::isnan(old.result.metrics.costUsd));
                QVERIFY(std::isnan(old.result.metrics.gpuCostUsd));
                QVERIFY(std::isnan(old.result.series[0].gpuCostUsd));
            } else {
                QCOMPARE(old.result.metrics.costUsd, 11.0);
                QCOMPARE(old.result.metrics.gpuCostUsd, 8.0);
                QCOMPARE(old.result.series[0].gpuCostUsd, 4.0);
                QCOMPARE(old.result.series[2].electricityUsdPerKwh, 0.125);
            }
            QCOMPARE(old.result.metrics.spotPreemptions, 0);
            // Context parallelism came with v6: every earlier run ran without it. FSDP and recomputed blocks
            // were kept from v7: no earlier run used them.
            for (const IntervalRecord& interval : old.result.series) {
                QCOMPARE(interval.config.cp, version < 6 ? 1 : 2);
                QCOMPARE(interval.config.fullySharded, false);
                QCOMPARE(interval.config.recomputeLayers, 0);
                // Expert parallelism came with v9: every earlier run trained a dense model.
                QCOMPARE(interval.config.ep, 1);
                QCOMPARE(interval.config.expertTp, 1);
            }
            // The saving split came with v8: unknown (NaN) for every earlier run, at both ends.
            if (version < 8) {
                for (const SavingSplit& split :
                     {old.result.metrics.dedicatedSplit(), old.result.metrics.sharedSplit()}) {
                    QVERIFY(std::isnan(split.configurationG));
                    QVERIFY(std::isnan(split.timingG));
                    QVERIFY(std::isnan(split.beyondG));
                }
            } else {
                QCOMPARE(old.result.metrics.dedicatedSplit().totalG(), 100.0);
                QCOMPARE(old.result.metrics.sharedSplit().totalG(), 70.0);
            }
            QCOMPARE(old.traces.at(0).regionId, std::string("US-CAL-CISO"));
            // v2's views see it: 1500 g = 1.5 kg (exact in binary).
            QCOMPARE(queryRows(path, "SELECT total_kg FROM run_summary WHERE run_id = 1").at(0).at(0),
                     std::string("1.5"));
        }
        if (version == 4) {
            // A v4 study cell reads back with its metrics, its cost unknown.
            const std::vector<StoredCell> cells = store.loadCells(1);
            QCOMPARE(cells.size(), std::size_t(1));
            const RunMetrics metrics = metricsFromExactJson(cells[0].metricsJson, "cell");
            QCOMPARE(metrics.totalG, 1500.0);
            QVERIFY(std::isnan(metrics.costUsd));
            QCOMPARE(metrics.spotPreemptions, 0);
            QVERIFY(queryRows(path, "SELECT cost_usd FROM study_cell_summary").at(0).at(0) == "NULL");
        }
        // And the upgraded file takes new runs like a fresh one.
        const RunResult run = sampleRun(5, 1);
        const RunId id = store.saveRun(sampleScenario("after upgrade"), run, sampleTraces());
        QCOMPARE(QString::fromStdString(firstDifference(run, store.loadRun(id).result)), QString());
        QVERIFY(store.integrityCheck().empty());
    }

    void failedMigrationRollsBackToTheEarlierVersion() {
        // A v1 file that already holds an object named like one v2 creates: migration 2 fails half-way
        // (after its ALTER TABLE and UPDATE), and its transaction must leave the file exactly at v1.
        const std::string path = freshPath();
        ResultsStore::createWithSchemaVersion(path, 1);
        execSql(path, fixture("v1_data.sql"));
        execSql(path, "CREATE VIEW run_savings AS SELECT 1");
        bool refused = false;
        try {
            ResultsStore store(path);
        } catch (const InputError& error) {
            refused = std::string(error.what()).find("migration to version 2") != std::string::npos;
        }
        QVERIFY(refused);
        QCOMPARE(queryInt(path, "PRAGMA user_version"), std::int64_t(1));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'name'"),
                 std::int64_t(0)); // the ALTER TABLE was rolled back
        QCOMPARE(queryInt(path, "SELECT count(*) FROM sqlite_master WHERE name = 'runs_by_scenario'"),
                 std::int64_t(0));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM series"), std::int64_t(3));
    }

    void reopeningChangesNothing() {
        const std::string path = freshPath();
        {
            ResultsStore store(path);
            store.saveRun(sampleScenario("A"), sampleRun(3, 1), sampleTraces());
        }
        const auto before = queryRows(path, "SELECT * FROM run_summary");
        { ResultsStore store(path); }
        QCOMPARE(queryInt(path, "PRAGMA user_version"), std::int64_t(ResultsStore::kSchemaVersion));
        QVERIFY(queryRows(path, "SELECT * FROM run_summary") == before);
    }
};

QTEST_GUILESS_MAIN(TestStorageMigrations)
#include "tst_storagemigrations.moc"
