// SPDX-License-Identifier: MIT
#include "ConfigTestPaths.h"
#include "config/OperatingPointsCsv.h"
#include "domain/InputError.h"

#include <QTest>

using namespace carbon3d;

class TestOperatingPointsCsv : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsFixture() {
        const std::string path = configFixture("points.csv");
        const OperatingPointTable table = loadOperatingPoints(path);
        QCOMPARE(table.sourceFile, path);
        QCOMPARE(table.points.size(), size_t(4));
        const OperatingPoint& first = table.points[0];
        QCOMPARE(first.dp, std::optional<int>(1));
        QCOMPARE(first.tp, std::optional<int>(8));
        QCOMPARE(first.pp, std::optional<int>(1));
        QVERIFY(!first.microBatch.has_value()); // not a column of this file
        QVERIFY(!first.powerLimitW.has_value());
        QCOMPARE(first.throughput, 1200.5); // exactly representable decimal
        QCOMPARE(first.powerW, 2900.0);
        QCOMPARE(first.line, 2);
        QCOMPARE(table.points[3].line, 5);
        QCOMPARE(table.points[2].throughput, 4550.25);
    }

    void headerDecidesTheKnobs() {
        const OperatingPointTable table = parseOperatingPoints(
            "power_limit_w , throughput,power_w\r\n150, 61.5,144.6\r\n300,100,235.2\r\n\r\n", "z.csv");
        QCOMPARE(table.points.size(), size_t(2));
        QVERIFY(!table.points[0].dp.has_value());
        QCOMPARE(table.points[0].powerLimitW, std::optional<double>(150.0));
        QCOMPARE(table.points[1].powerW, 235.2); // same text, same double
    }

    void columnsInAnyOrder() {
        const OperatingPointTable table =
            parseOperatingPoints("power_w,throughput,micro_batch\n500,20,2\n", "o.csv");
        QCOMPARE(table.points[0].powerW, 500.0);
        QCOMPARE(table.points[0].throughput, 20.0);
        QCOMPARE(table.points[0].microBatch, std::optional<int>(2));
    }

    void roundTripsThroughCsvWriter() {
        const OperatingPointTable table = loadOperatingPoints(configFixture("points.csv"));
        const OperatingPointTable again = parseOperatingPoints(toCsv(table), "again.csv");
        QCOMPARE(again.points.size(), table.points.size());
        for (size_t i = 0; i < table.points.size(); ++i) {
            QCOMPARE(again.points[i].dp, table.points[i].dp);
            QCOMPARE(again.points[i].tp, table.points[i].tp);
            QCOMPARE(again.points[i].pp, table.points[i].pp);
            QCOMPARE(again.points[i].microBatch, table.points[i].microBatch);
            QCOMPARE(again.points[i].powerLimitW, table.points[i].powerLimitW);
            // Shortest round-trip formatting: the same double comes back.
            QCOMPARE(again.points[i].throughput, table.points[i].throughput);
            QCOMPARE(again.points[i].powerW, table.points[i].powerW);
        }
    }

    void rejectsMalformedText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("empty") << QString() << 1 << 1 << QStringLiteral("empty file");
        QTest::newRow("header only") << QStringLiteral("throughput,power_w\n") << 1 << 1
                                     << QStringLiteral("no operating points");
        QTest::newRow("repeated column") << QStringLiteral("dp,dp,throughput,power_w\n1,1,1,1\n") << 1 << 4
                                         << QStringLiteral("appears twice");
        QTest::newRow("missing power_w") << QStringLiteral("throughput\n5\n") << 1 << 1
                                         << QStringLiteral("missing required column 'power_w'");
        QTest::newRow("short row") << QStringLiteral("dp,throughput,power_w\n1,5\n") << 2 << 1
                                   << QStringLiteral("expected 3 fields");
        QTest::newRow("not a number") << QStringLiteral("dp,throughput,power_w\n1,fast,5\n") << 2 << 3
                                      << QStringLiteral("throughput must be a number, found 'fast'");
        QTest::newRow("zero throughput") << QStringLiteral("dp,throughput,power_w\n1,0,5\n") << 2 << 3
                                         << QStringLiteral("throughput must be greater than 0");
        QTest::newRow("zero tp") << QStringLiteral("tp,throughput,power_w\n0,1,5\n") << 2 << 1
                                 << QStringLiteral("tp must be a positive integer");
        QTest::newRow("trailing garbage") << QStringLiteral("dp,throughput,power_w\n1,2x,5\n") << 2 << 3
                                          << QStringLiteral("must be a number");
        QTest::newRow("duplicate without knobs")
            << QStringLiteral("throughput,power_w\n1,5\n2,6\n") << 3 << 1 << QStringLiteral("as line 2");
    }

    void rejectsMalformedText() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, phrase);
        try {
            parseOperatingPoints(text.toStdString(), "bad.csv");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.file(), std::string("bad.csv"));
            QCOMPARE(error.line(), line);
            QCOMPARE(error.column(), column);
            QVERIFY2(error.problem().find(phrase.toStdString()) != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestOperatingPointsCsv)
#include "tst_operating_points_csv.moc"
