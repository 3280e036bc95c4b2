// SPDX-License-Identifier: MIT
#include "cli/Commands.h"
#include "config/ClusterProfileJson.h"
#include "config/ConfigFiles.h"
#include "config/ModelSpecJson.h"
#include "config/OperatingPointsCsv.h"
#include "config/PowerLogs.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/Json.h"
#include "domain/NumberText.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "perf/ModelMath.h"
#include "study/StudyCells.h"
#include "support/DataDirectory.h"
#include "traces/ForecastLoader.h"
#include "traces/TraceLoader.h"
#include "traces/TraceSummary.h"

#include <QFileInfo>
#include <ostream>

namespace carbon3d::cli {

namespace {

enum class InputKind { Trace, Forecast, PowerLog, OperatingPoints, Cluster, Model, Scenario, Study };

// The first line of a CSV file, for telling an operating-points table from a carbon trace.
// Read through the guarded reader, with the trace loader's size limit, so that /dev/zero, a FIFO or a huge
// sparse file is refused before anything is read.
std::string firstLine(const std::string& path) {
    const std::string head = readInputFileHead(path, TraceLoadOptions{}.maxFileBytes, std::int64_t{64} * 1024,
                                               "a trace or an operating-points table");
    return head.substr(0, head.find('\n'));
}

// Decides what a file is from its content: JSON objects by their keys, CSV by its header. No carbon-trace
// JSON format (docs/DATA.md) has a "schema" key.
InputKind detectKind(const std::string& path) {
    if (isPowerLog(path))
        return InputKind::PowerLog;
    if (isForecastOnlyFile(path))
        return InputKind::Forecast;
    const std::string suffix = QFileInfo(QString::fromStdString(path)).suffix().toLower().toStdString();
    if (suffix != "json") {
        const std::string header = firstLine(path);
        const bool operatingPoints =
            header.find("throughput") != std::string::npos && header.find("power_w") != std::string::npos;
        return operatingPoints ? InputKind::OperatingPoints : InputKind::Trace;
    }
    // Read under the trace loader's limit, the largest of any kind: a JSON trace may be larger than a
    // configuration file, and a configuration file larger than its own limit is refused by its loader next,
    // as simulate would refuse it (issue 40: a valid 20 MB UK trace was refused as "a configuration file").
    const JsonValue json = parseJson(readTextFile(path, TraceLoadOptions{}.maxFileBytes), path);
    if (!json.isObject() || json.find("schema") == nullptr)
        return InputKind::Trace;
    if (isStudyJson(json))
        return InputKind::Study;
    if (json.find("job") != nullptr)
        return InputKind::Scenario;
    if (json.find("layers") != nullptr)
        return InputKind::Model;
    if (json.find("accelerator") != nullptr)
        return InputKind::Cluster;
    throw InputError(
        path, json.line(), json.column(),
        "cannot tell what this file is: expected a scenario (\"job\"), a study (\"axes\"), a model "
        "(\"layers\") or a cluster profile (\"accelerator\")");
}

std::string describeTrace(const std::string& path, bool repair) {
    TraceLoadOptions options;
    options.repair = repair;
    const CarbonTrace trace = loadCarbonTrace(path, options);
    const TraceSummary s = summarizeTrace(trace);
    std::string repairs;
    for (const std::string& r : trace.provenance.repairs)
        repairs += (repairs.empty() ? "; repaired: " : "; ") + r;
    const std::string zone = trace.timeZoneAssumed ? "; warning: " + timeZoneAssumedWarning(trace)
                                                   : "; time zone " + trace.timeZone;
    return "carbon trace (" + trace.provenance.format + ", " + carbonSignalName(trace.signal) + "), region " +
           printable(trace.regionId) + ", " + std::to_string(s.rows) + " rows of " +
           std::to_string(s.stepSeconds / 60) + " min, " + formatIsoUtc(s.startUtc) + " to " +
           formatIsoUtc(s.endUtc) + ", min/mean/max " + fixedNumber(s.minGPerKwh, 2) + "/" +
           fixedNumber(s.meanGPerKwh, 2) + "/" + fixedNumber(s.maxGPerKwh, 2) + " gCO2e/kWh" + zone + repairs;
}

std::string describeOperatingPoints(const std::string& path) {
    const OperatingPointTable table = loadOperatingPoints(path);
    double minThroughput = table.points.front().throughput;
    double maxThroughput = minThroughput;
    for (const OperatingPoint& p : table.points) {
        minThroughput = std::min(minThroughput, p.throughput);
        maxThroughput = std::max(maxThroughput, p.throughput);
    }
    return "operating points, " + std::to_string(table.points.size()) + " rows, throughput " +
           fixedNumber(minThroughput, 1) + " to " + fixedNumber(maxThroughput, 1) + " units/s";
}

std::string describeCluster(const std::string& path) {
    const ClusterProfile c = loadClusterProfile(path);
    const auto bf16 = c.accelerator.peakFlops.find(Precision::BF16);
    return "cluster profile '" + printable(c.id) + "' (" + printable(c.name) + "), " +
           std::to_string(c.gpusAvailable) + " x " + printable(c.accelerator.name) + ", " +
           (bf16 == c.accelerator.peakFlops.end()
                ? std::string("no bf16")
                : fixedNumber(bf16->second / 1e12, 1) + " TFLOP/s bf16 dense") +
           ", " + fixedNumber(c.accelerator.memoryBytes / (1024.0 * 1024 * 1024), 0) + " GiB, PUE " +
           fixedNumber(c.pue, 2);
}

// A mixture of experts' active parameters and routing, after its total: ", 37.6 B active per token (256
// routed experts, 8 per token, 1 shared, in 58 of 61 layers)".
std::string describeExperts(const ModelSpec& m) {
    if (!m.mixtureOfExperts())
        return {};
    return ", " + fixedNumber(activeParameterCount(m) / 1e9, 1) + " B active per token (" +
           std::to_string(m.experts) + " routed experts, " + std::to_string(m.expertsPerToken) +
           " per token, " + std::to_string(m.sharedExperts) + " shared, in " +
           std::to_string(moeLayerCount(m)) + " of " + std::to_string(m.layers) + " layers)";
}

std::string describeModel(const std::string& path) {
    const ModelSpec m = loadModelSpec(path);
    return "model '" + printable(m.id) + "' (" + printable(m.name) + "), " + std::to_string(m.layers) +
           " layers, hidden " + std::to_string(m.hidden) + ", " + std::to_string(m.heads) + " heads, " +
           fixedNumber(parameterCount(m) / 1e9, 1) + " B parameters" + describeExperts(m);
}

std::string describeScenario(const std::string& path) {
    const Scenario s = loadScenario(path);
    const std::string regions = printable(joinedText(s.regions, ", ", &RegionSpec::regionId));
    const std::string policies = joinedText(s.policies, ", ", &PolicySpec::name);
    return "scenario '" + printable(s.name) + "': " + printable(s.job.model.name) + ", " +
           fixedNumber(s.job.tokens / 1e9, 1) + " B tokens on " + std::to_string(s.gpus) + " x " +
           printable(s.cluster.name) + " in " + regions + " from " + formatIsoUtc(s.startUtc) +
           "; policies " + policies;
}

std::string describeStudy(const std::string& path) {
    const StudyDefinition study = loadStudy(path, app::sampleDataDirectory().toStdString() + "/traces");
    std::string axes;
    for (const StudyAxis& axis : study.axes)
        axes += (axes.empty() ? "" : " x ") + axis.key + " (" + std::to_string(axis.values.size()) + ")";
    return "study '" + printable(study.name) + "': " + std::to_string(cellCount(study)) + " cells = " + axes +
           " over '" + printable(study.base.name) + "'";
}

std::string describeForecast(const std::string& path) {
    const ForecastArchive archive = loadForecastArchive(path);
    std::size_t periods = 0;
    for (const ForecastIssue& issue : archive.issues)
        periods += issue.periods.size();
    std::string text = "forecast file (" + archive.format + "), region " +
                       (archive.regionId.empty() ? std::string("not stated") : printable(archive.regionId)) +
                       ", " + std::to_string(archive.issues.size()) + " issues from " +
                       formatIsoUtc(archive.issues.front().issuedUtc) + " to " +
                       formatIsoUtc(archive.issues.back().issuedUtc) + ", " + std::to_string(periods) +
                       " predicted periods";
    for (const std::string& note : archive.notes)
        text += "; " + note;
    return text;
}

std::string describePowerLog(const std::string& path) {
    const PowerLogSummary log = loadPowerLog(path);
    std::string text = "power log (" + log.name + ", " + powerScopeName(log.scope) + " scope): mean " +
                       fixedNumber(log.meanPowerW, 1) + " W per GPU over " + std::to_string(log.samples) +
                       " samples";
    if (log.devices > 0)
        text += ", " + std::to_string(log.devices) + " GPUs";
    for (const std::string& note : log.notes)
        text += "; " + note;
    return text;
}

std::string describe(const std::string& path, bool repair) {
    switch (detectKind(path)) {
    case InputKind::Trace:
        return describeTrace(path, repair);
    case InputKind::Forecast:
        return describeForecast(path);
    case InputKind::PowerLog:
        return describePowerLog(path);
    case InputKind::OperatingPoints:
        return describeOperatingPoints(path);
    case InputKind::Cluster:
        return describeCluster(path);
    case InputKind::Model:
        return describeModel(path);
    case InputKind::Scenario:
        return describeScenario(path);
    case InputKind::Study:
        return describeStudy(path);
    }
    return {};
}

} // namespace

Command makeValidateCommand() {
    Command command;
    command.name = "validate";
    command.summary = "check input files (traces, forecast files, power logs, cluster profiles, models, "
                      "scenarios, studies, "
                      "operating points)";
    command.usage = "validate [--repair] FILE...";
    command.flags = {{"repair", false, false, "",
                      "load traces in repair mode: sort rows, drop exact duplicates, fill gaps of up to 6 "
                      "slots; each repair is listed"}};
    command.details = "Each FILE's kind is detected from its content. A valid file prints one summary line; "
                      "an invalid one\n"
                      "prints file:line:column: what was expected. Exit code 1 when any file is invalid.";
    command.run = [](const CliArguments& args, CommandIo& io) {
        if (args.positionals().empty())
            throw UsageError("no FILE given");
        int invalid = 0;
        for (const std::string& path : args.positionals()) {
            try {
                // Described before anything is printed: a failure must not leave "PATH: " dangling.
                const std::string summary = describe(path, args.has("repair"));
                io.out << path << ": " << summary << '\n';
            } catch (const InputError& error) {
                io.err << error.what() << '\n';
                ++invalid;
            }
        }
        return invalid == 0 ? 0 : 1;
    };
    return command;
}

} // namespace carbon3d::cli
