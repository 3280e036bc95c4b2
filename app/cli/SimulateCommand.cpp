// SPDX-License-Identifier: MIT
// carbon3d-cli simulate: plays a scenario's job through its carbon trace(s) under one or more
// policies (core/engine) and prints the emissions, energy and timing of each run.
#include "cli/Commands.h"
#include "cli/ProgressLines.h"
#include "cli/SimulateSupport.h"
#include "config/OperatingPointsCsv.h"
#include "config/Presets.h"
#include "config/ScenarioHash.h"
#include "config/ScenarioJson.h"
#include "domain/FileIdentity.h"
#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/MetricFields.h"
#include "domain/ModellingFields.h"
#include "domain/NumberText.h"
#include "domain/PrintableText.h"
#include "domain/Savings.h"
#include "domain/ScenarioName.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "engine/forecast/Forecaster.h"
#include "perf/ExecutionMenuBuilder.h"
#include "runner/ReshapingOutlook.h"
#include "runner/ScenarioRunner.h"
#include "storage/ResultsStore.h"
#include "storage/RunCsv.h"
#include "support/DataDirectory.h"
#include "traces/ForecastLoader.h"
#include "traces/TraceLoader.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <ostream>

namespace carbon3d::cli {

std::string defaultScenarioPath() {
    const QString data = app::sampleDataDirectory();
    if (data.isEmpty())
        throw InputError(
            "scenarios/default.json", 0, 0,
            "expected the bundled sample data (set CARBON3D_DATA_DIR to the sample_data directory)");
    return data.toStdString() + "/scenarios/default.json";
}

JsonValue runToJson(const RunResult& run, const RunResult* baseline) {
    const RunMetrics& m = run.metrics;
    JsonValue object = JsonValue::makeObject();
    object.insert("policy", JsonValue::makeString(run.policy));
    insertMetricsJson(object, m, /*storedOnly=*/false);
    if (baseline != nullptr)
        object.insert("savings_vs_static_max",
                      JsonValue::makeNumber(savingsFraction(baseline->metrics.totalG, m.totalG)));
    object.insert("forecast", JsonValue::makeString(run.forecastKind));
    object.insert("forecast_mape", JsonValue::makeNumber(run.forecastMape));
    JsonValue options = JsonValue::makeObject();
    for (const auto& [key, value] : run.options)
        options.insert(key, JsonValue::makeString(value));
    object.insert("options", options);
    JsonValue modelling = JsonValue::makeObject();
    for (const auto& [key, value] : run.modelling)
        modelling.insert(key, JsonValue::makeString(value));
    object.insert("modelling", modelling);
    object.insert("warnings", jsonStrings(run.warnings));
    return object;
}

namespace {

// "backfill, batch_scaling, reconfiguration_seconds (or reconfiguration_s), ..."
std::string modellingKeys() {
    return joinedText(modellingFields(), ", ", [](const ModellingField& field) {
        return field.key + (field.alias.empty() ? "" : " (or " + field.alias + ")");
    });
}

void applyOption(const std::string& text, std::vector<PolicySpec>& policies, Scenario& scenario) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        throw UsageError("--option expects KEY=VALUE or POLICY.KEY=VALUE, found '" + text + "'");
    std::string key = text.substr(0, equals);
    const std::string value = text.substr(equals + 1);
    // Modelling options: the scenario file's keys (and their older spellings), checked by the same table.
    if (const ModellingField* field = findModellingField(key)) {
        if (!isValidModellingValue(*field, value))
            throw UsageError("--option " + key + " expects " + expectedModellingValue(*field) +
                             (field->kind == ModellingFieldKind::NumberList ? ", comma-separated" : "") +
                             ", found '" + value + "'");
        field->set(scenario.modelling, value);
        return;
    }
    if (const std::string replaced = retiredModellingKey(key); !replaced.empty())
        throw UsageError("--option " + key + ": " + replaced);
    // The forecast's horizon (the scenario's forecast.horizon_hours), with the file's range.
    if (key == "horizon_hours") {
        const std::optional<double> hours = parseDecimal(value);
        if (!hours || !(*hours >= 1.0 && *hours <= 8784.0))
            throw UsageError("--option horizon_hours expects a number in [1, 8784] h, found '" + value + "'");
        scenario.forecast.horizonHours = *hours;
        return;
    }
    // Policy options: POLICY.KEY applies to that policy; KEY to every selected policy that has it.
    // inner.KEY is an option of the inner policy of eadt or multi-region.
    std::string only;
    if (const auto dot = key.find('.'); dot != std::string::npos) {
        const std::string prefix = key.substr(0, dot);
        const auto& catalog = policyCatalog();
        if (std::any_of(catalog.begin(), catalog.end(),
                        [&prefix](const PolicyInfo& info) { return info.name == prefix; })) {
            only = prefix;
            key = key.substr(dot + 1);
        }
    }
    bool used = false;
    for (PolicySpec& policy : policies) {
        if (!only.empty() && policy.name != only)
            continue;
        for (const PolicyInfo& info : policyCatalog()) {
            if (info.name != policy.name)
                continue;
            for (const PolicyOptionInfo& option : info.options) {
                if (option.key == key || (option.key == "inner" && key.starts_with("inner."))) {
                    policy.options[key] = value;
                    used = true;
                }
            }
        }
    }
    if (!used)
        throw UsageError("--option " + text +
                         ": no selected policy has that option, and it is not a modelling option (" +
                         modellingKeys() + ") or horizon_hours");
}

// "KIND", for kinds with an error level "KIND:ERROR:SEED" (e.g. noisy:0.05:7), for kinds that replay a file
// "KIND:FILE"; kinds from the catalogue.
std::string forecastUsage() {
    std::vector<std::string> forms;
    for (const ForecastKindInfo& info : forecastCatalog()) {
        forms.push_back(info.kind + (info.takesError ? ":E:SEED" : "") + (info.takesSeed ? "[:SEED]" : "") +
                        (info.takesFile ? ":FILE" : ""));
        forms.insert(forms.end(), info.aliases.begin(), info.aliases.end());
    }
    return joinedText(forms, " | ");
}

ForecastSpec parseForecast(const std::string& text, ForecastSpec spec) {
    const std::string kind = text.substr(0, text.find(':'));
    const ForecastKindInfo* info = findForecastKind(kind);
    if (info == nullptr)
        throw UsageError("--forecast expects " + forecastUsage() + ", found '" + text + "'");
    spec.kind = info->kind;
    spec.archive.reset();
    spec.filePath.clear();
    if (info->takesFile) { // the rest of the text is the path, which may hold ':' itself
        if (kind == text || text.size() == kind.size() + 1)
            throw UsageError("--forecast " + info->kind + " expects " + info->kind +
                             ":FILE, a forecast file or a directory of them, found '" + text + "'");
        // Absolute: the scenario resolves its paths against its own file, not the working directory.
        spec.filePath = std::filesystem::absolute(text.substr(kind.size() + 1)).string();
        spec.archive = std::make_shared<const ForecastArchive>(loadForecastArchive(spec.filePath));
        return spec;
    }
    if (info->takesSeed) {
        if (kind == text)
            return spec;
        const std::optional<std::uint64_t> seed = parseUnsigned(text.substr(kind.size() + 1));
        if (!seed)
            throw UsageError("--forecast " + info->kind + ": expected " + info->kind + " or " + info->kind +
                             ":SEED with an integer seed in [0, 2^64), found '" + text + "'");
        spec.seed = *seed;
        return spec;
    }
    if (!info->takesError) {
        if (kind != text)
            throw UsageError("--forecast " + info->kind + " takes no parameters, found '" + text + "'");
        return spec;
    }
    const auto first = text.find(':');
    const auto second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos)
        throw UsageError("--forecast " + info->kind + " expects " + info->kind + ":ERROR:SEED, e.g. " +
                         info->kind + ":0.05:7, found '" + text + "'");
    const std::string error = text.substr(first + 1, second - first - 1);
    const std::string seed = text.substr(second + 1);
    const std::optional<double> fraction = parseDecimal(error);
    if (!fraction || !(*fraction >= 0.0 && *fraction <= 10.0))
        throw UsageError("--forecast " + info->kind + ": expected an error fraction in [0, 10], found '" +
                         error + "'");
    const std::optional<std::uint64_t> seedValue = parseUnsigned(seed);
    if (!seedValue)
        throw UsageError("--forecast " + info->kind + ": expected an integer seed in [0, 2^64), found '" +
                         seed + "'");
    spec.errorFraction = *fraction;
    spec.seed = *seedValue;
    return spec;
}

std::string simulateDetails() {
    std::string details =
        "Flags override the scenario file. Without SCENARIO.json the bundled default is used, looked up in\n"
        "$CARBON3D_DATA_DIR, then <exe>/../share/carbon3d/sample_data, <exe>/../../sample_data, then the\n"
        "source tree the program was built from. Without --policy, the scenario's policies run (all of them\n"
        "when it lists none). --option KEY=VALUE sets a modelling option (below; the keys of the scenario\n"
        "file's \"modelling\" object, older spellings in parentheses), the forecast's horizon_hours, or a\n"
        "policy option (KEY for every selected policy that has it, POLICY.KEY for one, inner.KEY for the\n"
        "policy inside eadt or multi-region). --db FILE saves every run in a results database.\n"
        "Exit code 1 for bad input or an infeasible deadline.\n\nModelling options:\n";
    for (const ModellingField& field : modellingFields())
        details += "  " + field.key + (field.alias.empty() ? "" : " (" + field.alias + ")") + ": " +
                   expectedModellingValue(field) + "; " + field.description + "\n";
    details += "\nPolicies:\n";
    for (const PolicyInfo& info : policyCatalog())
        details += "  " + info.name + ": " + info.description + "\n";
    return details;
}

std::vector<FlagSpec> simulateFlags() {
    return {
        {"policy", true, true, "NAME", "policy to run"},
        {"region-trace", true, false, "FILE", "carbon trace replacing the scenario's regions"},
        {"start", true, false, "ISO-8601", "job start, UTC"},
        {"deadline-hours", true, false, "H", "deadline H hours after the start"},
        {"slack", true, false, "FRACTION", "deadline = (1 + FRACTION) x the runtime at full size"},
        {"model", true, false, "PRESET|FILE", "model to train"},
        {"cluster", true, false, "PRESET|FILE", "cluster profile"},
        {"gpus", true, false, "N", "GPUs allocated to the job"},
        {"tokens", true, false, "T", "training tokens"},
        {"profile", true, false, "OPERATING_POINTS.csv", "measured menu instead of the analytic model"},
        {"work", true, false, "UNITS",
         "job size in the profile's work units (with --profile; overrides job.work)"},
        {"forecast", true, false, "KIND", forecastUsage()},
        {"option", true, true, "KEY=VALUE", "modelling or policy option"},
        {"series-out", true, false, "DIR", "write one CSV of intervals per run into DIR"},
        {"db", true, false, "FILE", "save every run in this results database"},
        {"json", false, false, "", "print JSON"},
    };
}

// --model, --cluster, --gpus, --tokens and --start: what is trained, where, and from when.
void applyJobFlags(const CliArguments& args, Scenario& scenario) {
    if (const auto model = args.value("model"))
        scenario.job.model = resolveModel(*model);
    if (const auto cluster = args.value("cluster")) {
        scenario.cluster = resolveCluster(*cluster);
        scenario.clusterRef = *cluster;
    }
    if (const auto gpus = args.intValue("gpus", 1, 1000000))
        scenario.gpus = *gpus;
    if (const auto tokens = args.doubleValue("tokens", 1.0, 1e16))
        scenario.job.tokens = *tokens;
    if (const auto start = args.value("start")) {
        const auto parsed = parseIsoDateTime(*start);
        if (!parsed)
            throw UsageError("--start expects an ISO-8601 date-time, found '" + *start + "'");
        scenario.startUtc = *parsed;
    }
}

// --deadline-hours or --slack, --region-trace, --profile and --forecast: the run's deadline and inputs.
void applyDeadlineAndInputFlags(const CliArguments& args, Scenario& scenario) {
    if (args.has("deadline-hours") && args.has("slack"))
        throw UsageError("give --deadline-hours or --slack, not both");
    if (const auto hours = args.doubleValue("deadline-hours", 0.0, 1e6))
        scenario.deadline = {DeadlineSpec::Kind::Hours, *hours};
    if (const auto slack = args.doubleValue("slack", 0.0, 1e3))
        scenario.deadline = {DeadlineSpec::Kind::Slack, *slack};
    if (const auto trace = args.value("region-trace")) {
        RegionSpec region;
        region.tracePath = *trace;
        region.trace = loadCarbonTrace(*trace);
        region.regionId = region.trace.regionId;
        region.timeZone = region.trace.timeZone;
        scenario.regions = {region};
    }
    if (const auto profile = args.value("profile"))
        scenario.operatingPoints = loadOperatingPoints(*profile);
    if (const auto forecast = args.value("forecast"))
        scenario.forecast = parseForecast(*forecast, scenario.forecast);
}

// The --policy flags, else the scenario's policies, else the whole catalogue; then every --option applied
// (to the policies or the scenario).
std::vector<PolicySpec> selectedPolicies(const CliArguments& args, Scenario& scenario) {
    std::vector<PolicySpec> policies;
    for (const std::string& name : args.values("policy"))
        policies.push_back({name, {}});
    if (policies.empty())
        policies = scenario.policies;
    if (policies.empty()) {
        for (const PolicyInfo& info : policyCatalog())
            policies.push_back({info.name, {}});
    }
    for (const std::string& option : args.values("option"))
        applyOption(option, policies, scenario);
    // Every policy is checked (name and options, by the catalogue) before any of them runs.
    for (const PolicySpec& policy : policies)
        makePolicy(policy);
    return policies;
}

// The file's rule, applied after the flags (--gpus or --cluster may have changed either side).
void checkGpusAvailable(const Scenario& scenario) {
    if (scenario.gpus > scenario.cluster.gpusAvailable)
        throw UsageError("the job's " + std::to_string(scenario.gpus) + " GPUs are more than " +
                         (scenario.clusterRef.empty() ? scenario.cluster.name : scenario.clusterRef) +
                         " has available (" + std::to_string(scenario.cluster.gpusAvailable) +
                         "): lower --gpus or choose a larger --cluster");
}

// --work, which an operating-points profile needs unless the scenario's job gives it.
std::optional<double> workFromArgs(const CliArguments& args, const Scenario& scenario) {
    const auto work = args.doubleValue("work", 0.0, 1e30);
    if (work && !scenario.operatingPoints) // issue 40, item 10: it used to be ignored without a word
        throw UsageError("--work sets the job's size in a measured profile's work units, and this scenario "
                         "runs on the performance model: give its size with --tokens, or a profile with "
                         "--profile");
    if (scenario.operatingPoints && !work && !scenario.job.work)
        throw UsageError("with an operating-points profile, give the job's size in the profile's work units "
                         "with --work UNITS (or as 'work' in the scenario's 'job')");
    return work;
}

void saveRuns(ResultsStore& store, const Scenario& scenario, const std::vector<RunResult>& runs,
              std::ostream& err) {
    const StoredScenario stored{scenario.name, canonicalJson(scenario), scenarioHash(scenario)};
    for (const RunResult& run : runs) {
        SaveOptions options;
        options.name = runName(stored.name, run);
        const RunId id = store.saveRun(stored, run, storedTracesOf(scenario), options);
        err << "saved run " << id << " (" << run.policy << ") to " << store.path() << '\n';
    }
}

// The run the savings are measured against, when the baseline policy ran; null otherwise.
const RunResult* baselineRun(const std::vector<RunResult>& runs) {
    const RunResult* baseline = nullptr;
    for (const RunResult& run : runs) {
        if (run.policy == defaultBaselinePolicy().name)
            baseline = &run;
    }
    return baseline;
}

// The series CSV of one policy's run under --series-out DIR.
std::string seriesFileFor(const std::string& directory, const std::string& policy) {
    return directory + "/" + policy + ".csv";
}

void writeSeriesFiles(const PreparedScenario& prepared, const std::vector<RunResult>& runs,
                      const std::string& directory) {
    std::vector<std::string> regionIds;
    for (const CarbonTrace& region : prepared.input.regions)
        regionIds.push_back(region.regionId);
    for (const RunResult& run : runs)
        writeSeriesCsvFile(run, regionIds, seriesFileFor(directory, run.policy));
}

// Before any work: no series file may replace what this command reads (the scenario, its traces, a
// measured profile) or the database it saves into, by device and inode (issue 40, item 3).
void refuseSeriesOverInputs(const CliArguments& args, const Scenario& scenario,
                            const std::vector<PolicySpec>& policies, const std::string& directory) {
    std::vector<std::string> inputs{scenario.sourceFile};
    for (const RegionSpec& region : scenario.regions)
        inputs.push_back(region.trace.provenance.sourceFile);
    for (const char* flag : {"profile", "db"})
        if (const auto path = args.value(flag))
            inputs.push_back(*path);
    for (const PolicySpec& policy : policies)
        refuseOutputOverInputs(seriesFileFor(directory, policy.name), inputs);
}

void printRunsJson(std::ostream& out, const Scenario& scenario, const PreparedScenario& prepared,
                   const std::vector<RunResult>& runs, const RunResult* baseline) {
    JsonValue root = JsonValue::makeObject();
    root.insert("scenario", JsonValue::makeString(scenario.name));
    root.insert("start", JsonValue::makeString(formatIsoUtc(prepared.input.startUtc)));
    root.insert("deadline", JsonValue::makeString(formatIsoUtc(prepared.input.deadlineUtc)));
    root.insert("menu_options", JsonValue::makeNumber(static_cast<double>(prepared.menu.size())));
    JsonValue list = JsonValue::makeArray();
    for (const RunResult& run : runs)
        list.append(runToJson(run, baseline));
    root.insert("runs", list);
    out << root.dump(2) << '\n';
}

// A run as the table names it: its policy and the options that differ from the defaults, so that variants of
// one policy are told apart ("multi-region (hysteresis=false, migration=checkpoint)").
std::string runLabel(const RunResult& run) {
    return printable(policyRunLabel(run.policy, run.options));
}

// The policy column's width: the longest run label and two spaces, at least 16.
int labelWidth(const std::vector<RunResult>& runs) {
    std::size_t widest = 14;
    for (const RunResult& run : runs)
        widest = std::max(widest, runLabel(run).size());
    return static_cast<int>(widest + 2);
}

// Where each run's saving comes from (runner/SavingSplit.h), at the run's own attribution of parked GPUs, in
// % of the baseline's emissions: the three parts add up to the run's vs_static.
void printSavingSplits(std::ostream& out, const std::vector<RunResult>& runs, const RunResult* baseline) {
    if (baseline == nullptr)
        return;
    out << "\nwhere each saving comes from, % of " << baseline->policy
        << "'s emissions (the simpler plans run on the same job and forecast):\n"
        << std::left << std::setw(labelWidth(runs)) << "policy" << std::right << std::setw(15)
        << "configuration" << std::setw(10) << "timing" << std::setw(24) << "beyond simpler plans" << '\n';
    const auto percent = [](double fraction) { return 100.0 * fraction; };
    for (const RunResult& run : runs) {
        const SavingSplit split = run.metrics.splitFractionsCharging(run.chargedParkedShare());
        if (std::isnan(split.totalG()))
            continue;
        out << std::left << std::setw(labelWidth(runs)) << runLabel(run) << std::right << std::fixed
            << std::setprecision(2) << std::setw(14) << percent(split.configurationG) << '%' << std::setw(9)
            << percent(split.timingG) << '%' << std::setw(23) << percent(split.beyondG) << "%\n";
    }
    out << "configuration: the best single configuration held throughout (best-static); timing: what pausing "
           "and shifting add beyond it; beyond: what the policy adds beyond the strongest of those plans "
           "(for dynamic-3d, reshaping)\n";
}

// The scenario's window, then a line a run (savings against the baseline, 0 % without one) and its warnings.
void printRunsTable(std::ostream& out, const Scenario& scenario, const PreparedScenario& prepared,
                    const std::vector<RunResult>& runs, const RunResult* baseline) {
    out << printable(scenario.name) << "\nstart " << formatIsoUtc(prepared.input.startUtc) << ", deadline "
        << formatIsoUtc(prepared.input.deadlineUtc) << ", " << prepared.menu.size() << " menu options\n\n";
    const int width = labelWidth(runs);
    out << std::left << std::setw(width) << "policy" << std::right << std::setw(14) << "emissions_kg"
        << std::setw(12) << "energy_MWh" << std::setw(12) << "hours" << std::setw(10) << "deadline"
        << std::setw(8) << "reconf" << std::setw(8) << "preempt" << std::setw(8) << "migr" << std::setw(12)
        << "vs_static" << '\n';
    for (const RunResult& run : runs) {
        const RunMetrics& m = run.metrics;
        out << std::left << std::setw(width) << runLabel(run) << std::right << std::fixed
            << std::setprecision(1) << std::setw(14) << m.totalG / 1000.0 << std::setw(12)
            << std::setprecision(2) << m.energyJ / 3.6e9 << std::setw(12) << std::setprecision(1)
            << m.completionSeconds / 3600.0 << std::setw(10) << (m.deadlineMet ? "met" : "MISSED")
            << std::setw(8) << m.reconfigurations << std::setw(8) << m.preemptions << std::setw(8)
            << m.migrations << std::setw(11) << std::setprecision(2)
            << (baseline ? 100.0 * savingsFraction(baseline->metrics.totalG, m.totalG) : 0.0) << "%\n";
        for (const std::string& warning : run.warnings)
            out << "  warning: " << warning << '\n';
    }
    printSavingSplits(out, runs, baseline);
    // Does reshaping pay for this job? What decides it, and what this batch's dynamic-3d run drew on.
    out << "\ndoes reshaping pay for this job?\n";
    for (const std::string& line : reshapingOutlookText(reshapingOutlook(prepared), runs))
        out << "- " << line << '\n';
}

// The runs, with a line on `err` every so often while they take long (ProgressLines): which policy is
// running and how much of the batch's work is done (runAllPolicies reports it over the policies; the
// reference runs of the saving split after them report nothing).
std::vector<RunResult> runWithProgressLines(const PreparedScenario& prepared,
                                            const std::vector<PolicySpec>& policies, std::ostream& err) {
    std::atomic<double> done{0.0};
    SimulationHooks hooks;
    hooks.progress = [&done](double fraction) {
        done = fraction;
        return true;
    };
    const auto describe = [&](double seconds) {
        const double fraction = std::min(1.0, done.load());
        const std::string elapsed = fixedNumber(seconds, 0) + " s";
        if (fraction >= 1.0)
            return "simulate: every run is done after " + elapsed + "; splitting each saving into its parts";
        const std::size_t current = std::min(
            policies.size() - 1, static_cast<std::size_t>(fraction * static_cast<double>(policies.size())));
        return "simulate: " + fixedNumber(fraction * 100.0, 0) + " % of the runs' work done after " +
               elapsed + " (now " + printable(policies[current].name) + ", run " +
               std::to_string(current + 1) + " of " + std::to_string(policies.size()) + ")";
    };
    const ProgressLines lines(err, describe);
    return runAllPolicies(prepared, policies, hooks);
}

int runSimulate(const CliArguments& args, CommandIo& io) {
    if (args.positionals().size() > 1)
        throw UsageError("expected at most one scenario file");
    const Scenario loaded =
        loadScenario(args.positionals().empty() ? defaultScenarioPath() : args.positionals()[0]);
    Scenario scenario = loaded;
    applyJobFlags(args, scenario);
    applyDeadlineAndInputFlags(args, scenario);
    const std::vector<PolicySpec> policies = selectedPolicies(args, scenario);
    checkGpusAvailable(scenario);
    const std::optional<double> work = workFromArgs(args, scenario);
    // Runs are saved and shown under a name that says what ran, not the file's once a flag changed it.
    scenario.name = nameAfterEdits(loaded, scenario);
    scenario.description = descriptionAfterEdits(loaded, scenario);
    const PreparedScenario prepared = prepareScenario(scenario, work);
    // Every output is checked before the work: a bad --db or --series-out must not cost the runs.
    const std::optional<std::string> seriesDirectory = args.value("series-out");
    if (seriesDirectory) {
        ensureOutputDirectory(*seriesDirectory);
        refuseSeriesOverInputs(args, scenario, policies, *seriesDirectory);
    }
    std::unique_ptr<ResultsStore> store;
    if (const auto db = args.value("db"))
        store = std::make_unique<ResultsStore>(*db);
    const std::vector<RunResult> runs = runWithProgressLines(prepared, policies, io.err);
    if (store)
        saveRuns(*store, scenario, runs, io.err);
    const RunResult* baseline = baselineRun(runs);
    if (seriesDirectory)
        writeSeriesFiles(prepared, runs, *seriesDirectory);
    if (args.has("json"))
        printRunsJson(io.out, scenario, prepared, runs, baseline);
    else
        printRunsTable(io.out, scenario, prepared, runs, baseline);
    return 0;
}

} // namespace

Command makeSimulateCommand() {
    Command command;
    command.name = "simulate";
    command.summary = "play a training job through a carbon trace under one or more policies";
    command.usage = "simulate [SCENARIO.json] [--policy NAME]... [options]";
    command.details = simulateDetails();
    command.flags = simulateFlags();
    command.run = runSimulate;
    return command;
}

} // namespace carbon3d::cli
