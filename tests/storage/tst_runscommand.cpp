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
                 2); // neither --csv nor --table
    }

    // Issue 41 item 5: several runs into one tidy table for pandas or R, in analysts' units.
    void exportWritesOneTidyTableOfTheSelectedRuns() {
        const std::string table = m_dir.filePath(QStringLiteral("runs.csv")).toStdString();
        const CliResult r = runCliCaptured({"runs", "export", "all", "--table", table, "--db", m_db});
        QCOMPARE(r.code, 0);
        QFile file(QString::fromStdString(table));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3); // the header and the two runs, oldest first
        const QStringList header = lines[0].split(QLatin1Char(','));
        for (const char* column : {"run_id", "scenario", "policy", "region", "start", "emissions_kg",
                                   "energy_kwh", "completion_hours", "cost_usd"})
            QVERIFY2(header.contains(QLatin1String(column)), column);
        const auto cell = [&](int line, const char* column) {
            return lines[line].split(QLatin1Char(','))[header.indexOf(QLatin1String(column))];
        };
        QCOMPARE(cell(1, "run_id"), QString::number(m_base));
        QCOMPARE(cell(2, "policy"), QStringLiteral("dynamic-3d"));
        QCOMPARE(cell(1, "region"), QStringLiteral("US-CAL-CISO"));
        QCOMPARE(cell(1, "emissions_kg"), QStringLiteral("2000"));   // 2e6 g / 1000, exact in binary
        QCOMPARE(cell(1, "energy_kwh"), QStringLiteral("1000"));     // 3.6e9 J / 3.6e6, exact
        QCOMPARE(cell(1, "completion_hours"), QStringLiteral("10")); // 36,000 s / 3600, exact

        // A range and a filter narrow the selection; an id that is not saved is named.
        QCOMPARE(runCliCaptured({"runs", "export", std::to_string(m_base) + "-" + std::to_string(m_better),
                                 "--policy", "dynamic-3d", "--table", table, "--db", m_db})
                     .code,
                 0);
        QFile narrowed(QString::fromStdString(table)); // written anew (atomically): another file
        QVERIFY(narrowed.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(narrowed.readAll()).count(QLatin1Char('\n')), 2); // header + dynamic-3d
        const CliResult missing = runCliCaptured({"runs", "export", "999", "--table", table, "--db", m_db});
        QCOMPARE(missing.code, 2);
        QVERIFY2(contains(missing.err, "no saved run 999"), missing.err.c_str());
    }

    void exportWritesTheSeriesInAnalystsUnitsOnRequest() {
        const QString dir = m_dir.filePath(QStringLiteral("analyst"));
        QCOMPARE(runCliCaptured({"runs", "export", std::to_string(m_base), "--csv", dir.toStdString(),
                                 "--units", "analyst", "--db", m_db})
                     .code,
                 0);
        QFile series(dir + QStringLiteral("/run-%1-series.csv").arg(m_base));
        QVERIFY(series.open(QIODevice::ReadOnly));
        const QStringList header = QString::fromUtf8(series.readLine()).trimmed().split(QLatin1Char(','));
        QVERIFY(header.contains(QStringLiteral("emissions_kg")) &&
                header.contains(QStringLiteral("energy_kwh")));
        QVERIFY(!header.contains(QStringLiteral("emissions_g")));
        // Each row's kg is its g / 1000: the sum of the column is the saved series' operational total in kg.
        const StoredRun saved = ResultsStore(m_db).loadRun(m_base);
        double sumKg = 0.0;
        double sumG = 0.0;
        for (const IntervalRecord& interval : saved.result.series)
            sumG += interval.emissionsG;
        while (!series.atEnd()) {
            const QStringList cells = QString::fromUtf8(series.readLine()).trimmed().split(QLatin1Char(','));
            sumKg += cells[header.indexOf(QStringLiteral("emissions_kg"))].toDouble();
        }
        // 1e-12 relative: 48 shortest-round-trip values summed in the same order.
        QVERIFY(std::abs(sumKg - sumG / 1000.0) <= 1e-12 * std::abs(sumG / 1000.0));
        QCOMPARE(runCliCaptured({"runs", "export", std::to_string(m_base), "--csv", dir.toStdString(),
                                 "--units", "tons", "--db", m_db})
                     .code,
                 2);
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
