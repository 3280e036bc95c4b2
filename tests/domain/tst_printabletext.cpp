// SPDX-License-Identifier: MIT
// Text from input files on its way into messages and outputs (domain/PrintableText.h), and the two places
// that rely on it most: InputError and the JSON writer and parser.
#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/PrintableText.h"

#include <QTest>

using namespace carbon3d;
using namespace std::string_literals;

class TstPrintableText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void utf8SequencesAreRecognised_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("length");
        QTest::newRow("ASCII") << QByteArray("a") << 1;
        QTest::newRow("two bytes (e acute)") << QByteArray("\xC3\xA9") << 2;
        QTest::newRow("three bytes (euro sign)") << QByteArray("\xE2\x82\xAC") << 3;
        QTest::newRow("four bytes (U+1F600)") << QByteArray("\xF0\x9F\x98\x80") << 4;
        QTest::newRow("stray continuation byte") << QByteArray("\x80") << 0;
        QTest::newRow("Latin-1 e acute") << QByteArray("\xE9") << 0;
        QTest::newRow("cut sequence") << QByteArray("\xE2\x82") << 0;
        QTest::newRow("overlong slash") << QByteArray("\xC0\xAF") << 0;
        QTest::newRow("surrogate U+D800") << QByteArray("\xED\xA0\x80") << 0;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0;
        QTest::newRow("0xFF") << QByteArray("\xFF") << 0;
    }
    void utf8SequencesAreRecognised() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, length);
        QCOMPARE(utf8SequenceLength(
                     std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), 0),
                 static_cast<std::size_t>(length));
    }

    void controlAndInvalidBytesAreEscaped() {
        QCOMPARE(printable("a\0b\n\x01\xE9 caf\xC3\xA9"s), "a\\0b\\n\\x01\\xe9 caf\xC3\xA9"s);
        QCOMPARE(validUtf8("caf\xE9 \xC3\xA9"s), "caf\xEF\xBF\xBD \xC3\xA9"s);
    }

    void excerptsAreBoundedAndSayHowLongTheWholeWas() {
        const std::string huge(std::size_t{10} * 1024 * 1024, 'x');
        const std::string quotedHuge = quotedExcerpt(huge);
        QVERIFY(quotedHuge.size() < 80);
        QVERIFY(quotedHuge.find("(10485760 bytes)") != std::string::npos);
        QCOMPARE(quotedExcerpt("short"), "'short'"s);
        // Never cut inside a UTF-8 sequence: 39 ASCII bytes and a 2-byte character straddling the bound.
        const std::string straddling = std::string(39, 'a') + "\xC3\xA9" + "tail";
        const std::string cut = excerpt(straddling, 40);
        QVERIFY(cut.find("\xC3\xA9") != std::string::npos);
        QVERIFY(cut.find("\\x") == std::string::npos);
    }

    // A NUL once cut the message where it was shown as a C string; a 10 MB value flooded it.
    void inputErrorsAreWholeAndBounded() {
        const InputError nul("f.csv", 3, 0, "found 'a\0b', expected a number"s);
        QCOMPARE(std::string(nul.what()), "f.csv:3: found 'a\\0b', expected a number"s);
        const InputError huge("f.csv", 1, 0, "found '" + std::string(1 << 20, 'y') + "'");
        QVERIFY(std::string(huge.what()).size() < 2200);
    }

    void jsonParserRefusesInvalidUtf8AtItsPosition() {
        try {
            (void)parseJson("{\n  \"name\": \"caf\xE9\"\n}", "s.json");
            QFAIL("invalid UTF-8 was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.line(), 2);
            QVERIFY2(error.problem().find("invalid UTF-8") != std::string::npos, error.what());
        }
        const JsonValue valid = parseJson("{\"name\": \"caf\xC3\xA9 \xE2\x82\xAC\"}", "s.json");
        QCOMPARE(valid.find("name")->toString(), "caf\xC3\xA9 \xE2\x82\xAC"s);
    }

    // Names from CSV traces or old databases may hold any bytes; --json output must stay UTF-8.
    void jsonWriterWritesUtf8Only() {
        const std::string out = JsonValue::makeString("zone \xE9").dump(-1);
        QCOMPARE(out, "\"zone \xEF\xBF\xBD\""s);
        (void)parseJson(out, "round trip"); // a strict parser, ours, takes it back
    }
};

QTEST_GUILESS_MAIN(TstPrintableText)
#include "tst_printabletext.moc"
