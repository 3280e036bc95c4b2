// SPDX-License-Identifier: MIT
// Every forecast-file format loads its fixture (made from the provider's documented schema) with the issue
// times, periods, values and units the file holds; malformed files are refused at their line with what was
// expected; a directory of downloads merges into one archive.

#include "domain/InputError.h"
#include "domain/Time.h"
#include "traces/ForecastLoader.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace carbon3d;

namespace {

std::string fixture(const char* name) {
    return std::string(CARBON3D_SOURCE_DIR) + "/tests/data/forecasts/" + name;
}

UtcSeconds at(const char* iso) {
    return *parseIsoDateTime(iso);
}

// 1 lb/MWh = 453.59237 g / 1000 kWh.
constexpr double kLbsPerMwhInGPerKwh = 0.45359237;

// Writes `text` to `name` in `dir` and returns the path.
std::string written(const QTemporaryDir& dir, const char* name, const std::string& text) {
    std::string path = dir.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}

// The InputError loading `path` throws; fails the test when it loads.
InputError refusal(const std::string& path) {
    try {
        loadForecastArchive(path);
    } catch (const InputError& error) {
        return error;
    }
    return {path, -1, -1, "loaded"};
}

} // namespace

class TestForecastFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plainCsvGroupsRowsIntoIssues() {
        const ForecastArchive archive = loadForecastArchive(fixture("plain.csv"));
        QCOMPARE(archive.format, std::string("forecast-csv"));
        QVERIFY(archive.regionId.empty());
        QVERIFY(!archive.signal);
        QCOMPARE(archive.issues.size(), std::size_t(2));
        const ForecastIssue& first = archive.issues[0];
        QCOMPARE(first.issuedUtc, at("2023-04-14T12:01:00Z"));
        QCOMPARE(first.periods.size(), std::size_t(4));
        QCOMPARE(first.periods[0].seconds, std::int64_t(1800)); // the spacing of its targets
        QCOMPARE(first.periods[3].seconds, std::int64_t(1800)); // the last as long as the one before
        // An hour over two half-hour periods is their mean: (174 + 170) / 2, exact in binary (tolerance 0).
        QCOMPARE(*first.valueOver(at("2023-04-14T12:00:00Z"), at("2023-04-14T13:00:00Z")), 172.0);
        // A slot the issue covers half of takes the covered half's value.
        QCOMPARE(*first.valueOver(at("2023-04-14T13:30:00Z"), at("2023-04-14T14:30:00Z")), 150.0);
        QVERIFY(!first.valueOver(at("2023-04-14T14:00:00Z"), at("2023-04-14T15:00:00Z")));
        // The latest issue published by an instant, never a later one.
        QVERIFY(archive.latestIssuedBy(at("2023-04-14T12:00:00Z")) == nullptr);
        QCOMPARE(archive.latestIssuedBy(at("2023-04-14T13:00:00Z")), &archive.issues[0]);
        QCOMPARE(archive.latestIssuedBy(at("2023-04-14T13:01:00Z")), &archive.issues[1]);
    }

    void electricityMapsForecast() {
        const ForecastArchive archive = loadForecastArchive(fixture("electricitymaps_forecast.json"));
        QCOMPARE(archive.format, std::string("electricitymaps-forecast-json"));
        QCOMPARE(archive.regionId, std::string("DE"));
        QCOMPARE(*archive.signal, CarbonSignal::Average);
        QCOMPARE(archive.issues.size(), std::size_t(1));
        QCOMPARE(archive.issues[0].issuedUtc, at("2023-04-14T11:52:31.690Z"));
        QCOMPARE(archive.issues[0].periods.size(), std::size_t(3));
        QCOMPARE(archive.issues[0].periods[1].gPerKwh, 288.0);
        QCOMPARE(archive.issues[0].periods[2].seconds, std::int64_t(3600));
    }

    void wattTimeForecastConvertsItsUnits() {
        const ForecastArchive archive = loadForecastArchive(fixture("watttime_forecast.json"));
        QCOMPARE(archive.format, std::string("watttime-forecast-json"));
        QCOMPARE(archive.regionId, std::string("CAISO_NORTH"));
        QCOMPARE(*archive.signal, CarbonSignal::Marginal);
        QCOMPARE(archive.issues[0].issuedUtc, at("2023-04-14T11:55:00Z"));
        QCOMPARE(archive.issues[0].periods[0].seconds, std::int64_t(300)); // data_point_period_seconds
        // 1000 lbs/MWh = 453.59237 g/kWh; one multiplication, so within one rounding (1e-12 relative).
        QVERIFY(std::abs(archive.issues[0].periods[0].gPerKwh - 1000.0 * kLbsPerMwhInGPerKwh) < 1e-9);
        QVERIFY(
            std::abs(*archive.issues[0].valueOver(at("2023-04-14T12:00:00Z"), at("2023-04-14T12:15:00Z")) -
                     900.0 * kLbsPerMwhInGPerKwh) < 1e-9); // (1000 + 900 + 800) / 3
        QVERIFY(!archive.notes.empty());
    }

    void wattTimeHistoricalForecastsAreManyIssues() {
        const ForecastArchive archive = loadForecastArchive(fixture("watttime_forecast_historical.json"));
        QCOMPARE(archive.format, std::string("watttime-forecast-json"));
        QCOMPARE(archive.issues.size(), std::size_t(2));
        QCOMPARE(archive.issues[1].issuedUtc, at("2023-04-14T12:05:00Z"));
        QVERIFY(std::abs(archive.issues[1].periods[1].gPerKwh - 970.0 * kLbsPerMwhInGPerKwh) < 1e-9);
    }

    void ukFortyEightHourForecast() {
        const ForecastArchive archive = loadForecastArchive(fixture("uk_fw48h.json"));
        QCOMPARE(archive.format, std::string("uk-carbon-intensity-forecast-json"));
        QCOMPARE(archive.regionId, std::string("GB"));
        // The response does not date itself: the issue is dated at its first period's start.
        QCOMPARE(archive.issues[0].issuedUtc, at("2023-04-14T12:00Z"));
        QCOMPARE(archive.issues[0].periods[2].gPerKwh, 169.0);
        QCOMPARE(archive.issues[0].periods[2].seconds, std::int64_t(1800)); // from its "to"
        QVERIFY(archive.attribution.find("CC BY 4.0") != std::string::npos);
    }

    void carbonAwareSdkForecast() {
        const ForecastArchive archive = loadForecastArchive(fixture("carbon_aware_sdk_forecast.json"));
        QCOMPARE(archive.format, std::string("carbon-aware-sdk-forecast-json"));
        QCOMPARE(archive.regionId, std::string("eastus"));
        QCOMPARE(archive.issues[0].issuedUtc, at("2023-04-14T12:00:00Z"));
        QCOMPARE(archive.issues[0].periods[0].seconds, std::int64_t(300)); // "duration" in minutes
        QCOMPARE(archive.issues[0].periods[0].gPerKwh, 500.25);
    }

    void aDirectoryOfDownloadsIsOneArchive() {
        QTemporaryDir dir;
        std::ifstream in(fixture("electricitymaps_forecast.json"));
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        written(dir, "a.json", text);
        std::string later = text;
        later.replace(later.find("2023-04-14T11:52:31.690Z"), 24, "2023-04-14T12:52:31.690Z");
        written(dir, "b.json", later);
        written(dir, "c.json", later); // downloaded twice: the later file's issue is kept, and said
        written(dir, "notes.txt", "not a forecast");
        const ForecastArchive archive = loadForecastArchive(dir.path().toStdString());
        QCOMPARE(archive.issues.size(), std::size_t(2));
        QCOMPARE(archive.issues[1].issuedUtc, at("2023-04-14T12:52:31.690Z"));
        QVERIFY(!archive.notes.empty());
        written(dir, "d.csv", "issued_at,target_time,value (g/kWh)\n2023-04-14T13:00Z,2023-04-14T13:00Z,1\n");
        QCOMPARE(loadForecastArchive(dir.path().toStdString()).format, std::string("mixed"));
        // A file for another region is refused by name.
        std::string elsewhere = text;
        elsewhere.replace(elsewhere.find("\"DE\""), 4, "\"FR\"");
        written(dir, "e.json", elsewhere);
        const InputError error = refusal(dir.path().toStdString());
        QVERIFY2(error.problem().find("'FR'") != std::string::npos, error.what());
        QVERIFY2(error.file().find("e.json") != std::string::npos, error.what());
    }

    void malformedFilesAreRefusedAtTheirLine() {
        QTemporaryDir dir;
        struct Case {
            const char* text;
            int line;
            const char* says;
        };
        const Case cases[] = {
            {"issued_at,target_time,forecast\n2023-04-14T12:00Z,2023-04-14T12:00Z,1\n", 1, "names no unit"},
            {"issued_at,target_time,forecast_gco2_per_kwh\n2023-04-14T12:00Z,2023-04-14T12:00Z,abc\n", 2,
             "unparsable number"},
            {"issued_at,target_time,forecast_gco2_per_kwh\n2023-04-14T12:00Z,soon,1\n", 2,
             "unparsable timestamp"},
            {"issued_at,target_time,forecast_gco2_per_kwh\n2023-04-14T12:00Z,2023-04-14T12:00Z,1\n"
             "2023-04-14T12:00Z,2023-04-14T12:00Z,2\n",
             3, "second prediction"},
            {"issued_at,target_time,forecast_gco2_per_kwh\n2023-04-14T12:00Z,2023-04-14T12:00Z,-5\n", 2,
             "negative"},
            {"when,value\n2023-04-14T12:00Z,1\n", 1, "not a forecast file"},
            {R"({"zone":"DE","forecast":[{"datetime":"2023-04-14T12:00Z"}],"updatedAt":"x"})", 1,
             "updatedAt"},
            {"{\"zone\":\"DE\",\"updatedAt\":\"2023-04-14T12:00Z\",\n\"forecast\":[{\"datetime\":\"2023-04-"
             "14T12:00Z\"}]}",
             2, "carbonIntensity"},
        };
        for (const Case& c : cases) {
            const InputError error = refusal(written(dir, "bad.csv", c.text));
            QVERIFY2(error.line() == c.line, (std::string(error.what()) + " | " + c.text).c_str());
            QVERIFY2(error.problem().find(c.says) != std::string::npos, error.what());
            QVERIFY2(error.file().find("bad.csv") != std::string::npos, error.what());
        }
        // What the unknown-format message lists: every format and its layout.
        const InputError unknown = refusal(written(dir, "bad.json", R"({"history":[]})"));
        QVERIFY2(unknown.problem().find("WattTime v3 forecast JSON") != std::string::npos, unknown.what());
        QVERIFY2(unknown.problem().find("issued_at,target_time") != std::string::npos, unknown.what());
    }
};

QTEST_GUILESS_MAIN(TestForecastFiles)
#include "tst_forecastfiles.moc"
