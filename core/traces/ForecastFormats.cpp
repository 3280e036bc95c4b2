// SPDX-License-Identifier: MIT
// The forecast-file formats as one table: each entry's id, name, layout, detection and parser. A forecast
// file holds issues (when a forecast was published, and the periods it predicted), never a trace of what the
// grid emitted; loadForecastArchive merges the issues of one file or of a directory of files.

#include "traces/ForecastFormats.h"

#include "domain/PrintableText.h"
#include "traces/FormatFields.h"
#include "traces/RawTrace.h"

#include <algorithm>
#include <array>
#include <map>

namespace carbon3d::traces_detail {

namespace {

// A predicted value as the file wrote it, with where it stands (for the messages).
struct PointAt {
    UtcSeconds startUtc = 0;
    double gPerKwh = 0.0;
    std::int64_t declaredSeconds = 0; // 0: the format gives no length, the spacing decides
    int line = 0;
    int column = 0;
};

// One issue from its points: in time order, each period lasting its declared length, else until the next
// point (the last as long as the one before it, an issue of one point an hour).
ForecastIssue issueFrom(UtcSeconds issuedUtc, std::vector<PointAt> points, const std::string& file) {
    std::stable_sort(points.begin(), points.end(),
                     [](const PointAt& a, const PointAt& b) { return a.startUtc < b.startUtc; });
    ForecastIssue issue;
    issue.issuedUtc = issuedUtc;
    issue.periods.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const PointAt& point = points[i];
        if (i > 0 && point.startUtc == points[i - 1].startUtc)
            throw InputError(file, point.line, point.column,
                             "second prediction for " + formatIsoUtc(point.startUtc) + " in the issue of " +
                                 formatIsoUtc(issuedUtc) + " (line " + std::to_string(points[i - 1].line) +
                                 "): expected one value per period");
        // Until the next point (0 for the last); never past it, whatever length the format declares.
        const std::int64_t gap = i + 1 < points.size() ? points[i + 1].startUtc - point.startUtc : 0;
        std::int64_t seconds = point.declaredSeconds > 0 ? point.declaredSeconds : gap;
        if (seconds == 0)
            seconds = i > 0 ? issue.periods.back().seconds : 3600;
        if (gap > 0)
            seconds = std::min(seconds, gap);
        issue.periods.push_back({point.startUtc, seconds, point.gPerKwh});
    }
    return issue;
}

// The forecast CSV's issue and target columns, each under any of its usual names.
constexpr std::array<std::string_view, 2> kIssueColumns{"issued_at", "generated_at"};
constexpr std::array<std::string_view, 3> kTargetColumns{"target_time", "point_time", "datetime"};

template <std::size_t N>
int firstColumnOf(const CsvHeader& header, const std::array<std::string_view, N>& names) {
    for (std::string_view name : names)
        if (const int column = findColumn(header.names, name); column >= 0)
            return column;
    return -1;
}

bool detectForecastCsv(const TraceFileHead& head) {
    return !head.json && head.header.names.size() == 3 && firstColumnOf(head.header, kIssueColumns) >= 0 &&
           firstColumnOf(head.header, kTargetColumns) >= 0;
}

ForecastFileContent parseForecastCsv(const TraceFileHead& head, std::string_view text,
                                     const std::string& file) {
    const CsvHeader& header = head.header;
    const int issueColumn = firstColumnOf(header, kIssueColumns);
    const int targetColumn = firstColumnOf(header, kTargetColumns);
    const int valueColumn = 3 - issueColumn - targetColumn;
    const std::string& valueName = header.names[static_cast<std::size_t>(valueColumn)];
    const std::optional<IntensityUnit> unit = intensityUnitIn(valueName);
    if (!unit)
        throw InputError(file, header.line, 0,
                         "the value column " + quotedExcerpt(valueName) +
                             " names no unit: expected a name that holds one, such as "
                             "'forecast_gco2_per_kwh' or 'value (lbs/MWh)' (units: " +
                             intensityUnitNames() + ")");
    std::map<UtcSeconds, std::vector<PointAt>> byIssue;
    const char* example = "an ISO-8601 time with its offset, such as 2023-04-14T12:01:00Z";
    forEachCsvDataRow(text, file, 3, [&](const std::vector<CsvCell>& cells, int line) {
        const CsvCell& value = cells[static_cast<std::size_t>(valueColumn)];
        PointAt point;
        point.line = line;
        point.startUtc = timestampCell(cells[static_cast<std::size_t>(targetColumn)], file, line, example);
        point.gPerKwh = numberCell(value, file, line, valueName) * unit->toGPerKwh;
        checkIntensity(point.gPerKwh, file, line, value.column, "forecast intensity");
        byIssue[timestampCell(cells[static_cast<std::size_t>(issueColumn)], file, line, example)].push_back(
            point);
    });
    ForecastFileContent content;
    for (auto& [issued, points] : byIssue)
        content.issues.push_back(issueFrom(issued, std::move(points), file));
    if (unit->toGPerKwh != 1.0)
        content.notes.push_back(std::string("values converted from ") + unit->name + " to g/kWh");
    return content;
}

// Electricity Maps API v3 carbon-intensity/forecast: {"zone","forecast":[{"carbonIntensity","datetime"}],
// "updatedAt"}.
ForecastFileContent parseElectricityMapsForecast(const TraceFileHead& head, std::string_view,
                                                 const std::string& file) {
    const JsonValue& root = *head.json;
    const char* context = "an Electricity Maps forecast";
    ForecastFileContent content;
    content.regionId = member(file, root, "zone", JsonValue::Type::String, context).toString();
    content.signal = CarbonSignal::Average;
    content.attribution = "Electricity Maps API data; its use is governed by Electricity Maps' terms.";
    if (const JsonValue* factor = root.find("emissionFactorType"); factor != nullptr && factor->isString())
        content.notes.push_back("emission factor: " + factor->toString());
    const UtcSeconds issued =
        timestampOf(file, member(file, root, "updatedAt", JsonValue::Type::String, context),
                    "'updatedAt', the time the forecast was published, such as 2023-04-14T11:52:31.690Z");
    std::vector<PointAt> points;
    for (const JsonValue& element : member(file, root, "forecast", JsonValue::Type::Array, context).items()) {
        if (!element.isObject())
            failAt(file, element, R"(expected a prediction {"carbonIntensity","datetime"})");
        const JsonValue& time = member(file, element, "datetime", JsonValue::Type::String, "a prediction");
        const JsonValue& value =
            member(file, element, "carbonIntensity", JsonValue::Type::Number, "a prediction");
        checkIntensity(value.toNumber(), file, value.line(), value.column(), "forecast intensity");
        points.push_back({timestampOf(file, time, "an ISO-8601 time such as 2023-04-14T12:00:00.000Z"),
                          value.toNumber(), 0, time.line(), time.column()});
    }
    content.issues.push_back(issueFrom(issued, std::move(points), file));
    return content;
}

// WattTime v3 forecast: {"data":[{"point_time","value"}],"meta":{"generated_at",...}}, or the historical
// forecasts: {"data":[{"generated_at","forecast":[{"point_time","value"}]}],"meta":{...}}.
ForecastFileContent parseWattTimeForecast(const TraceFileHead& head, std::string_view,
                                          const std::string& file) {
    const JsonValue& root = *head.json;
    const JsonValue& meta = member(file, root, "meta", JsonValue::Type::Object, "a WattTime forecast");
    ForecastFileContent content;
    content.attribution = "WattTime forecast data; its use is governed by WattTime's terms, which are not an "
                          "open licence.";
    const WattTimeMeta facts = readWattTimeMeta(meta, file);
    content.signal = facts.signal;
    content.regionId = facts.regionId;
    const std::int64_t period = facts.periodSeconds;
    const IntensityUnit* unit = &facts.unit;
    const char* timeExample = "an ISO-8601 time such as 2024-05-01T12:00:00+00:00";
    const auto pointsOf = [&](const JsonValue& array) {
        std::vector<PointAt> points;
        for (const JsonValue& point : array.items()) {
            if (!point.isObject())
                failAt(file, point, R"(expected a point {"point_time","value"})");
            const JsonValue& time =
                member(file, point, "point_time", JsonValue::Type::String, "a WattTime point");
            const JsonValue& value =
                member(file, point, "value", JsonValue::Type::Number, "a WattTime point");
            const double gPerKwh = value.toNumber() * unit->toGPerKwh;
            checkIntensity(gPerKwh, file, value.line(), value.column(),
                           std::string("forecast (converted from ") + unit->name + ")");
            points.push_back(
                {timestampOf(file, time, timeExample), gPerKwh, period, time.line(), time.column()});
        }
        return points;
    };
    const JsonValue& data = member(file, root, "data", JsonValue::Type::Array, "a WattTime forecast");
    if (const JsonValue* generated = meta.find("generated_at"); generated != nullptr) {
        content.issues.push_back(issueFrom(timestampOf(file, *generated, timeExample), pointsOf(data), file));
    } else {
        for (const JsonValue& issue : data.items()) {
            if (!issue.isObject())
                failAt(file, issue, R"(expected a historical forecast {"generated_at","forecast"})");
            const char* what = "a WattTime historical forecast";
            const JsonValue& generatedAt = member(file, issue, "generated_at", JsonValue::Type::String, what);
            content.issues.push_back(
                issueFrom(timestampOf(file, generatedAt, timeExample),
                          pointsOf(member(file, issue, "forecast", JsonValue::Type::Array, what)), file));
        }
    }
    if (unit->toGPerKwh != 1.0)
        content.notes.push_back(std::string("values converted from ") + unit->name + " to g/kWh");
    return content;
}

// The UK Carbon Intensity API's national 48-hour forecast (/intensity/{from}/fw48h):
// {"data":[{"from","to","intensity":{"forecast",...}}]}. The response does not say when it was published;
// its first period had begun, so the issue is dated at that period's start (at most 30 minutes early).
ForecastFileContent parseUkForecast(const TraceFileHead& head, std::string_view, const std::string& file) {
    ForecastFileContent content;
    content.regionId = "GB";
    content.signal = CarbonSignal::Average;
    content.attribution =
        "Carbon Intensity API (carbonintensity.org.uk), National Grid ESO, licensed under CC BY 4.0.";
    const char* what = "a UK Carbon Intensity period";
    const char* timeExample = "a UTC time such as 2023-04-14T12:00Z";
    std::vector<PointAt> points;
    for (const JsonValue& element :
         member(file, *head.json, "data", JsonValue::Type::Array, "a UK Carbon Intensity forecast").items()) {
        if (!element.isObject())
            failAt(file, element, R"(expected a period {"from","to","intensity"})");
        const JsonValue& from = member(file, element, "from", JsonValue::Type::String, what);
        const JsonValue& to = member(file, element, "to", JsonValue::Type::String, what);
        const JsonValue& intensity = member(file, element, "intensity", JsonValue::Type::Object, what);
        const JsonValue& forecast =
            member(file, intensity, "forecast", JsonValue::Type::Number, "'intensity'");
        checkIntensity(forecast.toNumber(), file, forecast.line(), forecast.column(), "intensity.forecast");
        const UtcSeconds start = timestampOf(file, from, timeExample);
        const std::int64_t seconds = timestampOf(file, to, timeExample) - start;
        if (seconds <= 0)
            failAt(file, to, "'to' is not after 'from': expected the end of the period");
        points.push_back({start, forecast.toNumber(), seconds, from.line(), from.column()});
    }
    if (points.empty())
        failAt(file, *head.json, "an empty 'data' array: expected the forecast's periods");
    const UtcSeconds issued =
        std::min_element(points.begin(), points.end(), [](const PointAt& a, const PointAt& b) {
            return a.startUtc < b.startUtc;
        })->startUtc;
    content.issues.push_back(issueFrom(issued, std::move(points), file));
    content.notes.emplace_back(
        "issue times are each response's first period start (the API does not date them)");
    return content;
}

// The Carbon Aware SDK's forecasts (/emissions/forecasts/current and /batch): [{"generatedAt","location",
// "forecastData":[{"timestamp","duration","value"}]}]; duration in minutes.
ForecastFileContent parseCarbonAwareForecast(const TraceFileHead& head, std::string_view,
                                             const std::string& file) {
    ForecastFileContent content;
    const char* what = "a Carbon Aware SDK forecast";
    const char* timeExample = "an ISO-8601 time such as 2023-04-14T12:00:00+00:00";
    for (const JsonValue& forecast : head.json->items()) {
        if (!forecast.isObject())
            failAt(file, forecast, R"(expected a forecast {"generatedAt","location","forecastData"})");
        const JsonValue& location = member(file, forecast, "location", JsonValue::Type::String, what);
        if (content.regionId.empty())
            content.regionId = location.toString();
        else if (location.toString() != content.regionId)
            failAt(file, location,
                   "second location " + quotedExcerpt(location.toString()) +
                       ": expected one location per file, " + quotedExcerpt(content.regionId) + " before it");
        std::vector<PointAt> points;
        for (const JsonValue& point :
             member(file, forecast, "forecastData", JsonValue::Type::Array, what).items()) {
            if (!point.isObject())
                failAt(file, point, R"(expected a point {"timestamp","duration","value"})");
            const JsonValue& time =
                member(file, point, "timestamp", JsonValue::Type::String, "a forecast point");
            const JsonValue& minutes =
                member(file, point, "duration", JsonValue::Type::Number, "a forecast point");
            const JsonValue& value =
                member(file, point, "value", JsonValue::Type::Number, "a forecast point");
            if (!(minutes.toNumber() >= 1.0 && minutes.toNumber() <= 1440.0))
                failAt(file, minutes, "expected 'duration' to be minutes from 1 to 1440");
            checkIntensity(value.toNumber(), file, value.line(), value.column(), "forecast value");
            points.push_back({timestampOf(file, time, timeExample), value.toNumber(),
                              static_cast<std::int64_t>(minutes.toNumber()) * 60, time.line(),
                              time.column()});
        }
        content.issues.push_back(
            issueFrom(timestampOf(file, member(file, forecast, "generatedAt", JsonValue::Type::String, what),
                                  timeExample),
                      std::move(points), file));
    }
    return content;
}

bool firstElementHas(const TraceFileHead& head, std::string_view arrayKey, std::string_view key) {
    const JsonValue* array = arrayKey.empty() ? &*head.json : head.json->find(arrayKey);
    return array != nullptr && array->isArray() && !array->items().empty() &&
           array->items().front().isObject() && array->items().front().find(key) != nullptr;
}

} // namespace

const std::vector<ForecastFormat>& forecastFormats() {
    static const std::vector<ForecastFormat> formats{
        {"forecast-csv", "forecast CSV", "issued_at,target_time,<value with its unit>", detectForecastCsv,
         parseForecastCsv},
        {"electricitymaps-forecast-json", "Electricity Maps API forecast JSON",
         R"({"zone","forecast":[{"carbonIntensity","datetime"}],"updatedAt"})",
         [](const TraceFileHead& head) {
             return head.hasKeys({"zone", "forecast", "updatedAt"});
         },
         parseElectricityMapsForecast},
        {"watttime-forecast-json", "WattTime v3 forecast JSON",
         R"({"data":[{"point_time","value"}],"meta":{"generated_at",...}} or historical forecasts)",
         [](const TraceFileHead& head) {
             const JsonValue* meta = head.json ? head.json->find("meta") : nullptr;
             return head.hasKeys({"data", "meta"}) && meta->isObject() &&
                    (meta->find("generated_at") != nullptr || firstElementHas(head, "data", "generated_at"));
         },
         parseWattTimeForecast},
        {"uk-carbon-intensity-forecast-json", "UK Carbon Intensity API 48-hour forecast JSON",
         R"({"data":[{"from","to","intensity":{"forecast"}}]})",
         [](const TraceFileHead& head) {
             return head.hasKeys({"data"}) && firstElementHas(head, "data", "from");
         },
         parseUkForecast, true},
        {"carbon-aware-sdk-forecast-json", "Carbon Aware SDK forecast JSON",
         R"([{"generatedAt","location","forecastData":[{"timestamp","duration","value"}]}])",
         [](const TraceFileHead& head) {
             return head.json && head.json->isArray() && firstElementHas(head, "", "forecastData");
         },
         parseCarbonAwareForecast},
    };
    return formats;
}

} // namespace carbon3d::traces_detail
