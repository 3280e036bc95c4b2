// SPDX-License-Identifier: MIT
#include "domain/Time.h"

#include <QTest>

using namespace carbon3d;

class TestTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesIsoForms_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("expected");
        // 2022-01-01T00:00:00Z = 1640995200 (52 years incl. 13 leap days: (52*365+13)*86400).
        QTest::newRow("zulu") << QStringLiteral("2022-01-01T00:00:00Z") << qint64(1640995200);
        QTest::newRow("space, no zone") << QStringLiteral("2022-01-01 00:00:00") << qint64(1640995200);
        QTest::newRow("offset") << QStringLiteral("2022-01-01T02:00:00+02:00") << qint64(1640995200);
        QTest::newRow("fraction") << QStringLiteral("2022-01-01T00:00:00.000Z") << qint64(1640995200);
        QTest::newRow("date only") << QStringLiteral("2022-01-01") << qint64(1640995200);
        QTest::newRow("minutes only") << QStringLiteral("2022-01-01T01:30Z") << qint64(1640995200 + 5400);
        QTest::newRow("leap day") << QStringLiteral("2024-02-29T00:00:00Z") << qint64(1709164800);
    }
    void parsesIsoForms() {
        QFETCH(QString, text);
        QFETCH(qint64, expected);
        const auto parsed = parseIsoDateTime(text.toStdString());
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, expected);
        QCOMPARE(parseIsoDateTime(formatIsoUtc(*parsed)).value(), expected);
    }

    void rejectsNonsense() {
        for (const char* text : {"2022-13-01T00:00:00Z", "2022-02-29T00:00:00Z", "2022-01-01T24:00:00Z",
                                 "yesterday", "2022-01-01T00:00:00Q", "2022-1-1", ""})
            QVERIFY2(!parseIsoDateTime(text).has_value(), text);
    }

    void localTimeUsesTheZoneDatabase() {
        // 2022-06-01T00:00Z: Los Angeles is on PDT (UTC-7); in January PST (UTC-8).
        QCOMPARE(utcOffsetSeconds("America/Los_Angeles", 1654041600).value(), -7 * 3600);
        QCOMPARE(utcOffsetSeconds("America/Los_Angeles", 1640995200).value(), -8 * 3600);
        QVERIFY(!utcOffsetSeconds("Mars/Olympus_Mons", 0).has_value());
    }
};

QTEST_GUILESS_MAIN(TestTime)
#include "tst_time.moc"
