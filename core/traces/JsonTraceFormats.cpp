// SPDX-License-Identifier: MIT
// The JSON formats. Every error points at the offending element's line and column, which the
// domain's positional JSON parser keeps (QJsonDocument would only give byte offsets for syntax errors).

#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/PrintableText.h"
#include "traces/FormatFields.h"
#include "traces/RawTrace.h"

#include <array>
#include <cmath>

namespace carbon3d::traces_detail {

[[noreturn]] void failAt(const std::string& file, const JsonValue& at, const std::string& problem) {
    throw InputError(file, at.line(), at.column(), problem);
}

const JsonValue& member(const std::string& file, const JsonValue& object, std::string_view key,
                        JsonValue::Type type, std::string_view context) {
    const JsonValue* value = object.find(key);
    if (value == nullptr)
        failAt(file, object, "missing key '" + std::string(key) + "' in " + std::string(context));
    if (value->type() != type)
        failAt(file, *value,
               "expected " + std::string(JsonValue::typeName(type)) + " for '" + std::string(key) +
                   "', found " + JsonValue::typeName(value->type()));
    return *value;
}

UtcSeconds timestampOf(const std::string& file, const JsonValue& value, std::string_view example) {
    const auto parsed = parseIsoDateTime(value.toString());
    if (!parsed)
        failAt(file, value,
               "unparsable timestamp " + quotedExcerpt(value.toString()) + ": expected " +
                   std::string(example));
    return *parsed;
}

namespace {

// One element of a UK API "data" array: {"from","to","intensity":{"forecast","actual","index"}}.
// Returns true when the forecast stood in for a missing or null actual.
bool readUkRow(const std::string& file, const JsonValue& element, RawRow& row) {
    if (!element.isObject())
        failAt(file, element,
               std::string(R"(expected an object {"from","to","intensity"}, found )") +
                   JsonValue::typeName(element.type()));
    const JsonValue& from =
        member(file, element, "from", JsonValue::Type::String, "a UK Carbon Intensity row");
    const JsonValue& to = member(file, element, "to", JsonValue::Type::String, "a UK Carbon Intensity row");
    const JsonValue& intensity =
        member(file, element, "intensity", JsonValue::Type::Object, "a UK Carbon Intensity row");
    row.line = from.line();
    row.column = from.column();
    row.startUtc = timestampOf(file, from, "a UTC time such as 2022-01-01T00:00Z");
    const UtcSeconds end = timestampOf(file, to, "a UTC time such as 2022-01-01T00:30Z");
    row.declaredStepSeconds = end - row.startUtc;
    if (row.declaredStepSeconds <= 0)
        failAt(file, to, "'to' is not after 'from': expected the end of the interval");
    const JsonValue* actual = intensity.find("actual");
    bool usedForecast = false;
    const JsonValue* chosen = actual;
    if (actual == nullptr || actual->isNull()) {
        chosen = intensity.find("forecast");
        usedForecast = true;
        if (chosen == nullptr || chosen->isNull())
            failAt(file, actual != nullptr ? *actual : intensity,
                   "expected a number for intensity.actual or intensity.forecast, found neither");
    }
    if (!chosen->isNumber())
        failAt(file, *chosen,
               std::string("expected a number for the intensity, found ") +
                   JsonValue::typeName(chosen->type()));
    row.gPerKwh = chosen->toNumber();
    checkIntensity(row.gPerKwh, file, chosen->line(), chosen->column(), "carbon intensity");
    return usedForecast;
}

} // namespace

RawTrace parseUkCarbonIntensityJson(const JsonValue& root, const std::string& file) {
    RawTrace raw;
    raw.column = "intensity.actual";
    raw.regionId = "GB";
    raw.headerLine = root.line();
    raw.headerColumn = root.column();
    raw.attribution =
        "Carbon Intensity API (carbonintensity.org.uk), National Grid ESO, licensed under CC BY 4.0.";
    if (!root.isObject() || root.find("data") == nullptr)
        failAt(file, root, "expected an object with a 'data' member (UK Carbon Intensity API)");
    const JsonValue* rows = root.find("data");

    // The regional endpoints wrap the rows in one object per region:
    // {"data":[{"regionid":13,...,"data":[...]}]} or, for a single region,
    // {"data":{"regionid":13,...,"data":[...]}}. One region per file.
    const JsonValue* region = nullptr;
    if (rows->isObject() && rows->find("regionid") != nullptr) {
        region = rows;
    } else if (rows->isArray() && !rows->items().empty() && rows->items().front().isObject() &&
               rows->items().front().find("regionid") != nullptr) {
        region = &rows->items().front();
        if (rows->items().size() > 1) {
            const JsonValue& second = rows->items()[1];
            failAt(file, second,
                   "second region in one file: expected one region per file (line " +
                       std::to_string(region->line()) + " starts the first)");
        }
    }
    if (region != nullptr) {
        const JsonValue& id = member(file, *region, "regionid", JsonValue::Type::Number, "a regional block");
        // The API numbers its regions 1 to 18 (14 distribution areas, England, Scotland, Wales, GB); anything
        // else is not one of them (1e300 used to become the region "GB--9223372036854775808").
        const double number = id.toNumber();
        if (!(number >= 1.0 && number <= 18.0) || number != std::floor(number))
            failAt(file, id,
                   "expected 'regionid' to be a region of the Carbon Intensity API, a whole number from 1 to "
                   "18, found " +
                       id.dump(-1));
        raw.regionId = "GB-" + std::to_string(static_cast<int>(number));
        rows = &member(file, *region, "data", JsonValue::Type::Array, "a regional block");
        raw.column = "intensity.forecast";
    }
    if (!rows->isArray())
        failAt(file, *rows,
               std::string("expected an array for 'data', found ") + JsonValue::typeName(rows->type()));
    raw.headerLine = rows->line();
    raw.headerColumn = rows->column();

    raw.rows.reserve(rows->items().size());
    for (const JsonValue& element : rows->items()) {
        RawRow row;
        if (readUkRow(file, element, row))
            ++raw.estimatedRows;
        raw.rows.push_back(row);
    }
    if (raw.estimatedRows > 0)
        raw.notes.push_back(std::to_string(raw.estimatedRows) + " of " + std::to_string(raw.rows.size()) +
                            " rows use intensity.forecast because intensity.actual is null or absent");
    return raw;
}

RawTrace parseCarbonAwareSdkJson(const JsonValue& root, const std::string& file) {
    RawTrace raw;
    raw.column = "rating";
    raw.headerLine = root.line();
    raw.headerColumn = root.column();
    if (!root.isArray())
        failAt(file, root, "expected an array of emissions records (Carbon Aware SDK)");
    const JsonValue* firstLocation = nullptr;
    raw.rows.reserve(root.items().size());
    for (const JsonValue& element : root.items()) {
        if (!element.isObject())
            failAt(file, element,
                   std::string(R"(expected an object {"location","time","rating","duration"}, found )") +
                       JsonValue::typeName(element.type()));
        const char* context = "a Carbon Aware SDK emissions record";
        const JsonValue& location = member(file, element, "location", JsonValue::Type::String, context);
        const JsonValue& time = member(file, element, "time", JsonValue::Type::String, context);
        const JsonValue& rating = member(file, element, "rating", JsonValue::Type::Number, context);
        const JsonValue& duration = member(file, element, "duration", JsonValue::Type::String, context);
        if (firstLocation == nullptr) {
            firstLocation = &location;
        } else if (location.toString() != firstLocation->toString()) {
            failAt(file, location,
                   "second location " + quotedExcerpt(location.toString()) +
                       ": expected one location per file, line " + std::to_string(firstLocation->line()) +
                       " has " + quotedExcerpt(firstLocation->toString()));
        }
        RawRow row;
        row.line = time.line();
        row.column = time.column();
        row.startUtc = timestampOf(file, time, "an ISO-8601 time such as 2022-01-01T00:00:00+00:00");
        // "duration" is a .NET TimeSpan; only the HH:MM:SS form is meaningful for grid data (< 1 day).
        const std::string& d = duration.toString();
        const auto digits = [&](std::size_t pos) {
            return d[pos] >= '0' && d[pos] <= '9' && d[pos + 1] >= '0' && d[pos + 1] <= '9';
        };
        if (d.size() != 8 || d[2] != ':' || d[5] != ':' || !digits(0) || !digits(3) || !digits(6))
            failAt(file, duration,
                   "unparsable duration " + quotedExcerpt(d) + ": expected HH:MM:SS such as 01:00:00");
        const auto two = [&](std::size_t pos) { return (d[pos] - '0') * 10 + (d[pos + 1] - '0'); };
        row.declaredStepSeconds = two(0) * 3600 + two(3) * 60 + two(6);
        row.gPerKwh = rating.toNumber();
        checkIntensity(row.gPerKwh, file, rating.line(), rating.column(), "rating");
        raw.rows.push_back(row);
    }
    if (firstLocation != nullptr)
        raw.regionId = firstLocation->toString();
    return raw;
}

namespace {

// The records of an Electricity Maps response: "history" (carbon-intensity/history), "data" (past-range) or
// the root itself (past, one record).
std::vector<const JsonValue*> electricityMapsRecords(const JsonValue& root, const std::string& file) {
    std::vector<const JsonValue*> records;
    const JsonValue* list = root.find("history") != nullptr ? root.find("history") : root.find("data");
    if (list == nullptr) {
        if (root.find("carbonIntensity") == nullptr)
            failAt(file, root,
                   "expected the records of an Electricity Maps carbon-intensity response: 'history' "
                   "(history), 'data' (past-range) or one record with 'carbonIntensity' (past)");
        records.push_back(&root);
        return records;
    }
    if (!list->isArray())
        failAt(file, *list,
               std::string("expected an array of records, found ") + JsonValue::typeName(list->type()));
    for (const JsonValue& record : list->items()) {
        if (!record.isObject())
            failAt(file, record,
                   std::string(R"(expected a record {"zone","carbonIntensity","datetime",...}, found )") +
                       JsonValue::typeName(record.type()));
        records.push_back(&record);
    }
    return records;
}

// Throws unless every record holds the same text under `key` (where it has the key); returns it.
std::string sameInEveryRecord(const std::vector<const JsonValue*>& records, const JsonValue& root,
                              std::string_view key, std::string_view what, const std::string& file) {
    const JsonValue* first = root.find(key);
    for (const JsonValue* record : records) {
        const JsonValue* value = record->find(key);
        if (value == nullptr || value->isNull())
            continue;
        if (!value->isString())
            failAt(file, *value,
                   "expected a string for '" + std::string(key) + "', found " +
                       JsonValue::typeName(value->type()));
        if (first == nullptr || first->isNull()) {
            first = value;
        } else if (value->toString() != first->toString()) {
            failAt(file, *value,
                   "second " + std::string(what) + " " + quotedExcerpt(value->toString()) +
                       ": expected one per file, line " + std::to_string(first->line()) + " has " +
                       quotedExcerpt(first->toString()));
        }
    }
    return first != nullptr && first->isString() ? first->toString() : std::string();
}

// A record's "temporalGranularity" in seconds (0 when it has none): what a one-record file needs to be a
// trace of one slot.
std::int64_t granularitySeconds(const std::string& file, const JsonValue& record) {
    const JsonValue* granularity = record.find("temporalGranularity");
    if (granularity == nullptr || granularity->isNull())
        return 0;
    static const std::array<std::pair<std::string_view, std::int64_t>, 4> kGranularities{
        {{"5_minutes", 300}, {"15_minutes", 900}, {"hourly", 3600}, {"daily", 86400}}};
    for (const auto& [name, seconds] : kGranularities)
        if (granularity->isString() && granularity->toString() == name)
            return seconds;
    failAt(file, *granularity,
           "unknown temporalGranularity " +
               quotedExcerpt(granularity->isString() ? granularity->toString() : granularity->dump(-1)) +
               ": expected 5_minutes, 15_minutes, hourly or daily");
}

} // namespace

RawTrace parseElectricityMapsApiJson(const JsonValue& root, const std::string& file,
                                     const std::string& columnOption) {
    RawTrace raw;
    raw.headerLine = root.line();
    raw.headerColumn = root.column();
    raw.attribution = "Electricity Maps API data; its use is governed by the terms of the API key that "
                      "fetched it, which are not an open licence.";
    const std::vector<const JsonValue*> records = electricityMapsRecords(root, file);
    raw.regionId = sameInEveryRecord(records, root, "zone", "zone", file);
    const std::string factor =
        sameInEveryRecord(records, root, "emissionFactorType", "emission factor type", file);
    // The API's default is life-cycle factors; a file that asked for direct ones says so in every record.
    const bool direct = factor == "direct";
    if (!factor.empty() && factor != "direct" && factor != "lifecycle")
        failAt(file, root,
               "unknown emissionFactorType " + quotedExcerpt(factor) + ": expected 'lifecycle' or 'direct'");
    if ((columnOption == "direct") != direct && !columnOption.empty())
        failAt(file, root,
               std::string("this file holds ") + (direct ? "direct" : "life-cycle") + " intensities and '" +
                   columnOption + "' was asked for: download it again with emissionFactorType=" +
                   (direct ? "lifecycle" : "direct"));
    raw.column = direct ? "carbonIntensity (direct)" : "carbonIntensity (lifecycle)";
    std::size_t missing = 0;
    raw.rows.reserve(records.size());
    for (const JsonValue* record : records) {
        const char* context = "an Electricity Maps carbon-intensity record";
        const JsonValue& time = member(file, *record, "datetime", JsonValue::Type::String, context);
        const JsonValue* value = record->find("carbonIntensity");
        if (value == nullptr)
            failAt(file, *record, "missing key 'carbonIntensity' in " + std::string(context));
        if (value->isNull()) { // no value for that hour: a gap, which the grid reports or repairs
            ++missing;
            continue;
        }
        if (!value->isNumber())
            failAt(file, *value,
                   std::string("expected a number for 'carbonIntensity', found ") +
                       JsonValue::typeName(value->type()));
        RawRow row;
        row.line = time.line();
        row.column = time.column();
        row.startUtc = timestampOf(file, time, "a UTC time such as 2022-01-01T00:00:00.000Z");
        row.gPerKwh = value->toNumber();
        checkIntensity(row.gPerKwh, file, value->line(), value->column(), "carbon intensity");
        row.declaredStepSeconds = granularitySeconds(file, *record);
        const JsonValue* estimated = record->find("isEstimated");
        if (estimated != nullptr && estimated->isBool() && estimated->toBool())
            ++raw.estimatedRows;
        raw.rows.push_back(row);
    }
    if (raw.estimatedRows > 0)
        raw.notes.push_back(std::to_string(raw.estimatedRows) + " of " + std::to_string(raw.rows.size()) +
                            " records are flagged 'isEstimated' by Electricity Maps");
    if (missing > 0)
        raw.notes.push_back(std::to_string(missing) + " records have no carbonIntensity (null): gaps");
    return raw;
}

WattTimeMeta readWattTimeMeta(const JsonValue& meta, const std::string& file) {
    const char* context = "WattTime's 'meta'";
    WattTimeMeta facts;
    const JsonValue& signal = member(file, meta, "signal_type", JsonValue::Type::String, context);
    if (signal.toString() == "co2_moer")
        facts.signal = CarbonSignal::Marginal;
    else if (signal.toString() != "co2_aoer")
        failAt(file, signal,
               "signal_type " + quotedExcerpt(signal.toString()) +
                   ": expected co2_moer (marginal) or co2_aoer (average), the carbon signals");
    const JsonValue& units = member(file, meta, "units", JsonValue::Type::String, context);
    const std::optional<IntensityUnit> unit = intensityUnitIn(units.toString());
    if (!unit)
        failAt(file, units,
               "units " + quotedExcerpt(units.toString()) + ": expected one of " + intensityUnitNames());
    facts.unit = *unit;
    if (const JsonValue* region = meta.find("region"); region != nullptr && region->isString())
        facts.regionId = region->toString();
    if (const JsonValue* seconds = meta.find("data_point_period_seconds"); seconds != nullptr) {
        if (!seconds->isNumber() || !(seconds->toNumber() >= 1.0 && seconds->toNumber() <= 86400.0))
            failAt(file, *seconds,
                   "expected 'data_point_period_seconds' to be a number of seconds from 1 to 86400");
        facts.periodSeconds = static_cast<std::int64_t>(seconds->toNumber());
    }
    return facts;
}

RawTrace parseWattTimeJson(const JsonValue& root, const std::string& file) {
    RawTrace raw;
    raw.headerLine = root.line();
    raw.headerColumn = root.column();
    raw.attribution = "WattTime signal data; its use is governed by WattTime's terms, which are not an open "
                      "licence.";
    const JsonValue& meta = member(file, root, "meta", JsonValue::Type::Object, "a WattTime response");
    if (meta.find("generated_at") != nullptr)
        failAt(
            file, *meta.find("generated_at"),
            "a WattTime forecast ('generated_at'): expected historical data (the /v3/historical endpoint); a "
            "forecast is not a trace of what the grid emitted, replay it as the scenario's forecast file "
            "(forecast kind 'replay', docs/DATA.md)");
    const WattTimeMeta facts = readWattTimeMeta(meta, file);
    raw.signal = facts.signal;
    raw.regionId = facts.regionId;
    const std::int64_t period = facts.periodSeconds;
    const IntensityUnit* unit = &facts.unit;
    raw.column = "value (" + std::string(unit->name) + ")";
    const JsonValue& data = member(file, root, "data", JsonValue::Type::Array, "a WattTime response");
    raw.rows.reserve(data.items().size());
    for (const JsonValue& point : data.items()) {
        if (!point.isObject())
            failAt(file, point,
                   std::string(R"(expected a point {"point_time","value"}, found )") +
                       JsonValue::typeName(point.type()));
        const JsonValue& time =
            member(file, point, "point_time", JsonValue::Type::String, "a WattTime point");
        const JsonValue& value = member(file, point, "value", JsonValue::Type::Number, "a WattTime point");
        RawRow row;
        row.line = time.line();
        row.column = time.column();
        row.startUtc = timestampOf(file, time, "an ISO-8601 time such as 2022-06-01T00:00:00+00:00");
        row.declaredStepSeconds = period;
        row.gPerKwh = value.toNumber() * unit->toGPerKwh;
        checkIntensity(row.gPerKwh, file, value.line(), value.column(),
                       std::string(raw.signal == CarbonSignal::Marginal ? "MOER" : "AOER") +
                           " (converted from " + unit->name + ")");
        raw.rows.push_back(row);
    }
    if (unit->toGPerKwh != 1.0)
        raw.notes.push_back(std::string("values converted from ") + unit->name + " to g/kWh");
    return raw;
}

} // namespace carbon3d::traces_detail
