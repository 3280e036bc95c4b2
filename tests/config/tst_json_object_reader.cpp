// SPDX-License-Identifier: MIT
#include "config/JsonObjectReader.h"
#include "domain/InputError.h"
#include "domain/Json.h"

#include <QTest>
#include <optional>

using namespace carbon3d;

namespace {

// Runs `body` and returns the InputError it throws; fails the test when it throws nothing.
template <typename Body> std::optional<InputError> errorOf(Body body) {
    try {
        body();
    } catch (const InputError& error) {
        return error;
    }
    return std::nullopt;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestJsonObjectReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsTypedValues() {
        const JsonValue doc =
            parseJson(R"({"w": 400, "n": 8, "s": "x", "b": true, "o": {}, "a": [1]})", "t.json");
        JsonObjectReader reader(doc, "t.json");
        QCOMPARE(reader.number("w", 0, 1000, "W"), 400.0); // exact: an integer-valued double
        QCOMPARE(reader.integer("n", 1, 64, "GPUs"), 8);
        QCOMPARE(reader.string("s"), std::string("x"));
        QCOMPARE(reader.boolean("b"), true);
        QVERIFY(reader.object("o").isObject());
        QCOMPARE(reader.array("a").items().size(), size_t(1));
        QVERIFY(!reader.optionalNumber("absent", 0, 1, "W").has_value());
        QVERIFY(!reader.optionalInteger("absent2", 0, 1, "").has_value());
        QVERIFY(!reader.optionalString("absent3").has_value());
        QVERIFY(reader.optionalObject("absent4") == nullptr);
        reader.finish(); // every key was read
    }

    void finishRejectsUnreadKeyWithSuggestion() {
        // {"name": "a", "deadine": 3}: brace 1, "name" 2-7, colon 8, "a" 10-12, comma 13, "deadine" from 15.
        const JsonValue doc = parseJson(R"({"name": "a", "deadine": 3})", "s.json");
        JsonObjectReader reader(doc, "s.json");
        reader.string("name");
        reader.optionalNumber("deadline", 0, 10, "h");
        const std::optional<InputError> error = errorOf([&] { reader.finish(); });
        QVERIFY(error.has_value());
        QCOMPARE(error->file(), std::string("s.json"));
        QCOMPARE(error->line(), 1);
        QCOMPARE(error->column(), 15);
        QVERIFY2(contains(error->problem(), "unknown key 'deadine'"), error->what());
        QVERIFY2(contains(error->problem(), "did you mean 'deadline'?"), error->what());
        QVERIFY2(contains(error->problem(), "Expected one of: deadline, name"), error->what());
    }

    void finishDoesNotSuggestUnrelatedKeys() {
        const JsonValue doc = parseJson(R"({"name": "a", "zzzzzz": 3})", "s.json");
        JsonObjectReader reader(doc, "s.json");
        reader.string("name");
        const std::optional<InputError> error = errorOf([&] { reader.finish(); });
        QVERIFY(error.has_value());
        QVERIFY2(!contains(error->problem(), "did you mean"), error->what());
    }

    void missingRequiredKeyPointsAtItsMisspelling() {
        // Second line, third column: the misspelt key, not the object's brace.
        const JsonValue doc = parseJson("{\"name\": \"a\",\n  \"tokns\": 5}", "j.json");
        JsonObjectReader reader(doc, "j.json", "job");
        reader.string("name");
        const std::optional<InputError> error = errorOf([&] { reader.number("tokens", 1, 1e16, "tokens"); });
        QVERIFY(error.has_value());
        QCOMPARE(error->line(), 2);
        QCOMPARE(error->column(), 3);
        QVERIFY2(contains(error->problem(), "unknown key 'job.tokns'; did you mean 'tokens'?"),
                 error->what());
    }

    void missingRequiredKeyPointsAtTheObject() {
        const JsonValue doc = parseJson("[0,\n {\"name\": \"a\"}]", "j.json");
        JsonObjectReader reader(doc.items()[1], "j.json", "job");
        const std::optional<InputError> error = errorOf([&] { reader.number("tokens", 1, 1e16, "tokens"); });
        QVERIFY(error.has_value());
        QCOMPARE(error->line(), 2);
        QCOMPARE(error->column(), 2);
        QVERIFY2(contains(error->problem(), "missing key 'job.tokens'"), error->what());
        QVERIFY2(contains(error->problem(), "1 to 1e+16 tokens"), error->what());
    }

    void typeAndRangeErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("accessor");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("phrase");
        // Every value below starts at column 9: {"tdp": <value>
        QTest::newRow("string for number")
            << QStringLiteral("{\"tdp\": \"400\"}") << QStringLiteral("number") << 9
            << QStringLiteral("'tdp' must be a number (W), found a string");
        QTest::newRow("above range") << QStringLiteral("{\"tdp\": 4000}") << QStringLiteral("number") << 9
                                     << QStringLiteral(
                                            "'tdp' = 4000 W is out of range; expected 10 to 2000 W");
        QTest::newRow("below range") << QStringLiteral("{\"tdp\": -1}") << QStringLiteral("number") << 9
                                     << QStringLiteral("out of range");
        QTest::newRow("fraction for integer")
            << QStringLiteral("{\"tdp\": 2.5}") << QStringLiteral("integer") << 9
            << QStringLiteral("'tdp' must be an integer (W), found 2.5");
        QTest::newRow("bool for integer") << QStringLiteral("{\"tdp\": true}") << QStringLiteral("integer")
                                          << 9 << QStringLiteral("found a boolean");
        QTest::newRow("number for string") << QStringLiteral("{\"tdp\": 3}") << QStringLiteral("string") << 9
                                           << QStringLiteral("'tdp' must be a string, found a number");
        QTest::newRow("empty string") << QStringLiteral("{\"tdp\": \"\"}") << QStringLiteral("string") << 9
                                      << QStringLiteral("must not be empty");
        QTest::newRow("string for bool") << QStringLiteral("{\"tdp\": \"yes\"}") << QStringLiteral("boolean")
                                         << 9 << QStringLiteral("must be true or false");
        QTest::newRow("array for object") << QStringLiteral("{\"tdp\": []}") << QStringLiteral("object") << 9
                                          << QStringLiteral("must be an object");
        QTest::newRow("object for array") << QStringLiteral("{\"tdp\": {}}") << QStringLiteral("array") << 9
                                          << QStringLiteral("must be an array");
    }

    void typeAndRangeErrors() {
        QFETCH(QString, json);
        QFETCH(QString, accessor);
        QFETCH(int, column);
        QFETCH(QString, phrase);
        const JsonValue doc = parseJson(json.toStdString(), "c.json");
        JsonObjectReader reader(doc, "c.json");
        const std::optional<InputError> error = errorOf([&] {
            if (accessor == QStringLiteral("number"))
                reader.number("tdp", 10, 2000, "W");
            else if (accessor == QStringLiteral("integer"))
                reader.integer("tdp", 1, 2000, "W");
            else if (accessor == QStringLiteral("string"))
                reader.string("tdp");
            else if (accessor == QStringLiteral("boolean"))
                reader.boolean("tdp");
            else if (accessor == QStringLiteral("object"))
                reader.object("tdp");
            else
                reader.array("tdp");
        });
        QVERIFY(error.has_value());
        QCOMPARE(error->file(), std::string("c.json"));
        QCOMPARE(error->line(), 1);
        QCOMPARE(error->column(), column);
        QVERIFY2(contains(error->problem(), phrase.toStdString()), error->what());
    }

    void nestedReadersQualifyKeys() {
        const JsonValue doc = parseJson(R"({"job": {"tokens": "many"}})", "n.json");
        JsonObjectReader top(doc, "n.json");
        JsonObjectReader job(top.object("job"), "n.json", "job");
        const std::optional<InputError> error = errorOf([&] { job.number("tokens", 1, 1e16, "tokens"); });
        QVERIFY(error.has_value());
        QVERIFY2(contains(error->problem(), "'job.tokens' must be a number (tokens)"), error->what());
    }

    void rejectsNonObject() {
        const JsonValue doc = parseJson("[1, 2]", "a.json");
        const std::optional<InputError> error = errorOf([&] { JsonObjectReader reader(doc, "a.json"); });
        QVERIFY(error.has_value());
        QVERIFY2(contains(error->problem(), "must be a JSON object"), error->what());
    }

    void schema_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("phrase"); // empty = accepted
        QTest::newRow("current") << QStringLiteral("{\"schema\": 1}") << 0 << QString();
        QTest::newRow("missing") << QStringLiteral("{\"name\": \"x\"}") << 1
                                 << QStringLiteral("missing key 'schema'");
        QTest::newRow("newer") << QStringLiteral("{\"schema\": 2}") << 12
                               << QStringLiteral("written by a newer Carbon3D");
        QTest::newRow("zero") << QStringLiteral("{\"schema\": 0}") << 12
                              << QStringLiteral("not a valid file format");
        QTest::newRow("fraction") << QStringLiteral("{\"schema\": 1.5}") << 12
                                  << QStringLiteral("must be an integer");
        QTest::newRow("string") << QStringLiteral("{\"schema\": \"1\"}") << 12
                                << QStringLiteral("must be an integer");
    }

    void schema() {
        QFETCH(QString, json);
        QFETCH(int, column);
        QFETCH(QString, phrase);
        const JsonValue doc = parseJson(json.toStdString(), "v.json");
        JsonObjectReader reader(doc, "v.json");
        const std::optional<InputError> error = errorOf([&] { QCOMPARE(reader.schema(), 1); });
        if (phrase.isEmpty()) {
            QVERIFY(!error.has_value());
            return;
        }
        QVERIFY(error.has_value());
        QCOMPARE(error->line(), 1);
        QCOMPARE(error->column(), column);
        QVERIFY2(contains(error->problem(), phrase.toStdString()), error->what());
    }

    void optionalSchemaAllowsAbsence() {
        const JsonValue doc = parseJson("{}", "i.json");
        JsonObjectReader reader(doc, "i.json");
        QCOMPARE(reader.optionalSchema(), 0);
    }

    void editDistance_data() {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("distance");
        QTest::newRow("same") << QStringLiteral("pue") << QStringLiteral("pue") << 0;
        QTest::newRow("deletion") << QStringLiteral("deadine") << QStringLiteral("deadline") << 1;
        QTest::newRow("substitution") << QStringLiteral("tdp_v") << QStringLiteral("tdp_w") << 1;
        QTest::newRow("transposition is two edits")
            << QStringLiteral("tdp_w") << QStringLiteral("tpd_w") << 2;
        QTest::newRow("empty") << QString() << QStringLiteral("abc") << 3;
    }

    void editDistance() {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, distance);
        QCOMPARE(carbon3d::editDistance(a.toStdString(), b.toStdString()), distance);
        QCOMPARE(carbon3d::editDistance(b.toStdString(), a.toStdString()), distance);
    }
};

QTEST_GUILESS_MAIN(TestJsonObjectReader)
#include "tst_json_object_reader.moc"
