// SPDX-License-Identifier: MIT
// Every supported format loads its fixture with the values the provider's file holds; the bundled
// traces load and match the statistics published in sample_data/traces/SOURCES.md; canonical CSV
// written by writeCanonicalCsv reads back bit for bit.

#include "domain/InputError.h"
#include "domain/Time.h"
#include "traces/TraceLoader.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>

using namespace carbon3d;

namespace {

std::string fixture(const char* name) {
    return std::string(CARBON3D_SOURCE_DIR) + "/tests/data/traces/" + name;
}

std::string bundled(const QString& name) {
    return std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/" + name.toStdString();
}

// 2022-01-01T00:00:00Z: (52*365 + 13 leap days) * 86400 s.
constexpr qint64 k2022 = 1640995200;

bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

} // namespace

class TestTraceFormats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void electricityMapsCsv() {
        const CarbonTrace trace = loadCarbonTrace(fixture("DE_2022_electricitymaps.csv"));
        QCOMPARE(trace.provenance.format, std::string("electricitymaps-csv"));
        QCOMPARE(trace.provenance.column, std::string("Carbon Intensity gCO2eq/kWh (LCA)"));
        QCOMPARE(trace.regionId, std::string("DE")); // from "Zone Id"
        QCOMPARE(trace.timeZone, std::string("Europe/Berlin"));
        QCOMPARE(trace.signal, CarbonSignal::Average);
        QCOMPARE(trace.size(), std::size_t(72));
        QCOMPARE(trace.stepSeconds, qint64(3600));
        QCOMPARE(trace.startUtc, k2022);
        QCOMPARE(trace.provenance.estimatedRows, std::size_t(2)); // rows 30 and 31 say "true"
        QCOMPARE(trace.provenance.attribution, electricityMapsAttribution());
        QVERIFY(trace.provenance.repairs.empty());
        // The LCA column is DE_2022.csv's first 72 values: the same decimal strings, and from_chars is
        // correctly rounded, so the doubles are identical (tolerance 0).
        const CarbonTrace canonical = loadCarbonTrace(bundled(QStringLiteral("DE_2022.csv")));
        for (std::size_t i = 0; i < trace.size(); ++i)
            QVERIFY2(sameBits(trace.gPerKwh[i], canonical.gPerKwh[i]), std::to_string(i).c_str());

        TraceLoadOptions direct;
        direct.column = "direct";
        const CarbonTrace directTrace = loadCarbonTrace(fixture("DE_2022_electricitymaps.csv"), direct);
        QCOMPARE(directTrace.provenance.column, std::string("Carbon Intensity gCO2eq/kWh (direct)"));
        // Fixture row 1: direct = round(212.91 * 406.15 / 473.98, 2) = round(182.441..., 2) = 182.44.
        // Tolerance 0.005: half a unit of the 2-decimal rounding in the generator.
        QVERIFY(std::abs(directTrace.gPerKwh[0] - 212.91 * 406.15 / 473.98) <= 0.005);
        QCOMPARE(directTrace.gPerKwh[0], 182.44); // parsed text "182.44", exact (from_chars)
    }

    void electricityMapsPlainTwoInHeader() {
        // Same data with "gCO2eq" spelled with a plain 2: must give the identical trace.
        QFile in(QString::fromStdString(fixture("DE_2022_electricitymaps.csv")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        bytes.replace(QByteArray("gCO\xE2\x82\x82"
                                 "eq"),
                      QByteArray("gCO2eq"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("DE_plain.csv"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();
        const CarbonTrace plain = loadCarbonTrace(path.toStdString());
        const CarbonTrace subscript = loadCarbonTrace(fixture("DE_2022_electricitymaps.csv"));
        QCOMPARE(plain.gPerKwh, subscript.gPerKwh); // exact: same text, same parser
        QVERIFY(plain.provenance.contentSha256 != subscript.provenance.contentSha256);
    }

    void electricityMapsCsvTodaysHeader() {
        // The portal's header of a 2026 download ("Zone id", "(Life cycle)", CFE% and RE%): the same values
        // as the older header's file, bit for bit (the same decimal strings).
        const CarbonTrace trace = loadCarbonTrace(fixture("DE_2022_electricitymaps_today.csv"));
        QCOMPARE(trace.provenance.format, std::string("electricitymaps-csv"));
        QCOMPARE(trace.provenance.column, std::string("Carbon intensity gCO2eq/kWh (Life cycle)"));
        QCOMPARE(trace.regionId, std::string("DE"));
        QCOMPARE(trace.timeZone, std::string("Europe/Berlin"));
        QCOMPARE(trace.size(), std::size_t(48));
        QCOMPARE(trace.startUtc, k2022);
        const CarbonTrace older = loadCarbonTrace(fixture("DE_2022_electricitymaps.csv"));
        for (std::size_t i = 0; i < trace.size(); ++i)
            QVERIFY2(sameBits(trace.gPerKwh[i], older.gPerKwh[i]), std::to_string(i).c_str());
        TraceLoadOptions direct;
        direct.column = "direct";
        QCOMPARE(loadCarbonTrace(fixture("DE_2022_electricitymaps_today.csv"), direct).gPerKwh[0], 182.44);
    }

    void electricityMapsDailyFileIsRefusedInWords() {
        try {
            loadCarbonTrace(fixture("DE_2022_electricitymaps_daily.csv"));
            QFAIL("a daily file loaded");
        } catch (const InputError& error) {
            QCOMPARE(error.line(), 3); // the second row shows the step
            QVERIFY2(error.problem().find("daily") != std::string::npos, error.what());
            QVERIFY2(error.problem().find("hourly") != std::string::npos, error.what());
        }
    }

    void electricityMapsApiHistory() {
        const CarbonTrace trace = loadCarbonTrace(fixture("DE_2022_electricitymaps_api_history.json"));
        QCOMPARE(trace.provenance.format, std::string("electricitymaps-api-json"));
        QCOMPARE(trace.provenance.column, std::string("carbonIntensity (lifecycle)"));
        QCOMPARE(trace.regionId, std::string("DE")); // "zone"
        QCOMPARE(trace.timeZone, std::string("Europe/Berlin"));
        QCOMPARE(trace.size(), std::size_t(24));
        QCOMPARE(trace.stepSeconds, qint64(3600));
        QCOMPARE(trace.startUtc, k2022);
        QCOMPARE(trace.gPerKwh[0], 213.0); // DE_2022.csv's 212.91, rounded as the API reports integers
        QCOMPARE(trace.provenance.estimatedRows, std::size_t(1));
        QVERIFY(trace.provenance.attribution.find("Electricity Maps API") != std::string::npos);
        // The file holds life-cycle values: asking for direct ones is refused, naming both.
        TraceLoadOptions direct;
        direct.column = "direct";
        QVERIFY_THROWS_EXCEPTION(
            InputError, loadCarbonTrace(fixture("DE_2022_electricitymaps_api_history.json"), direct));
    }

    void electricityMapsApiPastRangeDirect() {
        const CarbonTrace trace =
            loadCarbonTrace(fixture("FR_2022_electricitymaps_api_past_range_direct.json"));
        QCOMPARE(trace.provenance.format, std::string("electricitymaps-api-json"));
        QCOMPARE(trace.provenance.column, std::string("carbonIntensity (direct)"));
        QCOMPARE(trace.regionId, std::string("FR"));
        QCOMPARE(trace.timeZone, std::string("Europe/Paris"));
        QCOMPARE(trace.size(), std::size_t(24));
        QCOMPARE(trace.gPerKwh[0], 26.0); // round(43.84 x 0.6 = 26.30): the generator's derived value
        TraceLoadOptions direct;
        direct.column = "direct";
        QCOMPARE(
            loadCarbonTrace(fixture("FR_2022_electricitymaps_api_past_range_direct.json"), direct).size(),
            std::size_t(24));
    }

    void electricityMapsApiPast() {
        // One record of an hour ("temporalGranularity": "hourly") is a trace of one slot.
        const CarbonTrace trace = loadCarbonTrace(fixture("DE_2022_electricitymaps_api_past.json"));
        QCOMPARE(trace.size(), std::size_t(1));
        QCOMPARE(trace.stepSeconds, qint64(3600));
        QCOMPARE(trace.startUtc, k2022);
        QCOMPARE(trace.gPerKwh[0], 213.0);
    }

    void wattTimeV3Json() {
        const CarbonTrace trace = loadCarbonTrace(fixture("CAISO_NORTH_watttime_v3.json"));
        QCOMPARE(trace.provenance.format, std::string("watttime-json"));
        QCOMPARE(trace.provenance.column, std::string("value (lbs/MWh)"));
        QCOMPARE(trace.signal, CarbonSignal::Marginal);       // signal_type co2_moer
        QCOMPARE(trace.regionId, std::string("CAISO_NORTH")); // meta.region
        QCOMPARE(trace.size(), std::size_t(288));
        QCOMPARE(trace.stepSeconds, qint64(300));
        QCOMPARE(trace.startUtc, k2022);
        // 604.2 lbs/MWh (meta.units lbs_co2_per_mwh) x 0.45359237 kg/lb: one multiplication, a few ulps.
        QVERIFY(std::abs(trace.gPerKwh[0] / (604.2 * 0.45359237) - 1.0) < 1e-12);
    }

    void csvWithItsUnitInTheHeader() {
        const CarbonTrace trace = loadCarbonTrace(fixture("US-CAL-CISO_plain_lbs.csv"));
        QCOMPARE(trace.provenance.format, std::string("unit-csv"));
        QCOMPARE(trace.provenance.column, std::string("carbon_intensity (lbs co2/mwh)"));
        QCOMPARE(trace.regionId, std::string("US-CAL-CISO")); // the file name's stem
        QCOMPARE(trace.timeZone, std::string("America/Los_Angeles"));
        QCOMPARE(trace.size(), std::size_t(24));
        // 604.221 lbs/MWh back to g/kWh: CISO's 274.07 within the generator's 3-decimal rounding (0.00023
        // g/kWh).
        QVERIFY(std::abs(trace.gPerKwh[0] / (604.221 * 0.45359237) - 1.0) < 1e-12);
        QVERIFY(std::abs(trace.gPerKwh[0] - 274.07) < 0.00023);
    }

    void wattTimeCsv() {
        const CarbonTrace trace = loadCarbonTrace(fixture("CAISO_NORTH_watttime_moer.csv"));
        QCOMPARE(trace.provenance.format, std::string("watttime-moer-csv"));
        QCOMPARE(trace.signal, CarbonSignal::Marginal);
        QCOMPARE(trace.regionId, std::string("CAISO_NORTH"));         // from "ba"
        QCOMPARE(trace.timeZone, std::string("America/Los_Angeles")); // CAISO's zone, US-CAL-CISO
        QVERIFY(!trace.timeZoneAssumed);
        QCOMPARE(trace.size(), std::size_t(576)); // 48 h * 12 points
        QCOMPARE(trace.stepSeconds, qint64(300));
        QCOMPARE(trace.startUtc, k2022);
        // 604.221 lbs/MWh * 0.45359237 (kg/lb) = 274.0700354 g/kWh, which is CISO's first hour 274.07 to
        // within the generator's 3-decimal rounding (0.0005 lbs/MWh = 0.00023 g/kWh).
        // Relative tolerance 1e-12: one multiplication, a few ulps.
        QVERIFY(std::abs(trace.gPerKwh[0] / (604.221 * 0.45359237) - 1.0) < 1e-12);
        QVERIFY(std::abs(trace.gPerKwh[0] - 274.07) < 0.00023);
        QCOMPARE(trace.gPerKwh[11], trace.gPerKwh[0]); // same hour, same text, same conversion
        QVERIFY(trace.gPerKwh[12] != trace.gPerKwh[0]);
    }

    void ukCarbonIntensityNational() {
        const CarbonTrace trace = loadCarbonTrace(fixture("GB_2022_carbonintensity_national.json"));
        QCOMPARE(trace.provenance.format, std::string("uk-carbon-intensity-json"));
        QCOMPARE(trace.regionId, std::string("GB"));
        QCOMPARE(trace.timeZone, std::string("Europe/London"));
        QCOMPARE(trace.size(), std::size_t(144));
        QCOMPARE(trace.stepSeconds, qint64(1800)); // "to" - "from"
        QCOMPARE(trace.startUtc, k2022);
        QCOMPARE(trace.gPerKwh[0], 92.54);  // actual, parsed exactly
        QCOMPARE(trace.gPerKwh[40], 106.0); // actual null -> forecast 106 (integer, exact)
        QCOMPARE(trace.provenance.estimatedRows, std::size_t(4));
        QVERIFY(trace.provenance.repairs.empty()); // the fallback is a note, not a repair
        QCOMPARE(trace.provenance.notes.size(), std::size_t(1));
        QVERIFY(trace.provenance.notes[0].find("4 of 144 rows use intensity.forecast") != std::string::npos);
    }

    void ukCarbonIntensityRegional() {
        const CarbonTrace trace = loadCarbonTrace(fixture("GB_2022_carbonintensity_region13.json"));
        QCOMPARE(trace.regionId, std::string("GB-13"));
        QCOMPARE(trace.timeZone, std::string("Europe/London"));
        QCOMPARE(trace.size(), std::size_t(48));
        QCOMPARE(trace.gPerKwh[0], 93.0); // forecast round(92.54) = 93 (integer, exact)
        QCOMPARE(trace.provenance.estimatedRows, std::size_t(48)); // forecasts only
    }

    // Issue 40, item 10: a region id that is not one of the API's (1 to 18) is refused at its position; 1e300
    // used to become the region "GB--9223372036854775808".
    void ukRegionIdsAreTheApis() {
        std::ifstream in(fixture("GB_2022_carbonintensity_region13.json"));
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        QTemporaryDir dir;
        for (const char* id : {"1e300", "0", "13.5", "-2", "19"}) {
            std::string changed = text;
            changed.replace(changed.find("\"regionid\":13"), 13, std::string("\"regionid\":") + id);
            const std::string path = dir.filePath(QStringLiteral("uk.json")).toStdString();
            std::ofstream(path) << changed;
            try {
                loadCarbonTrace(path);
                QFAIL(id);
            } catch (const InputError& error) {
                QCOMPARE(error.line(), 1);
                QCOMPARE(error.column(), 22); // {"data":[{"regionid": is 21 characters
                QVERIFY2(error.problem().find("a whole number from 1 to 18") != std::string::npos,
                         error.what());
            }
        }
    }

    void carbonAwareSdkJson() {
        const CarbonTrace trace = loadCarbonTrace(fixture("westus_carbonaware.json"));
        QCOMPARE(trace.provenance.format, std::string("carbon-aware-sdk-json"));
        QCOMPARE(trace.regionId, std::string("westus"));
        QCOMPARE(trace.size(), std::size_t(72));
        QCOMPARE(trace.stepSeconds, qint64(3600)); // "duration": "01:00:00"
        QCOMPARE(trace.startUtc, k2022);
        const CarbonTrace canonical = loadCarbonTrace(bundled(QStringLiteral("US-CAL-CISO_2022.csv")));
        for (std::size_t i = 0; i < trace.size(); ++i) // same decimal text -> same double (tolerance 0)
            QVERIFY2(sameBits(trace.gPerKwh[i], canonical.gPerKwh[i]), std::to_string(i).c_str());
    }

    void canonicalWithMarginal() {
        const CarbonTrace trace = loadCarbonTrace(fixture("US-TEX-ERCO_withmarginal.csv"));
        QVERIFY(trace.hasMarginal());
        QCOMPARE(trace.regionId, std::string("US-TEX-ERCO")); // file-name stem before '_'
        QCOMPARE(trace.timeZone, std::string("America/Chicago"));
        QCOMPARE(trace.size(), std::size_t(24));
        QCOMPARE(trace.gPerKwh[0], 367.57);
        // marginal = round(367.57 * 1.15, 2) = round(422.7055, 2); tolerance 0.0051: the generator's
        // 2-decimal rounding plus the binary representation of 422.7055.
        QVERIFY(std::abs(trace.marginalGPerKwh[0] - 367.57 * 1.15) <= 0.0051);
        QVERIFY(trace.provenance.attribution.empty()); // no SOURCES.md next to the fixtures
    }

    void bundledTraces_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("region");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        // min / mean / max (LCA, g/kWh) as published in sample_data/traces/SOURCES.md.
        QTest::newRow("CISO") << QStringLiteral("US-CAL-CISO_2022.csv") << QStringLiteral("US-CAL-CISO")
                              << QStringLiteral("America/Los_Angeles") << 261.28 << 89.10 << 443.63;
        QTest::newRow("ERCOT") << QStringLiteral("US-TEX-ERCO_2022.csv") << QStringLiteral("US-TEX-ERCO")
                               << QStringLiteral("America/Chicago") << 399.53 << 129.57 << 601.66;
        QTest::newRow("GB") << QStringLiteral("GB_2022.csv") << QStringLiteral("GB")
                            << QStringLiteral("Europe/London") << 233.94 << 54.77 << 391.02;
        QTest::newRow("DE") << QStringLiteral("DE_2022.csv") << QStringLiteral("DE")
                            << QStringLiteral("Europe/Berlin") << 473.98 << 166.70 << 757.44;
        QTest::newRow("FR") << QStringLiteral("FR_2022.csv") << QStringLiteral("FR")
                            << QStringLiteral("Europe/Paris") << 89.09 << 22.57 << 183.51;
        QTest::newRow("SE3") << QStringLiteral("SE-SE3_2022.csv") << QStringLiteral("SE-SE3")
                             << QStringLiteral("Europe/Stockholm") << 23.38 << 12.26 << 58.03;
        QTest::newRow("ZA") << QStringLiteral("ZA_2022.csv") << QStringLiteral("ZA")
                            << QStringLiteral("Africa/Johannesburg") << 704.26 << 586.25 << 778.38;
    }
    void bundledTraces() {
        QFETCH(QString, file);
        QFETCH(QString, region);
        QFETCH(QString, zone);
        QFETCH(double, mean);
        QFETCH(double, min);
        QFETCH(double, max);
        const std::string path = bundled(file);
        const CarbonTrace trace = loadCarbonTrace(path);
        QCOMPARE(trace.provenance.format, std::string("canonical-csv"));
        QCOMPARE(trace.regionId, region.toStdString());
        QCOMPARE(trace.timeZone, zone.toStdString());
        QCOMPARE(trace.size(), std::size_t(8760));
        QCOMPARE(trace.stepSeconds, qint64(3600));
        QCOMPARE(trace.startUtc, k2022);
        QVERIFY(!trace.hasMarginal());
        const TraceSummary summary = summarizeTrace(trace);
        QCOMPARE(summary.rows, std::size_t(8760));
        QCOMPARE(summary.endUtc,
                 k2022 + 8760 * kSecondsPerHour); // 2023-01-01T00:00:00Z, end of the last slot
        // Tolerance 0.01 g/kWh: SOURCES.md rounds to 2 decimals (so +-0.005), plus margin for summation
        // order.
        QVERIFY2(std::abs(summary.meanGPerKwh - mean) <= 0.01, std::to_string(summary.meanGPerKwh).c_str());
        QVERIFY2(std::abs(summary.minGPerKwh - min) <= 0.01, std::to_string(summary.minGPerKwh).c_str());
        QVERIFY2(std::abs(summary.maxGPerKwh - max) <= 0.01, std::to_string(summary.maxGPerKwh).c_str());
        // Provenance: the SOURCES.md next to the files names Electricity Maps and ODbL.
        QCOMPARE(trace.provenance.attribution, electricityMapsAttribution());
        QFile in(QString::fromStdString(path));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray hash = QCryptographicHash::hash(in.readAll(), QCryptographicHash::Sha256).toHex();
        QCOMPARE(trace.provenance.contentSha256, hash.toStdString());
        QCOMPARE(trace.provenance.sourceFile, path);
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("path");
        for (const char* name : {"US-CAL-CISO_2022.csv", "US-TEX-ERCO_2022.csv", "GB_2022.csv", "DE_2022.csv",
                                 "FR_2022.csv", "SE-SE3_2022.csv", "ZA_2022.csv"})
            QTest::newRow(name) << QString::fromStdString(bundled(QString::fromLatin1(name)));
        for (const char* name : {"DE_2022_electricitymaps.csv", "CAISO_NORTH_watttime_moer.csv",
                                 "GB_2022_carbonintensity_national.json", "westus_carbonaware.json",
                                 "US-TEX-ERCO_withmarginal.csv"})
            QTest::newRow(name) << QString::fromStdString(fixture(name));
    }
    void roundTrip() {
        QFETCH(QString, path);
        const CarbonTrace first = loadCarbonTrace(path.toStdString());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string copy = dir.filePath(QStringLiteral("copy.csv")).toStdString();
        writeCanonicalCsv(first, copy);
        const CarbonTrace second = loadCarbonTrace(copy);
        QCOMPARE(second.provenance.format, std::string("canonical-csv"));
        QCOMPARE(second.startUtc, first.startUtc);
        QCOMPARE(second.stepSeconds, first.stepSeconds);
        QCOMPARE(second.signal, first.signal);
        QCOMPARE(second.size(), first.size());
        QCOMPARE(second.marginalGPerKwh.size(), first.marginalGPerKwh.size());
        // Bit-identical (tolerance 0): the writer uses the shortest round-trip text.
        for (std::size_t i = 0; i < first.size(); ++i)
            QVERIFY2(sameBits(first.gPerKwh[i], second.gPerKwh[i]), std::to_string(i).c_str());
        for (std::size_t i = 0; i < first.marginalGPerKwh.size(); ++i)
            QVERIFY(sameBits(first.marginalGPerKwh[i], second.marginalGPerKwh[i]));
    }

    void writerFailsCleanly() {
        CarbonTrace trace;
        trace.gPerKwh = {1.0, 2.0};
        try {
            writeCanonicalCsv(trace, "/nonexistent-dir/for/sure/x.csv");
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.line(), 0);
            QVERIFY(error.problem().find("cannot write") != std::string::npos);
        }
    }

    void regionAndTimeZone_data() {
        QTest::addColumn<QString>("region");
        QTest::addColumn<QString>("zone");
        QTest::newRow("CISO") << QStringLiteral("US-CAL-CISO") << QStringLiteral("America/Los_Angeles");
        QTest::newRow("ERCOT") << QStringLiteral("US-TEX-ERCO") << QStringLiteral("America/Chicago");
        QTest::newRow("GB") << QStringLiteral("GB") << QStringLiteral("Europe/London");
        QTest::newRow("DE") << QStringLiteral("DE") << QStringLiteral("Europe/Berlin");
        QTest::newRow("FR") << QStringLiteral("FR") << QStringLiteral("Europe/Paris");
        QTest::newRow("SE3") << QStringLiteral("SE-SE3") << QStringLiteral("Europe/Stockholm");
        QTest::newRow("ZA") << QStringLiteral("ZA") << QStringLiteral("Africa/Johannesburg");
        QTest::newRow("UK region") << QStringLiteral("GB-13") << QStringLiteral("Europe/London");
        // Beyond the bundled seven: Electricity Maps zones, and WattTime's regions through the balancing
        // authority's zone.
        QTest::newRow("South Australia") << QStringLiteral("AU-SA") << QStringLiteral("Australia/Adelaide");
        QTest::newRow("South Korea") << QStringLiteral("KR") << QStringLiteral("Asia/Seoul");
        QTest::newRow("PJM zone") << QStringLiteral("US-MIDA-PJM") << QStringLiteral("America/New_York");
        QTest::newRow("WattTime CAISO_NORTH")
            << QStringLiteral("CAISO_NORTH") << QStringLiteral("America/Los_Angeles");
        QTest::newRow("WattTime ERCOT_EASTTX")
            << QStringLiteral("ERCOT_EASTTX") << QStringLiteral("America/Chicago");
        QTest::newRow("WattTime PJM_DC") << QStringLiteral("PJM_DC") << QStringLiteral("America/New_York");
        QTest::newRow("WattTime PACW") << QStringLiteral("PACW") << QStringLiteral("America/Los_Angeles");
        QTest::newRow("WattTime AZPS") << QStringLiteral("AZPS") << QStringLiteral("America/Phoenix");
        QTest::newRow("unknown") << QStringLiteral("QQ")
                                 << QStringLiteral("UTC"); // ("XX" is Northern Cyprus)
        QTest::newRow("Azure region") << QStringLiteral("westus") << QStringLiteral("UTC");
        QTest::newRow("prefix is not enough") << QStringLiteral("DE-X") << QStringLiteral("UTC");
    }
    void regionAndTimeZone() {
        QFETCH(QString, region);
        QFETCH(QString, zone);
        QCOMPARE(defaultTimeZoneForRegion(region.toStdString()), zone.toStdString());
        QCOMPARE(knownTimeZoneForRegion(region.toStdString()).has_value(), zone != QStringLiteral("UTC"));
    }

    void everyZoneOfTheTableIsAKnownTimeZone() {
        // The generated table (scripts/make-zone-time-zones): every entry found by the lookup (so it is
        // sorted as the binary search needs) and a zone the system's time-zone database knows.
        std::ifstream in(std::string(CARBON3D_SOURCE_DIR) + "/core/traces/ZoneTimeZones.inc");
        std::string line;
        int entries = 0;
        std::string previous;
        while (std::getline(in, line)) {
            if (line.rfind("{\"", 0) != 0)
                continue;
            const std::size_t idEnd = line.find('"', 2);
            const std::size_t zoneStart = line.find('"', idEnd + 1) + 1;
            const std::string id = line.substr(2, idEnd - 2);
            const std::string zone = line.substr(zoneStart, line.find('"', zoneStart) - zoneStart);
            QVERIFY2(previous < id, id.c_str());
            previous = id;
            QCOMPARE(knownTimeZoneForRegion(id).value_or("none"), zone);
            QVERIFY2(isKnownTimeZone(zone), (id + " " + zone).c_str());
            ++entries;
        }
        QVERIFY(entries > 300);
    }

    void aRegionWithoutAKnownZoneIsMarked() {
        // The Carbon Aware SDK fixture's "westus" is in no table: UTC by assumption, and the trace says so.
        const CarbonTrace unknown = loadCarbonTrace(fixture("westus_carbonaware.json"));
        QCOMPARE(unknown.timeZone, std::string("UTC"));
        QVERIFY(unknown.timeZoneAssumed);
        QVERIFY(timeZoneAssumedWarning(unknown).find("region westus: its time zone is not known") == 0);
        TraceLoadOptions given;
        given.timeZone = "America/Los_Angeles";
        const CarbonTrace named = loadCarbonTrace(fixture("westus_carbonaware.json"), given);
        QVERIFY(!named.timeZoneAssumed);
        QVERIFY(!loadCarbonTrace(fixture("DE_2022_electricitymaps.csv")).timeZoneAssumed);
    }

    void optionsOverride() {
        TraceLoadOptions options;
        options.regionId = "MY-ZONE";
        CarbonTrace trace = loadCarbonTrace(bundled(QStringLiteral("ZA_2022.csv")), options);
        QCOMPARE(trace.regionId, std::string("MY-ZONE"));
        QCOMPARE(trace.timeZone, std::string("UTC"));
        options.timeZone = "Asia/Tokyo";
        trace = loadCarbonTrace(bundled(QStringLiteral("ZA_2022.csv")), options);
        QCOMPARE(trace.timeZone, std::string("Asia/Tokyo"));
    }

    void summaryByHand() {
        CarbonTrace trace;
        trace.startUtc = 1000;
        trace.stepSeconds = 1800;
        trace.gPerKwh = {300.0, 100.0, 200.0};
        const TraceSummary summary = summarizeTrace(trace);
        QCOMPARE(summary.rows, std::size_t(3));
        QCOMPARE(summary.endUtc, qint64(1000 + 3 * 1800));
        // min 100, max 300, mean (300+100+200)/3 = 200: all exact in binary (tolerance 0).
        QCOMPARE(summary.minGPerKwh, 100.0);
        QCOMPARE(summary.maxGPerKwh, 300.0);
        QCOMPARE(summary.meanGPerKwh, 200.0);
        QVERIFY(std::isnan(summarizeTrace(CarbonTrace{}).meanGPerKwh));
    }
};

QTEST_GUILESS_MAIN(TestTraceFormats)
#include "tst_traceformats.moc"
