// SPDX-License-Identifier: MIT
#include "StorageSamples.h"
#include "cli/Command.h"
#include "domain/Json.h"
#include "storage/ResultsStore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <sstream>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

struct CliResult {
    int code = 0;
    std::string out;
    std::string err;
};

CliResult runCliCaptured(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    CliResult r;
    r.code = cli::runCli(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

RunResult runWithTotal(double operationalG, double embodiedG, const std::string& policy) {
    RunResult run = sampleRun(48, 1, policy);
    run.metrics.operationalG = operationalG;
    run.metrics.embodiedG = embodiedG;
    run.metrics.totalG = operationalG + embodiedG;
    run.metrics.energyJ = 3.6e9;              // 1000 kWh
    run.metrics.completionSeconds = 36000;    // 10 h
    run.metrics.costUsd = operationalG / 1e3; // a different cost per run: 1,900 and 1,400 USD below
    return run;
}

} // namespace

class TestRunsCommand : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_db;
    RunId m_base = 0;
    RunId m_better = 0;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("results.sqlite")).toStdString();
        ResultsStore store(m_db);
        m_base = store.saveRun(sampleScenario("June CAISO"), runWithTotal(1.9e6, 1.0e5, "static-max"),
                               sampleTraces());
        m_better = store.saveRun(sampleScenario("June CAISO"), runWithTotal(1.4e6, 1.0e5, "dynamic-3d"),
                                 sampleTraces());
    }

    void listShowsEveryRun() {
        const CliResult r = runCliCaptured({"runs", "list", "--db", m_db});
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "June CAISO / static-max") && contains(r.out, "June CAISO / dynamic-3d"),
                 r.out.c_str());
        QVERIFY(contains(r.out, "2000.0")); // static-max: 1.9e6 + 1e5 g = 2000 kg, printed with one decimal

        const CliResult j =
            runCliCaptured({"runs", "list", "--db", m_db, "--json", "--policy", "dynamic-3d"});
        QCOMPARE(j.code, 0);
        const JsonValue doc = parseJson(j.out, "stdout");
        QCOMPARE(doc.find("runs")->items().size(), std::size_t(1));
        const JsonValue& run = doc.find("runs")->items().front();
        QCOMPARE(run.find("id")->toNumber(), double(m_better));
        QCOMPARE(run.find("emissions_kg")->toNumber(), 1500.0); // total: 1.5e6 g / 1000, exact in binary
        QCOMPARE(run.find("energy_kwh")->toNumber(), 1000.0);   // 3.6e9 J / 3.6e6, exact in binary
        QCOMPARE(run.find("region")->toString(), std::string("US-CAL-CISO"));
    }

    void showPrintsTheRun() {
        const CliResult r = runCliCaptured({"runs", "show", std::to_string(m_base), "--db", m_db});
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "run " + std::to_string(m_base) + ": June CAISO / static-max"),
                 r.out.c_str());
        QVERIFY(contains(r.out, "Electricity Maps (ODbL)"));
        QVERIFY(contains(r.out, "48 intervals"));

        const CliResult j = runCliCaptured({"runs", "show", std::to_string(m_base), "--db", m_db, "--json"});
        const JsonValue doc = parseJson(j.out, "stdout");
        QCOMPARE(doc.find("policy")->toString(), std::string("static-max"));
        QCOMPARE(doc.find("traces")->items().size(), std::size_t(2));
        QCOMPARE(doc.find("intervals")->toNumber(), 48.0);
        QCOMPARE(doc.find("options")->find("horizon_steps")->toString(), std::string("200"));
    }

    void compareReportsSavings() {
        const CliResult j = runCliCaptured({"runs", "compare", std::to_string(m_better), "--baseline",
                                            std::to_string(m_base), "--db", m_db, "--json"});
        QCOMPARE(j.code, 0);
        const JsonValue doc = parseJson(j.out, "stdout");
        QCOMPARE(doc.find("baseline")->toNumber(), double(m_base));
        const JsonValue& row = doc.find("runs")->items().front();
        // 2000 kg - 1500 kg = 500 kg saved, 500 / 2000 = 25 %. Tolerance 1e-12 relative: one subtraction
        // and one division of exact binary values, then a division by 1000.
        QVERIFY(std::abs(row.find("saved_kg")->toNumber() - 500.0) <= 1e-12 * 500.0);
        QVERIFY(std::abs(row.find("saved_fraction")->toNumber() - 0.25) <= 1e-12 * 0.25);
        QVERIFY(row.find("same_scenario")->toBool());
        // 1,400 - 1,900 USD: the cheaper run's extra cost is negative. 1e-12: one exact subtraction.
        QVERIFY(std::abs(row.find("extra_cost_usd")->toNumber() + 500.0) <= 1e-12 * 500.0);

        const CliResult t = runCliCaptured(
            {"runs", "compare", std::to_string(m_base), std::to_string(m_better), "--db", m_db});
        QCOMPARE(t.code, 0);
        QVERIFY2(contains(t.out, "25.00"), t.out.c_str()); // saved % of the second run against the first
        QVERIFY2(contains(t.out, "+USD") && contains(t.out, "-500.00"), t.out.c_str());
    }

    void exportWritesTwoFiles() {
        const QString dir = m_dir.filePath(QStringLiteral("csv"));
        const CliResult r = runCliCaptured(
            {"runs", "export", std::to_string(m_base), "--csv", dir.toStdString(), "--db", m_db});
        QCOMPARE(r.code, 0);
        QVERIFY(QFile::exists(dir + QStringLiteral("/run-%1-series.csv").arg(m_base)));
        QVERIFY(QFile::exists(dir + QStringLiteral("/run-%1-metrics.csv").arg(m_base)));
        QCOMPARE(runCliCaptured({"runs", "export", std::to_string(m_base), "--db", m_db}).code,
                 2); // --csv missing
    }

    void renameAndDelete() {
        ResultsStore store(m_db);
        const RunId extra = store.saveRun(sampleScenario("scratch"), sampleRun(3, 2), sampleTraces());
        const std::string id = std::to_string(extra);
        QCOMPARE(runCliCaptured({"runs", "rename", id, "keep me", "--db", m_db}).code, 0);
        QCOMPARE(store.loadRun(extra).summary.name, std::string("keep me"));
        QCOMPARE(runCliCaptured({"runs", "delete", id, "--db", m_db}).code, 0);
        const CliResult again = runCliCaptured({"runs", "show", id, "--db", m_db});
        QCOMPARE(again.code, 1);
        QVERIFY2(contains(again.err, "no run with id " + id), again.err.c_str());
    }

    void usageMistakesExitWithTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no action") << QStringList{QStringLiteral("runs")};
        QTest::newRow("unknown action") << QStringList{QStringLiteral("runs"), QStringLiteral("purge")};
        QTest::newRow("id not a number")
            << QStringList{QStringLiteral("runs"), QStringLiteral("show"), QStringLiteral("abc")};
        QTest::newRow("show without id") << QStringList{QStringLiteral("runs"), QStringLiteral("show")};
        QTest::newRow("compare one run")
            << QStringList{QStringLiteral("runs"), QStringLiteral("compare"), QStringLiteral("1")};
        QTest::newRow("rename without name")
            << QStringList{QStringLiteral("runs"), QStringLiteral("rename"), QStringLiteral("1")};
    }
    void usageMistakesExitWithTwo() {
        QFETCH(QStringList, args);
        std::vector<std::string> argv;
        for (const QString& a : args)
            argv.push_back(a.toStdString());
        argv.emplace_back("--db");
        argv.push_back(m_db);
        const CliResult r = runCliCaptured(argv);
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "Usage: carbon3d-cli runs"), r.err.c_str());
    }

    void missingOrForeignDatabaseIsRefused() {
        const std::string missing = m_dir.filePath(QStringLiteral("nope/results.sqlite")).toStdString();
        const CliResult r = runCliCaptured({"runs", "list", "--db", missing});
        QCOMPARE(r.code, 1);
        QVERIFY2(contains(r.err, missing) && contains(r.err, "no results database"), r.err.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(missing))); // not created by a read

        const QString text = m_dir.filePath(QStringLiteral("notes.txt"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database, just some text that is long enough to fill a header............\n");
        f.close();
        const CliResult foreign = runCliCaptured({"runs", "list", "--db", text.toStdString()});
        QCOMPARE(foreign.code, 1);
        QVERIFY2(contains(foreign.err, "is not a SQLite database"), foreign.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRunsCommand)
#include "tst_runscommand.moc"
