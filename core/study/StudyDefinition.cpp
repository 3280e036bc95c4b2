// SPDX-License-Identifier: MIT
#include "study/StudyDefinition.h"

#include "config/ClusterProfileJson.h"
#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "config/ModelSpecJson.h"
#include "config/Presets.h"
#include "config/ScenarioHash.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/ModellingFields.h"
#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "domain/Time.h"
#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"
#include "study/StudyPlan.h"
#include "traces/ForecastLoader.h"
#include "traces/RegionTimeZones.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace carbon3d {

namespace {

// A study beyond this many cells is a typo (every_hours: 0.01) rather than a plan: refused before any work.
constexpr double kMaxCells = 1e7;
// More than a leap year of hourly starts on one axis is the same kind of typo.
constexpr double kMaxAxisValues = 100000;

// What an axis reader needs: the "axes" object's reader (for messages), the study file, where bundled
// traces are, and the base scenario (its policies when there is no policy axis).
struct AxisContext {
    const JsonObjectReader& axes;
    const std::string& file;
    const std::string& bundledTraceDirectory;
    // The identities each axis has listed so far, by axis key: a twin is found in constant time (a list
    // scan made a 100,000-value start axis take 82 s to validate).
    std::unordered_map<std::string, std::unordered_set<std::string>>& identities;
};

const JsonValue& arrayOf(const AxisContext& context, const std::string& key, const JsonValue& value) {
    if (!value.isArray())
        context.axes.failAt(value, "axis '" + key + "' must be a list of values, found " +
                                       JsonValue::typeName(value.type()));
    if (value.items().empty())
        context.axes.failAt(value,
                            "axis '" + key + "' has no values: give at least one, or leave the axis out");
    if (static_cast<double>(value.items().size()) > kMaxAxisValues)
        context.axes.failAt(value, "axis '" + key + "' has " + std::to_string(value.items().size()) +
                                       " values; at most " + fixedNumber(kMaxAxisValues, 0));
    return value;
}

double numberIn(const AxisContext& context, const std::string& key, const JsonValue& item, double min,
                double max, const std::string& unit) {
    if (!item.isNumber())
        context.axes.failAt(item, "axis '" + key + "' holds numbers (" + unit + "), found " +
                                      JsonValue::typeName(item.type()));
    const double value = item.toNumber();
    if (!(value >= min && value <= max))
        context.axes.failAt(item, "axis '" + key + "': " + shortestNumber(value) + " is outside [" +
                                      shortestNumber(min) + ", " + shortestNumber(max) + "] " + unit);
    return value;
}

// One column, the axis's key; values in file order.
StudyAxis singleColumn(const std::string& key) {
    StudyAxis axis;
    axis.key = key;
    axis.columns = {key};
    return axis;
}

void addValue(const AxisContext& context, StudyAxis& axis, const JsonValue& at,
              std::vector<std::string> columns, std::string identity, std::function<void(CellSetup&)> apply) {
    if (!context.identities[axis.key].insert(identity).second)
        context.axes.failAt(at, "axis '" + axis.key + "' lists '" + columns.front() +
                                    "' twice: its cells would be twins");
    axis.values.push_back({std::move(columns), std::move(identity), std::move(apply)});
}

UtcSeconds isoAt(const AxisContext& context, const std::string& what, const JsonValue& value) {
    if (!value.isString())
        context.axes.failAt(value,
                            what + " must be an ISO-8601 date-time string such as \"2022-06-01T00:00:00Z\"");
    const std::optional<UtcSeconds> utc = parseIsoDateTime(value.toString());
    if (!utc)
        context.axes.failAt(value, what + " = '" + value.toString() +
                                       "' is not an ISO-8601 date-time; expected e.g. 2022-06-01T00:00:00Z");
    return *utc;
}

StudyAxis readStart(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("start");
    std::vector<std::pair<UtcSeconds, const JsonValue*>> starts;
    if (value.isObject()) {
        JsonObjectReader range(value, context.file, "axes.start");
        const UtcSeconds from = isoAt(context, "'axes.start.from'", range.value("from"));
        const UtcSeconds to = isoAt(context, "'axes.start.to'", range.value("to"));
        const double every = range.number("every_hours", 1.0 / 60.0, 87600.0, "hours");
        range.finish();
        if (to < from)
            range.failAt(range.value("to"), "'axes.start.to' is before 'from'");
        const double count = startRangeCount(from, to, every);
        if (count > kMaxAxisValues)
            range.failAt(range.value("every_hours"), "the start range has " + fixedNumber(count, 0) +
                                                         " values; at most " +
                                                         fixedNumber(kMaxAxisValues, 0));
        for (double k = 0; k < count; ++k)
            starts.emplace_back(from + static_cast<UtcSeconds>(std::llround(k * every * 3600.0)), &value);
    } else {
        for (const JsonValue& item : arrayOf(context, "start", value).items())
            starts.emplace_back(isoAt(context, "a value of axis 'start'", item), &item);
    }
    for (const auto& start : starts) {
        const UtcSeconds utc = start.first;
        const std::string text = formatIsoUtc(utc);
        addValue(context, axis, *start.second, {text}, text,
                 [utc](CellSetup& cell) { cell.scenario.startUtc = utc; });
    }
    return axis;
}

std::string notARegion(const std::string& text, const std::string& bundled, const std::string& path) {
    return "region '" + text + "' is neither a bundled region (a file " + text + "_2022.csv in " + bundled +
           ") nor a trace file (" + path + " does not exist)";
}

// What tells two policy entries apart: the name and every option in force as given.
std::string policyIdentity(const PolicySpec& policy) {
    std::string identity = policy.name;
    for (const auto& [key, option] : policy.options)
        identity.append(" ").append(key).append("=").append(option);
    return identity;
}

// A bundled region id (a file ID_2022.csv among the bundled traces) or a trace file.
StudyAxis readRegion(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("region");
    for (const JsonValue& item : arrayOf(context, "region", value).items()) {
        if (!item.isString() || item.toString().empty())
            context.axes.failAt(item,
                                "axis 'region' holds bundled region ids (e.g. \"DE\") or trace file paths");
        const std::string& text = item.toString();
        const std::string bundled = context.bundledTraceDirectory + "/" + text + "_2022.csv";
        RegionSpec region;
        std::string path;
        if (text.find('/') == std::string::npos && QFileInfo::exists(QString::fromStdString(bundled))) {
            region.regionId = text;
            path = bundled;
        } else {
            path = resolveRelativeTo(context.file, text);
            if (!QFileInfo::exists(QString::fromStdString(path)))
                context.axes.failAt(item, notARegion(text, context.bundledTraceDirectory, path));
        }
        region.tracePath = path;
        // Unknown zones stay empty, so that the loader marks the trace's UTC as assumed and its runs say so.
        region.timeZone = knownTimeZoneForRegion(region.regionId).value_or(std::string());
        region.trace = loadRegionTrace(region, path); // once per study: every cell shares it
        if (region.regionId.empty())
            region.regionId = region.trace.regionId.empty()
                                  ? QFileInfo(QString::fromStdString(path)).completeBaseName().toStdString()
                                  : region.trace.regionId;
        if (region.timeZone.empty())
            region.timeZone = region.trace.timeZone;
        const std::string identity = region.regionId + "@" + detail::traceFingerprint(region.trace);
        addValue(context, axis, item, {region.regionId}, identity,
                 [region](CellSetup& cell) { cell.scenario.regions = {region}; });
    }
    return axis;
}

StudyAxis readDeadline(const AxisContext& context, const std::string& key, const JsonValue& value) {
    StudyAxis axis = singleColumn(key);
    const bool slack = key == "slack";
    for (const JsonValue& item : arrayOf(context, key, value).items()) {
        // The scenario file's ranges: slack up to 100x, a deadline up to ten years.
        const double number = slack ? numberIn(context, key, item, 0.0, 100.0, "fraction over static-max")
                                    : numberIn(context, key, item, 1.0 / 60.0, 87600.0, "hours after start");
        const std::string text = shortestNumber(number);
        addValue(context, axis, item, {text}, text, [slack, number](CellSetup& cell) {
            cell.scenario.deadline = {slack ? DeadlineSpec::Kind::Slack : DeadlineSpec::Kind::Hours, number};
        });
    }
    return axis;
}

StudyAxis readPolicy(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("policy");
    const auto& items = arrayOf(context, "policy", value).items();
    for (std::size_t i = 0; i < items.size(); ++i) {
        PolicySpec policy = readPolicyEntry(context.axes, items[i], "axes.policy[" + std::to_string(i) + "]");
        const std::string label = policyRunLabel(policy.name, policy.options);
        addValue(context, axis, items[i], {label}, policyIdentity(policy),
                 [policy](CellSetup& cell) { cell.policy = policy; });
    }
    return axis;
}

// The forecast kinds that pass `test`, for messages.
template <typename Test> std::string kindsWhere(Test test) {
    std::string kinds;
    for (const ForecastKindInfo& info : forecastCatalog())
        if (test(info))
            appendSeparated(kinds, info.kind);
    return kinds;
}

// A forecast entry's "error": one level or a list of them, each a fraction of the trace mean.
std::vector<double> readErrorLevels(const AxisContext& context, const std::string& path,
                                    const JsonValue& error) {
    std::vector<double> errors;
    if (error.isNumber())
        errors.push_back(numberIn(context, path + ".error", error, 0.0, 10.0, "fraction of the trace mean"));
    else
        for (const JsonValue& level : arrayOf(context, path + ".error", error).items())
            errors.push_back(
                numberIn(context, path + ".error", level, 0.0, 10.0, "fraction of the trace mean"));
    return errors;
}

// A forecast entry's "seeds": a count n (seeds 1 to n) or a list of whole-number seeds; `reader` is the
// entry's, whose messages name it.
std::vector<std::uint64_t> readSeeds(const AxisContext& context, const JsonObjectReader& reader,
                                     const std::string& path, const JsonValue& given) {
    std::vector<std::uint64_t> seeds;
    if (given.isNumber()) {
        const double count = numberIn(context, path + ".seeds", given, 1.0, 10000.0, "seeds");
        if (count != std::floor(count))
            reader.failAt(given, "'" + path + ".seeds' is a count of seeds (1, 2, ...) or a list of seeds");
        for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(count); ++seed)
            seeds.push_back(seed);
    } else {
        for (const JsonValue& seed : arrayOf(context, path + ".seeds", given).items()) {
            const double number = numberIn(context, path + ".seeds", seed, 0.0, 9007199254740992.0, "");
            if (number != std::floor(number))
                reader.failAt(seed, "a seed is a whole number, found " + shortestNumber(number));
            seeds.push_back(static_cast<std::uint64_t>(number));
        }
    }
    return seeds;
}

// A kind, or {"kind", "error": 0.05 | [levels], "seeds": count | [seeds], "horizon_hours", "file"}: error
// levels and seeds for the kinds of the forecast catalogue that take them, a forecast file (relative to the
// study) for the kind that replays one.
StudyAxis readForecast(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis;
    axis.key = "forecast";
    axis.columns.assign(std::begin(kForecastAxisColumns), std::end(kForecastAxisColumns));
    const auto& items = arrayOf(context, "forecast", value).items();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const JsonValue& item = items[i];
        const std::string path = "axes.forecast[" + std::to_string(i) + "]";
        ForecastSpec spec;
        std::vector<double> errors{0.0};
        std::vector<std::uint64_t> seeds{1};
        bool givesError = false;
        bool givesSeeds = false;
        if (item.isString()) {
            spec.kind = item.toString();
        } else {
            JsonObjectReader reader(item, context.file, path);
            spec.kind = reader.string("kind");
            if (const JsonValue* error = reader.optionalValue("error")) {
                givesError = true;
                errors = readErrorLevels(context, path, *error);
            }
            if (const JsonValue* given = reader.optionalValue("seeds")) {
                givesSeeds = true;
                seeds = readSeeds(context, reader, path, *given);
            }
            if (const std::optional<double> hours =
                    reader.optionalNumber("horizon_hours", 1.0, 8784.0, "hours"))
                spec.horizonHours = hours;
            spec.filePath = reader.optionalString("file").value_or(std::string());
            reader.finish();
            if (!spec.filePath.empty())
                spec.archive = std::make_shared<const ForecastArchive>(
                    loadForecastArchive(resolveRelativeTo(context.file, spec.filePath)));
        }
        const ForecastKindInfo* kind = findForecastKind(spec.kind);
        const bool takesError = kind != nullptr && kind->takesError;
        const bool seeded = kind != nullptr && kind->seeded();
        if ((givesError && !takesError) || (givesSeeds && !seeded))
            context.axes.failAt(item,
                                "'" + path + "': error levels belong to " +
                                    kindsWhere([](const ForecastKindInfo& info) { return info.takesError; }) +
                                    " and seeds to " +
                                    kindsWhere([](const ForecastKindInfo& info) { return info.seeded(); }) +
                                    ", not to '" + spec.kind + "'");
        // Counted before the expansion: error levels x seeds may multiply past the cap (10,000 x 10,000).
        const double expanded = static_cast<double>(axis.values.size()) +
                                static_cast<double>(errors.size()) * static_cast<double>(seeds.size());
        if (expanded > kMaxAxisValues)
            context.axes.failAt(item, "axis 'forecast' expands to " + fixedNumber(expanded, 0) +
                                          " values (error levels x seeds); at most " +
                                          fixedNumber(kMaxAxisValues, 0));
        for (double error : errors) {
            for (std::uint64_t seed : seeds) {
                ForecastSpec cellSpec = spec;
                cellSpec.errorFraction = error;
                cellSpec.seed = seed;
                try {
                    checkForecastSpec(cellSpec);
                } catch (const InputError& problem) {
                    context.axes.failAt(item, problem.problem());
                }
                std::vector<std::string> columns{spec.kind,
                                                 takesError ? shortestNumber(error) : std::string(),
                                                 seeded ? std::to_string(seed) : std::string()};
                const std::string identity =
                    spec.kind + " " + shortestNumber(error) + " " + std::to_string(seed) + " " +
                    (spec.horizonHours ? shortestNumber(*spec.horizonHours) : "kind's") +
                    (spec.archive ? " " + spec.archive->contentSha256 : std::string());
                addValue(context, axis, item, std::move(columns), identity,
                         [cellSpec](CellSetup& cell) { cell.scenario.forecast = cellSpec; });
            }
        }
    }
    return axis;
}

// An axis of GPU counts up to `max`, each a whole number; `set` puts one into the cell's scenario.
StudyAxis readGpuCounts(const AxisContext& context, const std::string& key, const JsonValue& value,
                        double max, const std::string& unit, void (*set)(CellSetup&, int)) {
    StudyAxis axis = singleColumn(key);
    axis.changesMenu = true;
    for (const JsonValue& item : arrayOf(context, key, value).items()) {
        const double count = numberIn(context, key, item, 1.0, max, unit);
        if (count != std::floor(count))
            context.axes.failAt(item, "axis '" + key + "' holds whole numbers of GPUs, found " +
                                          shortestNumber(count));
        const std::string text = shortestNumber(count);
        addValue(context, axis, item, {text}, text,
                 [n = static_cast<int>(count), set](CellSetup& cell) { set(cell, n); });
    }
    return axis;
}

StudyAxis readGpus(const AxisContext& context, const JsonValue& value) {
    return readGpuCounts(context, "gpus", value, 1e7, "GPUs",
                         [](CellSetup& cell, int gpus) { cell.scenario.gpus = gpus; });
}

// A cp the cell's model cannot split its sequence by is not refused here (a model axis may change the
// sequence): the cell is infeasible, with the performance model's reason.
StudyAxis readContextParallel(const AxisContext& context, const JsonValue& value) {
    return readGpuCounts(context, "context_parallel", value, 4096.0, "GPUs per sequence",
                         [](CellSetup& cell, int cp) { cell.scenario.job.contextParallel = cp; });
}

// A switch of what the job's stack offers the search (kStackSwitches): a study of what it changes sweeps
// [false, true], each value with its own menu.
StudyAxis readStackSwitch(const AxisContext& context, const JsonValue& value, const std::string& key,
                          bool TrainingJob::*offered) {
    StudyAxis axis = singleColumn(key);
    axis.changesMenu = true;
    for (const JsonValue& item : arrayOf(context, key, value).items()) {
        if (!item.isBool())
            context.axes.failAt(item, "axis '" + key + "' holds true or false");
        const bool on = item.toBool();
        const std::string text = on ? "true" : "false";
        addValue(context, axis, item, {text}, text,
                 [on, offered](CellSetup& cell) { cell.scenario.job.*offered = on; });
    }
    return axis;
}

StudyAxis readTokens(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("tokens");
    for (const JsonValue& item : arrayOf(context, "tokens", value).items()) {
        const double tokens = numberIn(context, "tokens", item, 1.0, 1e16, "tokens");
        const std::string text = shortestNumber(tokens);
        addValue(context, axis, item, {text}, text,
                 [tokens](CellSetup& cell) { cell.scenario.job.tokens = tokens; });
    }
    return axis;
}

// A preset id or a file (relative to the study); the error names the study's value when it is neither.
template <typename Spec>
Spec presetOrFile(const AxisContext& context, const std::string& key, const JsonValue& item,
                  std::optional<Spec> (*findPreset)(const std::string&),
                  std::vector<std::string> (*presetIds)(), Spec (*loadFile)(const std::string&)) {
    if (!item.isString() || item.toString().empty())
        context.axes.failAt(item, "axis '" + key + "' holds preset ids or file paths");
    if (std::optional<Spec> preset = findPreset(item.toString()))
        return *preset;
    const std::string path = resolveRelativeTo(context.file, item.toString());
    if (!QFileInfo::exists(QString::fromStdString(path))) {
        context.axes.failAt(item, "'" + item.toString() + "' is neither a " + key + " preset (" +
                                      joinedText(presetIds()) + ") nor a file (" + path + " does not exist)");
    }
    return loadFile(path);
}

StudyAxis readModel(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("model");
    axis.changesMenu = true;
    for (const JsonValue& item : arrayOf(context, "model", value).items()) {
        const auto model = presetOrFile<ModelSpec>(context, "model", item, &findModelPreset, &modelPresetIds,
                                                   &loadModelSpec);
        addValue(context, axis, item, {item.toString()}, toJson(model).dump(-1),
                 [model](CellSetup& cell) { cell.scenario.job.model = model; });
    }
    return axis;
}

StudyAxis readCluster(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("cluster");
    axis.changesMenu = true;
    for (const JsonValue& item : arrayOf(context, "cluster", value).items()) {
        const auto cluster = presetOrFile<ClusterProfile>(context, "cluster", item, &findClusterPreset,
                                                          &clusterPresetIds, &loadClusterProfile);
        addValue(context, axis, item, {item.toString()}, toJson(cluster).dump(-1),
                 [cluster, ref = item.toString()](CellSetup& cell) {
                     cell.scenario.cluster = cluster;
                     cell.scenario.clusterRef = ref;
                 });
    }
    return axis;
}

StudyAxis readModellingAxis(const AxisContext& context, const ModellingField& field, const JsonValue& value) {
    StudyAxis axis = singleColumn(field.key);
    axis.changesMenu = field.changesMenu;
    for (const JsonValue& item : arrayOf(context, field.key, value).items()) {
        const std::string text = readModellingValue(context.axes, field, item);
        addValue(context, axis, item, {text}, text,
                 [&field, text](CellSetup& cell) { field.set(cell.scenario.modelling, text); });
    }
    return axis;
}

// Who pays for parked GPUs in words: "idle" is a dedicated reservation (backfill 0), "released" a shared
// cluster (backfill 1). The scenario file says backfill; studies accept both (the issue's example uses this).
StudyAxis readParkedGpus(const AxisContext& context, const JsonValue& value) {
    StudyAxis axis = singleColumn("parked_gpus");
    for (const JsonValue& item : arrayOf(context, "parked_gpus", value).items()) {
        if (!item.isString() || (item.toString() != kParkedIdle && item.toString() != kParkedReleased))
            context.axes.failAt(item,
                                "axis 'parked_gpus' holds \"idle\" (a dedicated reservation, backfill 0) or "
                                "\"released\" (a shared cluster, backfill 1), found " +
                                    item.dump(-1));
        const double backfill = item.toString() == kParkedIdle ? 0.0 : 1.0;
        addValue(context, axis, item, {item.toString()}, item.toString(),
                 [backfill](CellSetup& cell) { cell.scenario.modelling.backfill = backfill; });
    }
    return axis;
}

// The axes a study file may name, by key: one table, so that a new axis is one entry.
struct AxisKind {
    std::string key;
    std::function<StudyAxis(const AxisContext&, const JsonValue&)> read;
};

const std::vector<AxisKind>& axisKinds() {
    static const std::vector<AxisKind> kinds = [] {
        std::vector<AxisKind> list{
            {"start", readStart},
            {"region", readRegion},
            {"slack", [](const AxisContext& c, const JsonValue& v) { return readDeadline(c, "slack", v); }},
            {"deadline_hours",
             [](const AxisContext& c, const JsonValue& v) { return readDeadline(c, "deadline_hours", v); }},
            {"policy", readPolicy},
            {"forecast", readForecast},
            {"gpus", readGpus},
            {"context_parallel", readContextParallel},
            {"tokens", readTokens},
            {"model", readModel},
            {"cluster", readCluster},
            {"parked_gpus", readParkedGpus},
        };
        for (const StackSwitch& stackSwitch : kStackSwitches)
            list.push_back(
                {std::string(stackSwitch.key), [&stackSwitch](const AxisContext& c, const JsonValue& v) {
                     return readStackSwitch(c, v, std::string(stackSwitch.key), stackSwitch.member);
                 }});
        for (const ModellingField& field : modellingFields())
            list.push_back({field.key, [&field](const AxisContext& c, const JsonValue& v) {
                                return readModellingAxis(c, field, v);
                            }});
        return list;
    }();
    return kinds;
}

std::string sha256(const std::string& text) {
    return QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

std::string studyHash(const StudyDefinition& study) {
    std::string text = "carbon3d-study\n" + study.baseHash + "\n";
    if (study.splitSavings) // its cells hold more than an unsplit study's: another key (unsplit: as before)
        text += "split_savings\n";
    for (const StudyAxis& axis : study.axes) {
        text += axis.key + ":";
        for (const AxisValue& value : axis.values)
            text += value.identity + "\x1f";
        text += "\n";
    }
    return sha256(text);
}

} // namespace

bool isStudyJson(const JsonValue& json) {
    return json.isObject() && json.find("axes") != nullptr;
}

StudyDefinition parseStudy(const JsonValue& json, const std::string& file,
                           const std::string& bundledTraceDirectory) {
    JsonObjectReader reader(json, file);
    StudyDefinition study;
    study.schema = reader.schema();
    study.sourceFile = file;
    study.definitionJson = json.dump(-1);
    study.name = reader.string("name");
    study.description = reader.optionalString("description").value_or(std::string());
    study.splitSavings = reader.optionalBoolean("split_savings").value_or(false);
    const JsonValue& base = reader.value("base");
    if (base.isString())
        study.base = loadScenario(resolveRelativeTo(file, base.toString()));
    else if (base.isObject())
        study.base = parseScenario(base, file); // inline: its paths resolve against the study file
    else
        reader.failAt(base, "'base' must be a scenario file path or an inline scenario object, found " +
                                std::string(JsonValue::typeName(base.type())));

    const JsonValue& axesJson = reader.object("axes");
    JsonObjectReader axes(axesJson, file, "axes");
    std::unordered_map<std::string, std::unordered_set<std::string>> identities;
    const AxisContext context{axes, file, bundledTraceDirectory, identities};
    for (const AxisKind& kind : axisKinds())
        if (const JsonValue* value = axes.optionalValue(kind.key))
            study.axes.push_back(kind.read(context, *value));
    axes.finish(); // an unknown axis is an error at its key, with the nearest known key suggested
    if (axesJson.find("slack") != nullptr && axesJson.find("deadline_hours") != nullptr)
        axes.failAt(*axesJson.find("deadline_hours"),
                    "a study sweeps 'slack' or 'deadline_hours', not both: each sets the deadline");
    if (axesJson.find("parked_gpus") != nullptr && axesJson.find(kBackfillKey) != nullptr)
        axes.failAt(*axesJson.find("parked_gpus"),
                    "'parked_gpus' and 'backfill' both set backfill: keep one");
    // Axes in the file's order: the export's columns and the cell index follow it.
    std::vector<StudyAxis> ordered;
    for (const JsonValue::Member& member : axesJson.members())
        for (StudyAxis& axis : study.axes)
            if (axis.key == member.key)
                ordered.push_back(std::move(axis));
    study.axes = std::move(ordered);
    // Without a policy axis the base scenario's policies are one, after the others.
    if (std::none_of(study.axes.begin(), study.axes.end(),
                     [](const StudyAxis& a) { return a.key == "policy"; })) {
        if (study.base.policies.empty())
            reader.failAt(base, "no policy to run: add an axis 'policy' or policies to the base scenario");
        StudyAxis axis = singleColumn("policy");
        for (const PolicySpec& policy : study.base.policies) {
            addValue(context, axis, base, {policyRunLabel(policy.name, policy.options)},
                     policyIdentity(policy), [policy](CellSetup& cell) { cell.policy = policy; });
        }
        study.axes.push_back(std::move(axis));
    }
    double cells = 1.0;
    for (const StudyAxis& axis : study.axes)
        cells *= static_cast<double>(axis.values.size());
    if (cells > kMaxCells)
        reader.failAt(axesJson, "the study has " + fixedNumber(cells, 0) + " cells; at most " +
                                    fixedNumber(kMaxCells, 0) + " (split it into several studies)");
    reader.finish();
    study.baseHash = sha256(scenarioHash(study.base) + "\n" + CARBON3D_VERSION);
    study.hash = studyHash(study);
    return study;
}

std::vector<std::string> studyAxisKeys() {
    std::vector<std::string> keys;
    for (const AxisKind& kind : axisKinds())
        keys.push_back(kind.key);
    return keys;
}

StudyDefinition loadStudy(const std::string& path, const std::string& bundledTraceDirectory) {
    return parseStudy(readJsonFile(path), path, bundledTraceDirectory);
}

} // namespace carbon3d
