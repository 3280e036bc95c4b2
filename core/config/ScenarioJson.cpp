// SPDX-License-Identifier: MIT
#include "config/ScenarioJson.h"

#include "config/ClusterProfileJson.h"
#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "config/ModelSpecJson.h"
#include "config/OperatingPointsCsv.h"
#include "config/Presets.h"
#include "domain/InputError.h"
#include "domain/ModellingFields.h"
#include "domain/NumberText.h"
#include "domain/OperatingPoints.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"
#include "traces/ForecastLoader.h"
#include "traces/TraceLoader.h"

#include <QCryptographicHash>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace carbon3d {

namespace {

// 2^53: the largest integer a JSON number (a double) holds exactly, for the forecast seed.
constexpr double kMaxExactInteger = 9007199254740992.0;

bool looksLikePath(const std::string& text) {
    return text.find('/') != std::string::npos || text.find('\\') != std::string::npos ||
           (text.size() > 5 && text.compare(text.size() - 5, 5, ".json") == 0);
}

ModelSpec readModelRef(JsonObjectReader& job) {
    const JsonValue& value = job.value("model");
    if (value.isString()) {
        const std::string& ref = value.toString();
        if (std::optional<ModelSpec> preset = findModelPreset(ref))
            return *preset;
        if (!looksLikePath(ref)) {
            job.failAt(value, "unknown model preset '" + ref +
                                  "'; expected one of: " + joinedText(modelPresetIds()) +
                                  ", a path to a model .json file, or an inline model object");
        }
        return loadModelSpec(resolveRelativeTo(job.file(), ref));
    }
    if (!value.isObject()) {
        job.failAt(value, "'job.model' must be a preset id, a file path or a model object, found " +
                              std::string(JsonValue::typeName(value.type())));
    }
    JsonObjectReader reader(value, job.file(), "job.model");
    reader.optionalSchema();
    ModelSpec model = readModelSpec(reader);
    reader.finish();
    return model;
}

std::pair<ClusterProfile, std::string> readClusterRef(JsonObjectReader& scenario) {
    const JsonValue& value = scenario.value("cluster");
    if (value.isString()) {
        const std::string& ref = value.toString();
        if (std::optional<ClusterProfile> preset = findClusterPreset(ref))
            return {*preset, ref};
        if (!looksLikePath(ref)) {
            scenario.failAt(value, "unknown cluster preset '" + ref +
                                       "'; expected one of: " + joinedText(clusterPresetIds()) +
                                       ", a path to a cluster .json file, or an inline cluster object");
        }
        return {loadClusterProfile(resolveRelativeTo(scenario.file(), ref)), ref};
    }
    if (!value.isObject()) {
        scenario.failAt(value, "'cluster' must be a preset id, a file path or a cluster object, found " +
                                   std::string(JsonValue::typeName(value.type())));
    }
    JsonObjectReader reader(value, scenario.file(), "cluster");
    reader.optionalSchema();
    ClusterProfile cluster = readClusterProfile(reader);
    reader.finish();
    return {cluster, std::string()};
}

TrainingJob readJob(JsonObjectReader& scenario) {
    JsonObjectReader reader(scenario.object("job"), scenario.file(), "job");
    TrainingJob job;
    job.model = readModelRef(reader);
    // 1e16 tokens is ~1000x the largest published training run: anything above is a unit slip.
    job.tokens = reader.number("tokens", 1.0, 1e16, "tokens");
    job.globalBatch = reader.integer("global_batch", 1, 100000000, "sequences");
    job.work = reader.optionalNumber("work", 1e-12, 1e30, "work units");
    if (const std::optional<std::string> text = reader.optionalString("precision")) {
        const std::optional<Precision> precision = parsePrecision(*text);
        if (!precision) {
            reader.failAt(*reader.optionalValue("precision"),
                          "unknown precision '" + *text +
                              "' for 'job.precision'; expected one of: " + precisionNames());
        }
        job.precision = *precision;
    }
    // Absent: the accelerator's kernel (ClusterProfile's flash_attention), as in estimate and search.
    if (const std::optional<std::string> text = reader.optionalString("attention")) {
        job.attention = parseAttentionKernel(*text);
        if (!job.attention)
            reader.failAt(*reader.optionalValue("attention"), "unknown attention kernel '" + *text +
                                                                  "' for 'job.attention'; expected flash or "
                                                                  "materialized");
    }
    // Absent: FP8 weights, as NeMo's FP8 recipes hold them (TrainingJob::fp8Weights).
    if (const std::optional<bool> fp8Weights = reader.optionalBoolean("fp8_weights")) {
        if (job.precision != Precision::FP8)
            reader.failAt(*reader.optionalValue("fp8_weights"),
                          "'job.fp8_weights' applies to fp8 training only; this job trains in " +
                              std::string(precisionName(job.precision)));
        job.fp8Weights = *fp8Weights;
    }
    // Absent: the switch's default, as in search without --fsdp or --no-interleave.
    for (const StackSwitch& stackSwitch : kStackSwitches) {
        const std::optional<bool> value = reader.optionalBoolean(stackSwitch.key);
        job.*stackSwitch.member = value.value_or(stackSwitch.byDefault);
        if (value && !stackSwitch.appliesTo(job))
            reader.failAt(*reader.optionalValue(stackSwitch.key),
                          "'job." + std::string(stackSwitch.key) + "' " + stackSwitch.problem(job));
    }
    // Absent: 1 (no context parallelism), as in estimate and search without --cp.
    if (const std::optional<int> cp =
            reader.optionalInteger("context_parallel", 1, 4096, "GPUs per sequence")) {
        job.contextParallel = *cp;
        if (const std::string problem = contextParallelProblem(job); !problem.empty())
            reader.failAt(*reader.optionalValue("context_parallel"),
                          "'job.context_parallel' " + std::to_string(*cp) + " " + problem);
    }
    reader.finish();
    return job;
}

std::vector<RegionSpec> readRegions(JsonObjectReader& scenario) {
    const JsonValue& array = scenario.array("regions");
    if (array.items().empty())
        scenario.failAt(array, "'regions' is empty; give at least one region with its carbon trace");
    std::vector<RegionSpec> regions;
    std::set<std::string> ids;
    for (size_t i = 0; i < array.items().size(); ++i) {
        JsonObjectReader reader(array.items()[i], scenario.file(), "regions[" + std::to_string(i) + "]");
        RegionSpec region;
        region.regionId = reader.string("id");
        if (!ids.insert(region.regionId).second)
            reader.failAt(*reader.optionalValue("id"),
                          "region '" + region.regionId + "' appears twice in 'regions'");
        region.tracePath = reader.string("trace");
        if (std::optional<std::string> zone = reader.optionalString("time_zone")) {
            if (!isKnownTimeZone(*zone)) {
                reader.failAt(*reader.optionalValue("time_zone"),
                              "unknown time zone '" + *zone +
                                  "'; expected an IANA name such as Europe/Berlin");
            }
            region.timeZone = std::move(*zone);
        }
        region.repair = reader.optionalBoolean("repair").value_or(false);
        if (std::optional<std::string> factor = reader.optionalString("emission_factor")) {
            if (*factor != "lifecycle" && *factor != "direct")
                reader.failAt(
                    *reader.optionalValue("emission_factor"),
                    "unknown emission_factor " + quotedExcerpt(*factor) +
                        ": expected lifecycle (the default) or direct (operational emissions only)");
            region.emissionFactor = std::move(*factor);
        }
        region.priceTracePath = reader.optionalString("price_trace").value_or(std::string());
        reader.finish();
        region.trace = loadRegionTrace(region, resolveRelativeTo(scenario.file(), region.tracePath));
        if (!region.priceTracePath.empty()) {
            TraceLoadOptions options;
            options.regionId = region.regionId;
            options.repair = region.repair;
            region.priceTrace =
                loadPriceTrace(resolveRelativeTo(scenario.file(), region.priceTracePath), options);
        }
        if (region.timeZone.empty())
            region.timeZone = region.trace.timeZone;
        regions.push_back(std::move(region));
    }
    return regions;
}

DeadlineSpec readDeadline(JsonObjectReader& scenario) {
    const JsonValue& json = scenario.object("deadline");
    JsonObjectReader reader(json, scenario.file(), "deadline");
    // A deadline beyond ten years is not a training run; slack beyond 100x is a typo for a percentage.
    const std::optional<double> hours =
        reader.optionalNumber("hours", 1.0 / 60.0, 87600.0, "hours after start");
    const std::optional<double> slack =
        reader.optionalNumber("slack", 0.0, 100.0, "fraction over static-max");
    reader.finish();
    if (hours.has_value() == slack.has_value()) {
        reader.failAt(json,
                      "'deadline' needs exactly one of 'hours' (after the start) or 'slack' (fraction over "
                      "the carbon-agnostic runtime, e.g. 0.25)");
    }
    DeadlineSpec deadline;
    deadline.kind = hours ? DeadlineSpec::Kind::Hours : DeadlineSpec::Kind::Slack;
    deadline.value = hours ? *hours : *slack;
    return deadline;
}

// The policy catalogue's own check (name, option names, kinds and ranges), reported at the offending
// value: the option's value when the problem names an option, else the policy's entry.
void checkPolicyAt(const JsonObjectReader& reader, const JsonValue& item, const PolicySpec& policy) {
    try {
        makePolicy(policy);
    } catch (const InputError& error) {
        const JsonValue* at = item.isObject() ? item.find("name") : &item;
        if (const JsonValue* options = item.isObject() ? item.find("options") : nullptr) {
            for (const JsonValue::Member& m : options->members()) {
                if (error.problem().find("option '" + m.key + "'") != std::string::npos)
                    at = &m.value;
            }
        }
        reader.failAt(at ? *at : item, "policy '" + policy.name + "': " + error.problem());
    }
}

std::vector<PolicySpec> readPolicies(JsonObjectReader& scenario) {
    std::vector<PolicySpec> policies;
    const JsonValue* array = scenario.optionalArray("policies");
    if (array == nullptr)
        return policies;
    for (size_t i = 0; i < array->items().size(); ++i)
        policies.push_back(
            readPolicyEntry(scenario, array->items()[i], "policies[" + std::to_string(i) + "]"));
    return policies;
}

ForecastSpec readForecast(JsonObjectReader& scenario) {
    ForecastSpec forecast;
    const JsonValue* json = scenario.optionalObject("forecast");
    if (json == nullptr)
        return forecast;
    JsonObjectReader reader(*json, scenario.file(), "forecast");
    forecast.kind = reader.optionalString("kind").value_or(forecast.kind);
    forecast.errorFraction = reader.optionalNumber("error", 0.0, 10.0, "fraction of the trace mean")
                                 .value_or(forecast.errorFraction);
    if (const std::optional<double> seed = reader.optionalNumber("seed", 0.0, kMaxExactInteger, "")) {
        if (*seed != std::floor(*seed))
            reader.failAt(*reader.optionalValue("seed"),
                          "'forecast.seed' must be an integer, found " + formatNumber(*seed));
        forecast.seed = static_cast<std::uint64_t>(*seed);
    }
    forecast.horizonHours = reader.optionalNumber("horizon_hours", 1.0, 8784.0, "hours");
    forecast.filePath = reader.optionalString("file").value_or(std::string());
    reader.finish();
    if (!forecast.filePath.empty())
        forecast.archive = std::make_shared<const ForecastArchive>(
            loadForecastArchive(resolveRelativeTo(scenario.file(), forecast.filePath)));
    try {
        checkForecastSpec(forecast);
    } catch (const InputError& error) {
        const JsonValue* kind = json->find("kind");
        reader.failAt(kind ? *kind : *json, error.problem());
    }
    return forecast;
}

// Every field of the modelling table (domain/ModellingFields.h), each checked by the table's own rule.
ModellingOptions readModelling(JsonObjectReader& scenario) {
    ModellingOptions options;
    const JsonValue* json = scenario.optionalObject("modelling");
    if (json == nullptr)
        return options;
    JsonObjectReader reader(*json, scenario.file(), "modelling");
    for (const ModellingField& field : modellingFields()) {
        const JsonValue* value = reader.optionalValue(field.key);
        if (value == nullptr)
            continue;
        const std::string text = readModellingValue(reader, field, *value);
        field.set(options, text);
    }
    for (const JsonValue::Member& member : json->members()) {
        if (const std::string replaced = retiredModellingKey(member.key); !replaced.empty())
            reader.failAt(member.value, replaced);
    }
    reader.finish();
    return options;
}

OperatingPointTable readInlineOperatingPoints(JsonObjectReader& scenario, const JsonValue& array) {
    OperatingPointTable table;
    table.sourceFile = scenario.file(); // points given inline: messages name the scenario file
    if (array.items().empty())
        scenario.failAt(array, "'operating_points' is empty; give at least one point or omit the key");
    std::map<std::tuple<std::optional<int>, std::optional<int>, std::optional<int>, std::optional<int>,
                        std::optional<double>>,
             size_t>
        seen;
    for (size_t i = 0; i < array.items().size(); ++i) {
        const JsonValue& item = array.items()[i];
        JsonObjectReader reader(item, scenario.file(), "operating_points[" + std::to_string(i) + "]");
        OperatingPoint point;
        point.dp = reader.optionalInteger("dp", 1, 10000000, "replicas");
        point.tp = reader.optionalInteger("tp", 1, 10000000, "GPUs");
        point.pp = reader.optionalInteger("pp", 1, 10000000, "stages");
        point.microBatch = reader.optionalInteger("micro_batch", 1, 10000000, "sequences");
        point.powerLimitW = reader.optionalNumber("power_limit_w", 1e-9, 1e6, "W");
        point.throughput = reader.number("throughput", 1e-12, 1e18, "work units/s");
        point.powerW = reader.number("power_w", 1e-9, 1e9, "W");
        if (const std::optional<std::string> scope = reader.optionalString("power_scope")) {
            const std::optional<PowerScope> parsed = parsePowerScope(*scope);
            if (!parsed)
                reader.failAt(*reader.optionalValue("power_scope"),
                              "'" + reader.qualified("power_scope") +
                                  "' must be gpu, node or facility (what power_w covers), found " +
                                  quotedExcerpt(*scope));
            point.powerScope = *parsed;
        }
        point.line = item.line();
        reader.finish();
        const auto [it, inserted] = seen.emplace(
            std::make_tuple(point.dp, point.tp, point.pp, point.microBatch, point.powerLimitW), i);
        if (!inserted) {
            reader.failAt(item,
                          "duplicate operating point: same dp, tp, pp, micro_batch and power_limit_w as "
                          "operating_points[" +
                              std::to_string(it->second) + "]");
        }
        table.points.push_back(point);
    }
    return table;
}

std::optional<OperatingPointTable> readOperatingPoints(JsonObjectReader& scenario) {
    const JsonValue* value = scenario.optionalValue("operating_points");
    if (value == nullptr)
        return std::nullopt;
    if (value->isString()) {
        if (value->toString().empty())
            scenario.failAt(*value,
                            "'operating_points' must not be empty; omit the key when there is no table");
        return loadOperatingPoints(resolveRelativeTo(scenario.file(), value->toString()));
    }
    if (value->isArray())
        return readInlineOperatingPoints(scenario, *value);
    scenario.failAt(*value, "'operating_points' must be a path to a CSV file or an array of points, found " +
                                std::string(JsonValue::typeName(value->type())));
}

} // namespace

PolicySpec readPolicyEntry(const JsonObjectReader& owner, const JsonValue& item, const std::string& path) {
    PolicySpec policy;
    if (item.isString()) { // shorthand: a policy without options
        if (item.toString().empty())
            owner.failAt(item, "'" + path + "' must not be empty");
        policy.name = item.toString();
        checkPolicyAt(owner, item, policy);
        return policy;
    }
    JsonObjectReader reader(item, owner.file(), path);
    policy.name = reader.string("name");
    if (const JsonValue* options = reader.optionalObject("options")) {
        for (const JsonValue::Member& m : options->members()) {
            // Options are policy-specific; keep them as text and let the policy parse them.
            if (m.value.isString())
                policy.options[m.key] = m.value.toString();
            else if (m.value.isNumber() || m.value.isBool())
                policy.options[m.key] = m.value.dump(-1);
            else
                reader.failAt(m.value, "'" + path + ".options." + m.key +
                                           "' must be a string, a number or true/false, found " +
                                           JsonValue::typeName(m.value.type()));
        }
    }
    reader.finish();
    checkPolicyAt(reader, item, policy);
    return policy;
}

std::string readModellingValue(const JsonObjectReader& reader, const ModellingField& field,
                               const JsonValue& value) {
    std::string text;
    bool typed = true;
    switch (field.kind) {
    case ModellingFieldKind::Number:
        typed = value.isNumber();
        text = typed ? shortestNumber(value.toNumber()) : std::string();
        break;
    case ModellingFieldKind::Choice:
        typed = value.isString();
        text = typed ? value.toString() : std::string();
        break;
    case ModellingFieldKind::NumberList:
        typed = value.isArray();
        if (!typed)
            break;
        for (const JsonValue& item : value.items()) {
            if (!item.isNumber())
                reader.failAt(item, "expected '" + reader.qualified(field.key) + "' to hold numbers, found " +
                                        JsonValue::typeName(item.type()));
            appendSeparated(text, shortestNumber(item.toNumber()), ",");
        }
        break;
    }
    if (!typed || !isValidModellingValue(field, text))
        reader.failAt(value, "expected '" + reader.qualified(field.key) + "' to be " +
                                 expectedModellingValue(field) + ", found " + value.dump(-1));
    return text;
}

Scenario parseScenario(const JsonValue& json, const std::string& file) {
    JsonObjectReader reader(json, file);
    Scenario scenario;
    scenario.schema = reader.schema();
    scenario.sourceFile = file;
    scenario.name = reader.string("name");
    scenario.description = reader.optionalString("description").value_or(std::string());
    scenario.job = readJob(reader);
    std::tie(scenario.cluster, scenario.clusterRef) = readClusterRef(reader);

    scenario.gpus = reader.integer("gpus", 1, 10000000, "GPUs");
    if (scenario.gpus > scenario.cluster.gpusAvailable) {
        reader.failAt(*reader.optionalValue("gpus"),
                      "'gpus' = " + std::to_string(scenario.gpus) +
                          " is more than the cluster has available (" +
                          std::to_string(scenario.cluster.gpusAvailable) + " in '" +
                          (scenario.clusterRef.empty() ? scenario.cluster.name : scenario.clusterRef) + "')");
    }
    if (const std::string problem =
            unsupportedPrecision(scenario.cluster.accelerator, scenario.job.precision);
        !problem.empty()) {
        const JsonValue& job = *reader.optionalValue("job");
        const JsonValue* at = job.find("precision");
        reader.failAt(at != nullptr ? *at : job, "precision " + problem);
    }

    scenario.regions = readRegions(reader);
    const JsonValue& start = reader.value("start");
    if (!start.isString())
        reader.failAt(start, "'start' must be an ISO-8601 date-time string such as \"2022-06-01T00:00:00Z\"");
    const std::optional<UtcSeconds> startUtc = parseIsoDateTime(start.toString());
    if (!startUtc) {
        reader.failAt(start, "'start' = '" + start.toString() +
                                 "' is not an ISO-8601 date-time; expected e.g. 2022-06-01T00:00:00Z");
    }
    scenario.startUtc = *startUtc;
    for (const RegionSpec& region : scenario.regions) {
        if (scenario.startUtc < region.trace.startUtc || scenario.startUtc >= region.trace.endUtc()) {
            reader.failAt(start, "'start' = " + formatIsoUtc(scenario.startUtc) +
                                     " is outside the trace of region '" + region.regionId + "' (" +
                                     formatIsoUtc(region.trace.startUtc) + " to " +
                                     formatIsoUtc(region.trace.endUtc()) + ")");
        }
    }
    scenario.deadline = readDeadline(reader);
    scenario.policies = readPolicies(reader);
    scenario.forecast = readForecast(reader);
    scenario.modelling = readModelling(reader);
    scenario.operatingPoints = readOperatingPoints(reader);
    reader.finish();
    return scenario;
}

Scenario loadScenario(const std::string& path) {
    return parseScenario(readJsonFile(path), path);
}

std::string resolvedTracePath(const Scenario& scenario, const RegionSpec& region) {
    return resolveRelativeTo(scenario.sourceFile, region.tracePath);
}

CarbonTrace loadRegionTrace(const RegionSpec& region, const std::string& path) {
    TraceLoadOptions options;
    options.regionId = region.regionId;
    options.timeZone = region.timeZone;
    options.repair = region.repair;
    options.column = region.emissionFactor.empty()       ? ""
                     : region.emissionFactor == "direct" ? "direct"
                                                         : "lca";
    return loadCarbonTrace(path, options);
}

namespace detail {

std::string traceFingerprint(const CarbonTrace& trace) {
    if (!trace.provenance.contentSha256.empty()) {
        std::string text = trace.provenance.contentSha256;
        // A repaired trace differs from its file, and so does a file's direct column from its default: the
        // repairs and the column are part of its identity.
        for (const std::string& repair : trace.provenance.repairs)
            text += "+" + repair;
        if (trace.provenance.directColumn)
            text += "+direct";
        if (trace.provenance.repairs.empty() && !trace.provenance.directColumn)
            return text;
        return QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256)
            .toHex()
            .toStdString();
    }
    // Built in memory: hash the grid and the values themselves.
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const auto addBytes = [&hash](const void* data, size_t size) {
        hash.addData(QByteArrayView(static_cast<const char*>(data), static_cast<qsizetype>(size)));
    };
    addBytes(&trace.startUtc, sizeof trace.startUtc);
    addBytes(&trace.stepSeconds, sizeof trace.stepSeconds);
    addBytes(trace.gPerKwh.data(), trace.gPerKwh.size() * sizeof(double));
    addBytes(trace.marginalGPerKwh.data(), trace.marginalGPerKwh.size() * sizeof(double));
    return hash.result().toHex().toStdString();
}

namespace {

JsonValue operatingPointsToJson(const OperatingPointTable& table) {
    JsonValue array = JsonValue::makeArray();
    for (const OperatingPoint& p : table.points) {
        JsonValue item = JsonValue::makeObject();
        if (p.dp)
            item.insert("dp", JsonValue::makeNumber(*p.dp));
        if (p.tp)
            item.insert("tp", JsonValue::makeNumber(*p.tp));
        if (p.pp)
            item.insert("pp", JsonValue::makeNumber(*p.pp));
        if (p.microBatch)
            item.insert("micro_batch", JsonValue::makeNumber(*p.microBatch));
        if (p.powerLimitW)
            item.insert("power_limit_w", JsonValue::makeNumber(*p.powerLimitW));
        item.insert("throughput", JsonValue::makeNumber(p.throughput));
        item.insert("power_w", JsonValue::makeNumber(p.powerW));
        if (p.powerScope != PowerScope::Gpu)
            item.insert("power_scope", JsonValue::makeString(powerScopeName(p.powerScope)));
        array.append(std::move(item));
    }
    return array;
}

// Policy options were read as text; write numbers and booleans back as JSON numbers and booleans
// when the text is exactly how such a value prints, so a file round-trips unchanged.
JsonValue optionValue(const std::string& text) {
    if (text == "true" || text == "false")
        return JsonValue::makeBool(text == "true");
    try {
        JsonValue parsed = parseJson(text, std::string());
        if (parsed.isNumber() && parsed.dump(-1) == text)
            return parsed;
    } catch (const InputError&) {
        // not a number: a string option
    }
    return JsonValue::makeString(text);
}

bool isUnchangedModelPreset(const ModelSpec& model) {
    if (model.id.empty())
        return false;
    const std::optional<ModelSpec> preset = findModelPreset(model.id);
    return preset && toJson(*preset).dump(-1) == toJson(model).dump(-1);
}

bool isUnchangedClusterPreset(const ClusterProfile& cluster, const std::string& ref) {
    if (ref.empty())
        return false;
    const std::optional<ClusterProfile> preset = findClusterPreset(ref);
    return preset && toJson(*preset).dump(-1) == toJson(cluster).dump(-1);
}

// The "job" object; an unchanged model preset is written by its id unless the output is canonical.
JsonValue jobToJson(const TrainingJob& trainingJob, bool canonical) {
    JsonValue job = JsonValue::makeObject();
    if (!canonical && isUnchangedModelPreset(trainingJob.model))
        job.insert("model", JsonValue::makeString(trainingJob.model.id));
    else
        job.insert("model", toJson(trainingJob.model));
    job.insert("tokens", JsonValue::makeNumber(trainingJob.tokens));
    job.insert("global_batch", JsonValue::makeNumber(trainingJob.globalBatch));
    if (trainingJob.work)
        job.insert("work", JsonValue::makeNumber(*trainingJob.work));
    job.insert("precision", JsonValue::makeString(precisionName(trainingJob.precision)));
    if (trainingJob.attention)
        job.insert("attention", JsonValue::makeString(attentionKernelName(*trainingJob.attention)));
    if (trainingJob.precision == Precision::FP8)
        job.insert("fp8_weights", JsonValue::makeBool(trainingJob.fp8Weights));
    for (const StackSwitch& stackSwitch : kStackSwitches) {
        const bool on = trainingJob.*stackSwitch.member;
        // Left out at its default, so earlier scenarios keep their fingerprint, and where it does not apply.
        if (on != stackSwitch.byDefault && stackSwitch.appliesTo(trainingJob))
            job.insert(std::string(stackSwitch.key), JsonValue::makeBool(on));
    }
    if (trainingJob.contextParallel > 1)
        job.insert("context_parallel", JsonValue::makeNumber(trainingJob.contextParallel));
    return job;
}

// One entry of "regions": traces by path relative to `dir`, or by content hash when canonical.
JsonValue regionToJson(const Scenario& scenario, const RegionSpec& region, const std::string& dir,
                       bool canonical) {
    JsonValue item = JsonValue::makeObject();
    item.insert("id", JsonValue::makeString(region.regionId));
    if (canonical)
        item.insert("trace_sha256", JsonValue::makeString(traceFingerprint(region.trace)));
    else
        item.insert("trace",
                    JsonValue::makeString(relativePathFrom(dir, resolvedTracePath(scenario, region))));
    if (!region.timeZone.empty())
        item.insert("time_zone", JsonValue::makeString(region.timeZone));
    if (region.repair)
        item.insert("repair", JsonValue::makeBool(true));
    // The identity (canonical form) is the trace's: asking for the default by name is the same trace.
    if (!region.emissionFactor.empty() && !(canonical && region.emissionFactor == "lifecycle"))
        item.insert("emission_factor", JsonValue::makeString(region.emissionFactor));
    if (region.priceTrace) {
        if (canonical)
            item.insert("price_trace_sha256", JsonValue::makeString(region.priceTrace->contentSha256));
        else
            item.insert("price_trace",
                        JsonValue::makeString(relativePathFrom(
                            dir, resolveRelativeTo(scenario.sourceFile, region.priceTracePath))));
    }
    return item;
}

JsonValue policiesToJson(const std::vector<PolicySpec>& specs) {
    JsonValue policies = JsonValue::makeArray();
    for (const PolicySpec& policy : specs) {
        JsonValue item = JsonValue::makeObject();
        item.insert("name", JsonValue::makeString(policy.name));
        if (!policy.options.empty()) {
            JsonValue options = JsonValue::makeObject();
            for (const auto& [key, text] : policy.options)
                options.insert(key, optionValue(text));
            item.insert("options", std::move(options));
        }
        policies.append(std::move(item));
    }
    return policies;
}

// A file keeps the horizon only when the scenario sets one, so that an unset horizon follows the kind. The
// canonical form (the scenario's hash) holds the reach in force when it is finite: a scenario that sets 48 h
// and one that leaves a 48-hour kind's default hash alike, as scenarios did before the horizon was optional.
JsonValue forecastToJson(const Scenario& scenario, const std::string& dir, bool canonical) {
    const ForecastSpec& spec = scenario.forecast;
    JsonValue forecast = JsonValue::makeObject();
    forecast.insert("kind", JsonValue::makeString(spec.kind));
    forecast.insert("error", JsonValue::makeNumber(spec.errorFraction));
    forecast.insert("seed", JsonValue::makeNumber(static_cast<double>(spec.seed)));
    const double reach = canonical ? spec.effectiveHorizonHours()
                                   : spec.horizonHours.value_or(std::numeric_limits<double>::quiet_NaN());
    if (std::isfinite(reach))
        forecast.insert("horizon_hours", JsonValue::makeNumber(reach));
    // The identity (canonical form) is the forecasts' content, wherever the file lies.
    if (spec.archive && canonical)
        forecast.insert("file_sha256", JsonValue::makeString(spec.archive->contentSha256));
    else if (!spec.filePath.empty())
        forecast.insert("file", JsonValue::makeString(relativePathFrom(
                                    dir, resolveRelativeTo(scenario.sourceFile, spec.filePath))));
    return forecast;
}

// The "modelling" object, one member per field of the modelling table, each as its kind is written.
JsonValue modellingToJson(const ModellingOptions& options) {
    JsonValue modelling = JsonValue::makeObject();
    for (const ModellingField& field : modellingFields()) {
        const std::string text = field.get(options);
        switch (field.kind) {
        case ModellingFieldKind::Number:
            // An unset field (NaN: the GPU price that follows the cluster) is written by leaving it out.
            if (const double value = *parseDecimal(text); std::isfinite(value))
                modelling.insert(field.key, JsonValue::makeNumber(value));
            break;
        case ModellingFieldKind::Choice:
            modelling.insert(field.key, JsonValue::makeString(text));
            break;
        case ModellingFieldKind::NumberList:
            if (text.empty())
                break; // written only when set, as before the table
            JsonValue list = JsonValue::makeArray();
            for (const std::string& item : modellingListItems(text))
                list.append(JsonValue::makeNumber(*parseDecimal(item)));
            modelling.insert(field.key, std::move(list));
            break;
        }
    }
    return modelling;
}

} // namespace

JsonValue scenarioToJson(const Scenario& scenario, const std::string& scenarioDir, bool canonical) {
    const std::string dir = scenarioDir.empty() ? directoryOf(scenario.sourceFile) : scenarioDir;
    JsonValue json = JsonValue::makeObject();
    json.insert("schema", JsonValue::makeNumber(kConfigSchemaVersion));
    json.insert("name", JsonValue::makeString(scenario.name));
    if (!scenario.description.empty())
        json.insert("description", JsonValue::makeString(scenario.description));

    json.insert("job", jobToJson(scenario.job, canonical));

    if (!canonical && isUnchangedClusterPreset(scenario.cluster, scenario.clusterRef))
        json.insert("cluster", JsonValue::makeString(scenario.clusterRef));
    else
        json.insert("cluster", toJson(scenario.cluster));
    json.insert("gpus", JsonValue::makeNumber(scenario.gpus));

    JsonValue regions = JsonValue::makeArray();
    for (const RegionSpec& region : scenario.regions)
        regions.append(regionToJson(scenario, region, dir, canonical));
    json.insert("regions", std::move(regions));
    json.insert("start", JsonValue::makeString(formatIsoUtc(scenario.startUtc)));

    JsonValue deadline = JsonValue::makeObject();
    deadline.insert(scenario.deadline.kind == DeadlineSpec::Kind::Hours ? "hours" : "slack",
                    JsonValue::makeNumber(scenario.deadline.value));
    json.insert("deadline", std::move(deadline));

    json.insert("policies", policiesToJson(scenario.policies));
    json.insert("forecast", forecastToJson(scenario, dir, canonical));
    json.insert("modelling", modellingToJson(scenario.modelling));

    if (scenario.operatingPoints) {
        const OperatingPointTable& table = *scenario.operatingPoints;
        // A table read from a CSV file is referred to by path; one given inline (or canonical) is inline.
        const bool fromCsv = !table.sourceFile.empty() && table.sourceFile != scenario.sourceFile;
        if (!canonical && fromCsv)
            json.insert("operating_points", JsonValue::makeString(relativePathFrom(dir, table.sourceFile)));
        else
            json.insert("operating_points", operatingPointsToJson(table));
    }
    return json;
}

} // namespace detail

JsonValue toJson(const Scenario& scenario, const std::string& scenarioDir) {
    return detail::scenarioToJson(scenario, scenarioDir, false);
}

} // namespace carbon3d
