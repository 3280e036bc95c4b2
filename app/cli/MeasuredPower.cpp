// SPDX-License-Identifier: MIT
#include "cli/MeasuredPower.h"

#include "config/ClusterProfileJson.h"
#include "config/OperatingPointsCsv.h"
#include "config/PowerLogs.h"
#include "domain/FileIdentity.h"
#include "domain/NumberText.h"
#include "domain/OutputFile.h"

namespace carbon3d::cli {

namespace {

// The calibration's GPU power scale at which the model draws `targetW` per GPU for this
// configuration: the model's power rises with the scale (capped at the limit), so bisection finds it; nullopt
// when no scale in the profile's range reaches it.
std::optional<double> scaleMatching(PerfProblem problem, const ParallelConfig& config, double powerLimitW,
                                    double targetW) {
    const auto powerAt = [&](double scale) {
        problem.calibration.gpuPowerScale = scale;
        return estimate(problem, config, powerLimitW).power.gpuAverageW;
    };
    double low = 0.25, high = 4.0; // the range gpu_power_scale accepts
    if (powerAt(low) > targetW || powerAt(high) < targetW)
        return std::nullopt;
    for (int i = 0; i < 60; ++i) {
        const double middle = 0.5 * (low + high);
        (powerAt(middle) < targetW ? low : high) = middle;
    }
    return 0.5 * (low + high);
}

std::string describe(const PowerLogSummary& log) {
    std::string text = fixedNumber(log.meanPowerW, 1) + " W per GPU (" + log.name + ", " +
                       std::to_string(log.samples) + " samples";
    if (log.seconds > 0.0)
        text += " over " + fixedNumber(log.seconds, 0) + " s";
    if (log.devices > 0)
        text += ", " + std::to_string(log.devices) + " GPUs";
    text += ", " + std::string(powerScopeName(log.scope)) + " scope)";
    for (const std::string& note : log.notes)
        text += "\n                " + note;
    return text;
}

} // namespace

std::vector<FlagSpec> measuredPowerFlags() {
    return {
        {"measured-power", true, false, "LOG",
         "a power log (" + powerLogFormatNames() + ") to set beside the model's power"},
        {"write-cluster", true, false, "FILE", "write the cluster profile calibrated to --measured-power"},
        {"measured-tokens-per-s", true, false, "T", "the measured run's throughput, for --points"},
        {"points", true, false, "FILE", "write the measured operating point (CSV) from --measured-power"},
    };
}

void reportMeasuredPower(const CliArguments& args, const ClusterProfile& cluster, const PerfProblem& problem,
                         const ParallelConfig& config, const PerfEstimate& estimate, double powerLimitW,
                         std::ostream& out) {
    const std::optional<std::string> logPath = args.value("measured-power");
    if (!logPath) {
        for (const char* flag : {"write-cluster", "points", "measured-tokens-per-s"})
            if (args.has(flag))
                throw UsageError(std::string("--") + flag + " needs --measured-power LOG");
        return;
    }
    const PowerLogSummary log = loadPowerLog(*logPath);
    out << "measured power  " << describe(log) << '\n';
    if (log.devices > 0 && log.devices != config.gpus())
        out << "                the log measured " << log.devices << " GPUs, the configuration has "
            << config.gpus() << ": their means per GPU are compared\n";
    const double modelW = estimate.power.gpuAverageW;
    out << "model power     " << fixedNumber(modelW, 1)
        << " W per GPU here: measured / model = " << fixedNumber(log.meanPowerW / modelW, 3) << '\n';
    const std::optional<double> scale = scaleMatching(problem, config, powerLimitW, log.meanPowerW);
    if (scale)
        out << "calibration     gpu_power_scale " << fixedNumber(*scale, 3) << " (now "
            << fixedNumber(cluster.calibration.gpuPowerScale, 3)
            << ") makes the model draw the measured power in this configuration; "
            << (args.has("write-cluster") ? "written with --write-cluster" : "--write-cluster FILE writes it")
            << '\n';
    else
        out << "calibration     no gpu_power_scale from 0.25 to 4 reaches the measured power at this power "
               "limit: check the log's scope and the configuration\n";
    const std::vector<std::string> inputs{*logPath};
    if (const std::optional<std::string> clusterOut = args.value("write-cluster")) {
        if (!scale)
            throw UsageError("--write-cluster: no calibration matches the measured power");
        refuseOutputOverInputs(*clusterOut, inputs);
        ClusterProfile calibrated = cluster;
        calibrated.calibration.gpuPowerScale = *scale;
        std::string& source = calibrated.sources["calibration"];
        source += std::string(source.empty() ? "" : " ") + "gpu_power_scale calibrated on " + *logPath +
                  " (" + log.name + "), configuration " + config.label() + ".";
        writeFileAtomically(*clusterOut, toJson(calibrated).dump(2) + "\n",
                            "cannot write the cluster profile");
        out << "wrote           " << *clusterOut << '\n';
    }
    if (const std::optional<std::string> pointsOut = args.value("points")) {
        const std::optional<double> tokens = args.doubleValue("measured-tokens-per-s", 1e-9, 1e15);
        if (!tokens)
            throw UsageError(
                "--points needs --measured-tokens-per-s: the log holds power, not the run's throughput");
        refuseOutputOverInputs(*pointsOut, inputs);
        OperatingPointTable table;
        OperatingPoint& point = table.points.emplace_back();
        point.dp = config.dp;
        point.tp = config.tp;
        point.pp = config.pp;
        point.microBatch = config.microBatch;
        point.throughput = *tokens;
        point.powerW = log.meanPowerW * config.gpus(); // every GPU of the configuration, GPU scope
        writeFileAtomically(*pointsOut, toCsv(table), "cannot write the operating points");
        out << "wrote           " << *pointsOut << " (power_w " << fixedNumber(point.powerW, 1)
            << " W: " << config.gpus() << " GPUs at the measured mean)\n";
    }
}

} // namespace carbon3d::cli
