// SPDX-License-Identifier: MIT
// Malformed traces: every failure is an InputError naming the file, the line (and the column for
// JSON and for CSV cells) and what was expected; the checks are the same whatever the format.
// Repair mode fixes exactly what it may (order, exact duplicates, short gaps) and says so.
//
// The malformed inputs are written here into a QTemporaryDir. JSON is spelled with single quotes and
// turned into double quotes on the way out, because moc 6.4 drops Q_OBJECT files with raw strings
// that contain double quotes.

#include "traces/TraceLoader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace carbon3d;

namespace {

const QByteArray kHeader = QByteArrayLiteral("timestamp,carbon_intensity_g_per_kwh\n");
const QByteArray kEmHeader = QByteArrayLiteral(
    "Datetime (UTC),Country,Zone Name,Zone Id,Carbon Intensity gCO2eq/kWh (direct),"
    "Carbon Intensity gCO2eq/kWh (LCA),Low Carbon Percentage,Renewable Percentage,Data Source,"
    "Data Estimated,Data Estimation Method\n");

// One canonical row on 2022-01-01 at hh:mm.
QByteArray row(int hour, int minute, const char* value) {
    return QString::asprintf("2022-01-01T%02d:%02d:00Z,%s\n", hour, minute, value).toUtf8();
}
QByteArray row(int hour, const char* value) {
    return row(hour, 0, value);
}

QByteArray json(const char* singleQuoted) {
    QByteArray text(singleQuoted);
    text.replace('\'', '"');
    return text;
}

// 1-based column of `needle` (single-quoted spelling) on line `line` of the JSON text.
int columnOf(const QByteArray& text, int line, const char* needle) {
    const QList<QByteArray> lines = text.split('\n');
    const int index = lines.value(line - 1).indexOf(json(needle));
    return index < 0 ? -1 : index + 1;
}

// An UK API row starting at 2022-01-01 hh:mm for `minutes`.
QByteArray ukRow(int hour, int minute, int minutes, const char* actual) {
    const int end = hour * 60 + minute + minutes;
    return json(QString::asprintf("{'from':'2022-01-01T%02d:%02dZ','to':'2022-01-01T%02d:%02dZ',"
                                  "'intensity':{'forecast':100,'actual':%s,'index':'low'}}",
                                  hour, minute, end / 60, end % 60, actual)
                    .toUtf8()
                    .constData());
}

QByteArray caRow(const char* location, int hour, const char* rating, const char* duration) {
    return json(QString::asprintf("{'location':'%s','time':'2022-01-01T%02d:00:00+00:00','rating':%s,"
                                  "'duration':'%s'}",
                                  location, hour, rating, duration)
                    .toUtf8()
                    .constData());
}

} // namespace

class TestTraceValidation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void malformed_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("repair");
        QTest::addColumn<QString>("timeZone");
        QTest::addColumn<QString>("column");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("col");
        QTest::addColumn<QString>("phrase");
        const QString none;
        const auto add = [&](const char* name, const QByteArray& content, int line, int col,
                             const char* phrase, bool repair = false) {
            QTest::newRow(name) << content << repair << none << none << line << col
                                << QString::fromLatin1(phrase);
        };
        // Canonical rows are "2022-01-01Thh:mm:00Z,value": the timestamp is 20 characters, so the value
        // cell starts at column 22; line 1 is the header, so hour h is on line h + 2 unless said otherwise.

        // --- canonical CSV: cells
        add("bad timestamp", kHeader + row(0, "10") + "2022-01-01T1:00:00Z,11\n", 3, 1,
            "unparsable timestamp");
        add("bad number", kHeader + row(0, "10") + row(1, "1O"), 3, 22, "unparsable number");
        add("empty cell", kHeader + row(0, "") + row(1, "11"), 2, 22, "empty cell");
        add("negative", kHeader + row(0, "10") + row(1, "-1"), 3, 22, "negative carbon intensity");
        add("negative, repair", kHeader + row(0, "10") + row(1, "-1"), 3, 22, "negative", true);
        add("absurd", kHeader + row(0, "10") + row(1, "3000.5"), 3, 22, "absurd");
        add("absurd, repair", kHeader + row(0, "10") + row(1, "3000.5"), 3, 22, "absurd", true);
        add("nan", kHeader + row(0, "10") + row(1, "nan"), 3, 22, "finite");
        add("NaN", kHeader + row(0, "NaN") + row(1, "10"), 2, 22, "finite");
        add("inf", kHeader + row(0, "10") + row(1, "inf"), 3, 22, "finite");
        // "2022-01-01T00:00:00Z,10,-2": value at 22-23, comma at 24, marginal at 25.
        add("negative marginal",
            "timestamp,carbon_intensity_g_per_kwh,marginal_g_per_kwh\n2022-01-01T00:00:00Z,10,-2\n", 2, 25,
            "negative marginal");
        add("three fields", kHeader + row(0, "10") + row(1, "11,5"), 3, 0, "wrong column count");
        add("one field", kHeader + row(0, "10") + "2022-01-01T01:00:00Z\n", 3, 0, "wrong column count");
        add("unterminated quote", kHeader + row(0, "\"10"), 2, 0, "unterminated");
        // A leading blank line still counts: the bad cell is on line 4.
        add("line numbers count blank lines", "\n" + kHeader + row(0, "10") + row(1, "x"), 4, 22,
            "unparsable number");

        // --- empty, header only, unknown
        add("empty file", "", 1, 0, "empty file");
        add("blank lines only", "\n  \r\n", 1, 0, "empty file");
        add("header only", kHeader, 1, 0, "header only");
        add("header and blank lines", kHeader + "\n\n", 1, 0, "header only");
        add("single row", kHeader + row(0, "10"), 2, 0, "single row");
        add("unknown format", "time,value\n2022-01-01T00:00:00Z,1\n", 1, 0, "expected one of:");
        add("bad canonical header", "timestamp,co2\n2022-01-01T00:00:00Z,1\n", 1, 0,
            "unknown format: found the header 'timestamp,co2'; expected one of:");

        // --- resolution, order, duplicates, gaps (the error sits on the row where the defect shows)
        add("two-hour step", kHeader + row(0, "1") + row(2, "1") + row(4, "1"), 3, 0, "resolution of 7200 s");
        add("one-minute step", kHeader + row(0, 0, "1") + row(0, 1, "1") + row(0, 2, "1"), 3, 0,
            "resolution of 60 s");
        // 420 s is inside [300, 3600] but 3600 / 420 is not whole.
        add("seven-minute step", kHeader + row(0, 0, "1") + row(0, 7, "1") + row(0, 14, "1"), 3, 0,
            "resolution of 420 s");
        // Hourly, then a half hour (03:30, line 6): 1800 s is not a multiple of 3600 s.
        add("mixed resolutions",
            kHeader + row(0, "1") + row(1, "1") + row(2, "1") + row(3, "1") + row(3, 30, "1"), 6, 0,
            "mixed resolutions");
        // Hourly, then two-hourly (05:00 on line 6, 07:00 on line 7): a run of longer steps is not a gap.
        const QByteArray coarser =
            kHeader + row(0, "1") + row(1, "1") + row(2, "1") + row(3, "1") + row(5, "1") + row(7, "1");
        add("coarser run", coarser, 6, 0, "mixed resolutions");
        add("coarser run, repair", coarser, 6, 0, "mixed resolutions", true);
        add("gap", kHeader + row(0, "1") + row(1, "1") + row(2, "1") + row(5, "1") + row(6, "1"), 5, 0,
            "gap of 2 missing slots");
        // 01:00 -> 09:00 misses 7 slots (02..08), one more than repair fills.
        add("long gap, repair", kHeader + row(0, "1") + row(1, "1") + row(9, "1") + row(10, "1"), 4, 0,
            "at most 6", true);
        add("duplicate", kHeader + row(0, "1") + row(1, "2") + row(1, "2") + row(2, "3"), 4, 0,
            "duplicate timestamp");
        add("conflicting duplicate, repair",
            kHeader + row(0, "1") + row(1, "2") + row(1, "2.5") + row(2, "3"), 4, 0, "conflicting duplicate",
            true);
        add("unsorted", kHeader + row(0, "1") + row(2, "3") + row(1, "2") + row(3, "4"), 4, 0,
            "unsorted rows");

        // --- Electricity Maps CSV. "2022-01-01 01:00:00,France,France,FR,...": the datetime is 19
        // characters, commas at 20, 27 and 34, so Zone Id starts at column 35.
        add("EM second zone",
            kEmHeader + "2022-01-01 00:00:00,Germany,Germany,DE,180,210,,,entsoe.eu,false,\n" +
                "2022-01-01 01:00:00,France,France,FR,50,60,,,rte,false,\n",
            3, 35, "second zone");
        add("EM header without LCA",
            "Datetime (UTC),Zone Id,Carbon Intensity gCO2eq/kWh (direct)\n2022-01-01 00:00:00,DE,180\n", 1, 0,
            "lacks");
        add("EM bad datetime",
            kEmHeader + "2022-01-01 00:00:00,Germany,Germany,DE,180,210,,,entsoe.eu,false,\n" +
                "2022-01-01 1:00,Germany,Germany,DE,180,210,,,entsoe.eu,false,\n",
            3, 1, "unparsable timestamp");
        add("EM gap",
            kEmHeader + "2022-01-01 00:00:00,Germany,Germany,DE,180,210,,,entsoe.eu,false,\n" +
                "2022-01-01 01:00:00,Germany,Germany,DE,180,210,,,entsoe.eu,false,\n" +
                "2022-01-01 03:00:00,Germany,Germany,DE,180,210,,,entsoe.eu,false,\n",
            4, 0, "gap of 1 missing slot");

        // --- WattTime. "2022-01-01T00:05:00+00:00" is 25 characters: value at 27; "100," then ba at 31.
        // 7000 lbs/MWh * 0.45359237 = 3175.1 g/kWh > 3000.
        add("WattTime absurd after conversion",
            "point_time,value\n2022-01-01T00:00:00+00:00,700\n2022-01-01T00:05:00+00:00,7000\n", 3, 27,
            "absurd");
        add("WattTime second ba",
            "point_time,value,ba\n2022-01-01T00:00:00+00:00,100,CAISO_NORTH\n"
            "2022-01-01T00:05:00+00:00,100,CAISO_SOUTH\n",
            3, 31, "second balancing authority");
        add("WattTime bad time", "point_time,value\nyesterday,100\n", 2, 1, "unparsable timestamp");

        // --- UK Carbon Intensity JSON: one row per line, line 1 is "{"data":[".
        const QByteArray ukOpen = json("{'data':[\n");
        const QByteArray ukClose = json("\n]}");
        {
            const QByteArray text = ukOpen + json("{'from':'2022-01-01T00:00Z'\n]}");
            add("UK syntax error", text, 3, 1, "expected ',' or '}'");
        }
        {
            const QByteArray text = ukOpen + ukRow(0, 0, 30, "1") + ",\n" +
                                    json("{'from':'2022-01-01T00:30Z','to':'2022-01-01T01:00Z',"
                                         "'intensity':{'forecast':null,'actual':null}}") +
                                    ukClose;
            add("UK no actual and no forecast", text, 3, columnOf(text, 3, "null}"), "found neither");
        }
        {
            const QByteArray text = ukOpen +
                                    json("{'from':'2022-01-01T00:00Z','to':'2021-12-31T23:30Z',"
                                         "'intensity':{'forecast':1,'actual':1}}") +
                                    ukClose;
            add("UK to before from", text, 2, columnOf(text, 2, "'2021-12-31T23:30Z'"), "not after");
        }
        {
            const QByteArray text = ukOpen + ukRow(0, 0, 30, "'high'") + ukClose;
            add("UK actual is a string", text, 2, columnOf(text, 2, "'high'"), "expected a number");
        }
        {
            const QByteArray text = ukOpen + ukRow(0, 0, 30, "1") + ",\n" +
                                    json("{'to':'2022-01-01T01:00Z','intensity':{'actual':1}}") + ukClose;
            add("UK missing from", text, 3, 1, "missing key 'from'");
        }
        {
            const QByteArray text = json("{'data':[{'regionid':1,'data':[]},\n{'regionid':2,'data':[]}]}");
            add("UK two regions", text, 2, 1, "second region");
        }
        {
            const QByteArray text = ukOpen + ukRow(0, 0, 30, "1") + ",\n" + ukRow(0, 30, 30, "1") + ",\n" +
                                    ukRow(1, 30, 30, "1") + ukClose;
            add("UK gap", text, 4, columnOf(text, 4, "'2022-01-01T01:30Z'"), "gap of 1 missing slot");
        }
        {
            const QByteArray text = ukOpen + ukRow(0, 0, 30, "1") + ",\n" + ukRow(0, 30, 30, "1") + ",\n" +
                                    ukRow(1, 0, 60, "1") + ukClose;
            add("UK mixed resolutions", text, 4, columnOf(text, 4, "'2022-01-01T01:00Z'"),
                "mixed resolutions");
        }
        add("UK data not an array", json("{'data':5}"), 1, 9, "expected an array");
        add("UK empty data", json("{'data':[]}"), 1, 9, "no data rows");
        add("UK no data member", json("{'rows':[]}"), 1, 1, "unknown format: found a JSON document");

        // --- Electricity Maps API JSON: one record per line after the opening line.
        {
            const auto emRow = [](const char* zone, int hour, const char* value, const char* factor) {
                return json(
                    QStringLiteral("{'zone':'%1','carbonIntensity':%2,'datetime':'2022-01-01T%3:00:00.000Z',"
                                   "'emissionFactorType':'%4','temporalGranularity':'hourly'}")
                        .arg(QLatin1String(zone), QLatin1String(value))
                        .arg(hour, 2, 10, QLatin1Char('0'))
                        .arg(QLatin1String(factor))
                        .toUtf8());
            };
            const QByteArray open = json("{'zone':'DE','history':[\n");
            const QByteArray close = "\n]}";
            QByteArray text =
                open + emRow("DE", 0, "300", "lifecycle") + ",\n" + emRow("FR", 1, "50", "lifecycle") + close;
            add("EM API second zone", text, 3, columnOf(text, 3, "'FR'"), "second zone 'FR'");
            text =
                open + emRow("DE", 0, "300", "lifecycle") + ",\n" + emRow("DE", 1, "250", "direct") + close;
            add("EM API two factor types", text, 3, columnOf(text, 3, "'direct'"),
                "second emission factor type");
            text = open + emRow("DE", 0, "'300'", "lifecycle") + close;
            add("EM API value as a string", text, 2, columnOf(text, 2, "'300'"),
                "expected a number for 'carbonIntensity'");
            text = open +
                   json("{'zone':'DE','carbonIntensity':300,'datetime':'2022-01-01T00:00:00.000Z',"
                        "'temporalGranularity':'weekly'}") +
                   close;
            add("EM API unknown granularity", text, 2, columnOf(text, 2, "'weekly'"),
                "unknown temporalGranularity");
            add("EM API no records", json("{'zone':'DE','updatedAt':'2022-01-01T00:00:00Z'}"), 1, 1,
                "unknown format: found a JSON document");
        }

        // --- WattTime v3 JSON: "data" on line 1, "meta" on line 4.
        {
            const auto wattTime = [](const char* meta) {
                return json(
                    QByteArray(
                        "{'data':[\n{'point_time':'2022-01-01T00:00:00+00:00','value':900}\n],\n'meta':") +
                    meta + "}");
            };
            QByteArray text =
                wattTime("{'signal_type':'co2_moer','units':'percentile','region':'CAISO_NORTH'}");
            add("WattTime units percentile", text, 4, columnOf(text, 4, "'percentile'"),
                "units 'percentile': expected one of g/kWh");
            text = wattTime("{'signal_type':'health_damage','units':'lbs_co2_per_mwh'}");
            add("WattTime health signal", text, 4, columnOf(text, 4, "'health_damage'"),
                "expected co2_moer (marginal) or co2_aoer");
            text = wattTime(
                "{'signal_type':'co2_moer','units':'lbs_co2_per_mwh','generated_at':'2022-01-01T00:00:00Z'}");
            add("WattTime forecast", text, 4, columnOf(text, 4, "'2022-01-01T00:00:00Z'"),
                "a WattTime forecast");
        }

        // --- a CSV of a time and a value with its unit
        add("unit CSV bad number", "timestamp,co2 (g/kWh)\n2022-01-01T00:00:00Z,lots\n", 2, 22,
            "unparsable number 'lots'");
        add("unit CSV unknown unit", "timestamp,co2 (furlongs)\n2022-01-01T00:00:00Z,1\n", 1, 0,
            "unknown format: found the header 'timestamp,co2 (furlongs)'");

        // --- Carbon Aware SDK JSON: one record per line, line 1 is "[".
        {
            const QByteArray text = "[\n" + caRow("westus", 0, "100", "01:00:00") + ",\n" +
                                    caRow("eastus", 1, "100", "01:00:00") + "\n]";
            add("CA second location", text, 3, columnOf(text, 3, "'eastus'"), "second location");
        }
        {
            const QByteArray text = "[\n" + caRow("westus", 0, "100", "1.00:00:00") + "\n]";
            add("CA bad duration", text, 2, columnOf(text, 2, "'1.00:00:00'"), "unparsable duration");
        }
        {
            const QByteArray text = "[\n" + caRow("westus", 0, "100", "01:00:00") + ",\n" +
                                    caRow("westus", 1, "-3", "01:00:00") + "\n]";
            add("CA negative rating", text, 3, columnOf(text, 3, "-3"), "negative rating");
        }
        {
            const QByteArray text = "[\n" + caRow("westus", 0, "'12'", "01:00:00") + "\n]";
            add("CA rating as a string", text, 2, columnOf(text, 2, "'12'"),
                "expected a number for 'rating'");
        }
        {
            const QByteArray text =
                json("[\n{'location':'westus','time':'soon','rating':1,'duration':'01:00:00'}\n]");
            add("CA bad time", text, 2, columnOf(text, 2, "'soon'"), "unparsable timestamp");
        }
        {
            const QByteArray text = "[\n" + caRow("westus", 0, "100", "01:00:00") + ",\n" +
                                    caRow("westus", 1, "100", "00:30:00") + "\n]";
            add("CA mixed durations", text, 3, columnOf(text, 3, "'2022-01-01T01:00:00+00:00'"),
                "mixed resolutions");
        }
        add("CA empty array", "[]", 1, 1, "no data rows");

        // --- options (line 0: not about a place in the file)
        const QByteArray good = kHeader + row(0, "1") + row(1, "2");
        QTest::newRow("unknown time zone option")
            << good << false << QStringLiteral("Mars/Olympus_Mons") << none << 0 << 0
            << QStringLiteral("unknown IANA time zone");
        QTest::newRow("unknown column option") << good << false << none << QStringLiteral("average") << 0 << 0
                                               << QStringLiteral("expected 'lca' or 'direct'");
    }
    void malformed() {
        QFETCH(QByteArray, content);
        QFETCH(bool, repair);
        QFETCH(QString, timeZone);
        QFETCH(QString, column);
        QFETCH(int, line);
        QFETCH(int, col);
        QFETCH(QString, phrase);
        QVERIFY2(col >= 0, "test bug: needle not found on the expected line");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("case_input.txt")); // content decides the format
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        TraceLoadOptions options;
        options.repair = repair;
        options.timeZone = timeZone.toStdString();
        options.column = column.toStdString();
        try {
            loadCarbonTrace(path.toStdString(), options);
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            const QByteArray what = error.what();
            QCOMPARE(error.file(), path.toStdString());
            QVERIFY2(error.line() == line, what.constData());
            QVERIFY2(error.column() == col, what.constData());
            QVERIFY2(error.problem().find(phrase.toStdString()) != std::string::npos, what.constData());
            if (qEnvironmentVariableIsSet("CARBON3D_SHOW_ERRORS")) // for reviewing the wording
                qInfo("%s", what.constData());
        }
    }

    void fileNotFound() {
        try {
            loadCarbonTrace("/definitely/not/here.csv");
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.file(), std::string("/definitely/not/here.csv"));
            QCOMPARE(error.line(), 0);
            QVERIFY(error.problem().find("file not found") != std::string::npos);
        }
    }

    void directoryIsNotAFile() {
        QTemporaryDir dir;
        try {
            loadCarbonTrace(dir.path().toStdString());
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.line(), 0);
            QVERIFY(error.problem().find("directory") != std::string::npos);
        }
    }

    void oversizeRefused() {
        const std::string path = std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/ZA_2022.csv";
        TraceLoadOptions options;
        options.maxFileBytes = 1000; // the file is about 240 KB
        try {
            loadCarbonTrace(path, options);
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.line(), 0);
            QVERIFY2(error.problem().find("file too large") != std::string::npos, error.what());
            QVERIFY(error.problem().find("at most 1000 bytes") != std::string::npos);
        }
    }

    void repairReportsExactlyWhatItDid() {
        // Fixture: CISO 2022-01-01 00..11 h with hours 04-05 missing, hour 08 twice (lines 8 and 9),
        // hours 10 and 09 swapped (lines 10 and 11). See tests/data/traces/README.md.
        const std::string path =
            std::string(CARBON3D_SOURCE_DIR) + "/tests/data/traces/US-CAL-CISO_repairable.csv";
        QVERIFY_THROWS_EXCEPTION(InputError, loadCarbonTrace(path)); // strict by default
        TraceLoadOptions options;
        options.repair = true;
        const CarbonTrace trace = loadCarbonTrace(path, options);
        const std::vector<std::string>& repairs = trace.provenance.repairs;
        QCOMPARE(repairs.size(), std::size_t(3));
        QCOMPARE(
            repairs[0],
            std::string("sorted the rows into time order: 2 rows were out of place, the first at line 10"));
        QCOMPARE(
            repairs[1],
            std::string(
                "dropped the duplicate row at line 9 (same time 2022-01-01T08:00Z and value as line 8)"));
        QCOMPARE(repairs[2],
                 std::string("filled 2 missing slots 2022-01-01T04:00Z..05:00Z by linear interpolation"));
        QCOMPARE(trace.size(), std::size_t(12));
        QCOMPARE(trace.stepSeconds, qint64(3600));

        const CarbonTrace reference =
            loadCarbonTrace(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/US-CAL-CISO_2022.csv");
        for (std::size_t i : {0, 1, 2, 3, 6, 7, 8, 9, 10, 11})
            QCOMPARE(trace.gPerKwh[i], reference.gPerKwh[i]); // the file's own values, untouched (exact)
        // Interpolated: v4 = v3 + (v6 - v3) * 1/3, v5 = v3 + (v6 - v3) * 2/3. Tolerance 1e-9 g/kWh: the
        // implementation may round the fraction and the product in another order (a few ulps of ~300).
        const double v3 = reference.gPerKwh[3];
        const double v6 = reference.gPerKwh[6];
        QVERIFY(std::abs(trace.gPerKwh[4] - (v3 + (v6 - v3) / 3.0)) < 1e-9);
        QVERIFY(std::abs(trace.gPerKwh[5] - (v3 + 2.0 * (v6 - v3) / 3.0)) < 1e-9);
        QVERIFY(trace.gPerKwh[4] != reference.gPerKwh[4]); // it really is a fill, not the true hour
    }

    void repairOnCleanDataChangesNothing() {
        TraceLoadOptions options;
        options.repair = true;
        const std::string path = std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/GB_2022.csv";
        const CarbonTrace repaired = loadCarbonTrace(path, options);
        const CarbonTrace strict = loadCarbonTrace(path);
        QVERIFY(repaired.provenance.repairs.empty());
        QCOMPARE(repaired.gPerKwh, strict.gPerKwh); // exact: same parse, nothing to repair
    }

    void newestFirstIsReversedWithANote() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("XX_reversed.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kHeader + row(3, "4") + row(2, "3") + row(1, "2") + row(0, "1"));
        file.close();
        const CarbonTrace trace = loadCarbonTrace(path.toStdString());
        QCOMPARE(trace.startUtc, qint64(1640995200)); // 2022-01-01T00:00:00Z
        QCOMPARE(trace.gPerKwh, (std::vector<double>{1, 2, 3, 4}));
        QVERIFY(trace.provenance.repairs.empty());
        QCOMPARE(trace.provenance.notes.size(), std::size_t(1));
        QVERIFY(trace.provenance.notes[0].find("newest first") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTraceValidation)
#include "tst_tracevalidation.moc"
