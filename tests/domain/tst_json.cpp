// SPDX-License-Identifier: MIT
#include "domain/InputError.h"
#include "domain/Json.h"

#include <QTest>

using namespace carbon3d;

class TestJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesNestedValuesWithPositions() {
        const JsonValue doc =
            parseJson("{\n  \"a\": [1, 2.5e3, true],\n  \"b\": {\"c\": \"x\\u00e9\"}\n}", "t.json");
        QVERIFY(doc.isObject());
        const JsonValue* a = doc.find("a");
        QVERIFY(a && a->isArray());
        QCOMPARE(a->items().size(), size_t(3));
        QCOMPARE(a->items()[1].toNumber(), 2500.0);
        QCOMPARE(a->line(), 2);
        QCOMPARE(a->column(), 8);
        QCOMPARE(doc.members()[1].line, 3); // key "b"
        QCOMPARE(doc.members()[1].column, 3);
        QCOMPARE(doc.find("b")->find("c")->toString(), std::string("x\xc3\xa9"));
    }

    void roundTripsThroughDump() {
        // Not a raw string: moc misreads a raw string that holds a backslash before a quote.
        const std::string text = // NOLINTNEXTLINE(modernize-raw-string-literal)
            "{\"name\": \"a\\\"b\", \"values\": [0.1, -3, 1e-7], \"empty\": {}, \"flag\": false}";
        const JsonValue first = parseJson(text, "t.json");
        const JsonValue second = parseJson(first.dump(2), "t.json");
        QCOMPARE(second.dump(-1), first.dump(-1));
        QCOMPARE(second.find("values")->items()[0].toNumber(), 0.1); // shortest round-trip text
    }

    void rejectsMalformedInput_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty") << QString() << 1 << 1 << QStringLiteral("empty file");
        QTest::newRow("trailing comma")
            << QStringLiteral("{\"a\": 1,\n}") << 2 << 1 << QStringLiteral("quoted key");
        QTest::newRow("duplicate key")
            << QStringLiteral("{\"a\": 1,\n \"a\": 2}") << 2 << 2 << QStringLiteral("duplicate key 'a'");
        QTest::newRow("bare word") << QStringLiteral("[1, nope]") << 1 << 5
                                   << QStringLiteral("expected 'null'");
        QTest::newRow("unterminated")
            << QStringLiteral("\"abc") << 1 << 5 << QStringLiteral("unterminated string");
        QTest::newRow("garbage after") << QStringLiteral("{} x") << 1 << 4 << QStringLiteral("end of file");
        QTest::newRow("leading zero ok, dot not")
            << QStringLiteral("[1.]") << 1 << 4 << QStringLiteral("decimal point");
    }

    void rejectsMalformedInput() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, problem);
        try {
            parseJson(text.toStdString(), "bad.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.file(), std::string("bad.json"));
            QCOMPARE(error.line(), line);
            QCOMPARE(error.column(), column);
            QVERIFY2(error.problem().find(problem.toStdString()) != std::string::npos, error.what());
        }
    }

    // Issue 40: values are counted as they are read; a file of tiny values (a 63 MB array of digits took
    // 3.4 GB before it was refused) stops at kMaxJsonValues, naming where.
    void refusesMoreValuesThanTheCap() {
        std::string text = "[";
        text.reserve(2 * kMaxJsonValues + 16);
        for (std::size_t k = 0; k < kMaxJsonValues; ++k)
            text += "0,";
        text += "1]"; // the array itself is one value: this one is past the cap
        try {
            parseJson(text, "digits.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.line(), 1);
            QCOMPARE(error.column(), static_cast<int>(2 * kMaxJsonValues)); // the last zero
            QVERIFY2(error.problem().find("JSON values") != std::string::npos, error.what());
        }
        text.resize(text.size() - 4); // drop "0,1]": exactly the cap, the array included
        text.back() = ']';
        QCOMPARE(parseJson(text, "digits.json").items().size(), kMaxJsonValues - 1);
    }
};

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
