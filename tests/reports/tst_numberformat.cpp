// SPDX-License-Identifier: MIT
#include "reports/NumberFormat.h"
#include "reports/Prose.h"

#include <QTest>
#include <cstdio>
#include <locale>

using namespace carbon3d::reports;

namespace {

// A global C++ locale that would change every digit group and decimal point if the helpers used it.
struct CommaDecimals : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
};

std::string printfFixed(double value, int decimals) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value); // the C locale stays "C"
    return buffer;
}

} // namespace

// The generated docs regenerate byte for byte only if their numbers ignore the global locale and round as
// printf does (the reports printed with snprintf before tools/reports).
class TestNumberFormat : public QObject {
    Q_OBJECT
private:
    std::locale m_previous;

private Q_SLOTS:
    void initTestCase() {
        m_previous = std::locale::global(std::locale(std::locale::classic(), new CommaDecimals));
    }
    void cleanupTestCase() { std::locale::global(m_previous); }

    void fixedRoundsAsPrintf() {
        for (double v : {0.0, 0.125, 0.675, 1.005, 2.5, -0.00001, 3.14159, 1234567.891, 1e-9, 45.56})
            for (int d : {0, 1, 2, 3, 5})
                QCOMPARE(fixed(v, d), printfFixed(v, d));
        QCOMPARE(fixed(-0.00001, 1), std::string("-0.0")); // the sign survives, as in the old tables
    }

    void significantDigits() {
        QCOMPARE(significant(1.045e-9, 4), std::string("1.045e-09"));
        QCOMPARE(significant(12.30, 4), std::string("12.3"));
        QCOMPARE(significant(2.0, 4), std::string("2"));
        QCOMPARE(significant(145.6, 6), std::string("145.6"));
    }

    void percentages() {
        QCOMPARE(percent(0.1234), std::string("12.3 %"));
        QCOMPARE(percent(0.1473, 2), std::string("14.73 %"));
        QCOMPARE(percent(0.08, 0), std::string("8 %"));
        QCOMPARE(signedPercent(0.0), std::string("+0.0 %"));
        QCOMPARE(signedPercent(0.021), std::string("+2.1 %"));
        QCOMPARE(signedPercent(-0.476), std::string("-47.6 %"));
    }

    void groupsAndWords() {
        QCOMPARE(grouped(999), std::string("999"));
        QCOMPARE(grouped(1440), std::string("1,440"));
        QCOMPARE(grouped(51200), std::string("51,200"));
        QCOMPARE(grouped(-1234567), std::string("-1,234,567"));
        QCOMPARE(countWord(4), std::string("four"));
        QCOMPARE(countWord(13), std::string("13"));
        QCOMPARE(ordinalWord(4), std::string("fourth"));
    }

    void prose() {
        QCOMPARE(rangeText(31.8, 61.9, 0), std::string("32-62"));
        QCOMPARE(rangeText(0.786, 0.791, 2), std::string("0.79"));
    }
};

QTEST_GUILESS_MAIN(TestNumberFormat)
#include "tst_numberformat.moc"
