// SPDX-License-Identifier: MIT
#include "engine/policies/EadtPolicy.h"

#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "domain/Precision.h"
#include "engine/PolicyRegistry.h"
#include "perf/ExecutionMenuBuilder.h"
#include "perf/Goodput.h"
#include "perf/ModelMath.h"

#include <utility>

namespace carbon3d {

double rateWithCodec(const ExecutionOption& option, double parameters, double tokensPerStep,
                     double hbmBytesPerS, double codecBytesPerParam, double expertParameters) {
    if (option.config.dp <= 1 || option.workPerSecond <= 0.0)
        return option.workPerSecond;
    const ParallelConfig& c = option.config;
    const double shardElements =
        parameters / (c.tp * c.pp) + expertParameters / (static_cast<double>(c.ep) * c.expertTp * c.pp);
    const double codecS = shardElements * codecBytesPerParam / hbmBytesPerS;
    return tokensPerStep / (tokensPerStep / option.workPerSecond + codecS);
}

ExecutionMenu eadtMenu(const Scenario& scenario, const EadtParameters& p) {
    TrainingJob job = scenario.job;
    ClusterProfile cluster = scenario.cluster;
    if (p.arithmeticPrecision != "job")
        job.precision = *parsePrecision(p.arithmeticPrecision);
    const double transferBytes = p.transferPrecision == "job"
                                     ? cluster.calibration.dpGradientBytes
                                     : bytesPerElement(*parsePrecision(p.transferPrecision));
    cluster.calibration.dpGradientBytes = transferBytes / p.compressionRatio;
    ExecutionMenu menu = buildExecutionMenu(job, cluster, menuOptionsFor(scenario.modelling, scenario.gpus));
    if (menu.empty())
        throw InputError(scenario.sourceFile.empty() ? std::string("scenario") : scenario.sourceFile, 0, 0,
                         std::string("eadt: no configuration fits with arithmetic precision ") +
                             precisionName(job.precision) + " on " + cluster.name +
                             " (unsupported precision or memory): choose another arithmetic_precision");
    if (p.compressionRatio > 1.0) {
        const double experts = routedExpertParameterCount(job.model);
        const double parameters = parameterCount(job.model) - experts;
        const double tokensPerStep = static_cast<double>(job.globalBatch) * job.model.seqLen;
        for (ExecutionOption& option : menu)
            option.workPerSecond =
                rateWithCodec(option, parameters, tokensPerStep, cluster.accelerator.hbmBytesPerS,
                              p.codecBytesPerParam, experts);
    }
    // The same long-run losses as the scenario's own menu (buildScenarioMenu).
    applyGoodput(menu, scenario.modelling, cluster);
    return menu;
}

EadtPolicy::EadtPolicy(EadtParameters parameters, std::unique_ptr<Policy> inner)
    : m_p(std::move(parameters))
    , m_inner(std::move(inner)) {}

std::optional<SimulationInput> EadtPolicy::adaptInput(const InputAdaptation& adaptation,
                                                      const SimulationInput& input) {
    if (adaptation.measuredMenu) {
        m_warnings.emplace_back("eadt: the menu is measured (operating points), so the communication levers "
                                "cannot be applied; the inner policy ran on the measured menu unchanged");
        return std::nullopt;
    }
    SimulationInput changed = input;
    changed.menu = eadtMenu(adaptation.scenario, m_p);
    changed.totalWork = input.totalWork * (1.0 + m_p.extraStepsFraction);
    return changed;
}

std::vector<std::string> EadtPolicy::warnings() const {
    std::vector<std::string> all = m_inner->warnings();
    all.insert(all.end(), m_warnings.begin(), m_warnings.end());
    return all;
}

std::map<std::string, std::string> EadtPolicy::options() const {
    // Numbers in the shortest text that reads back to the same value, whatever the locale.
    std::map<std::string, std::string> result{
        {"compression_ratio", shortestNumber(m_p.compressionRatio)},
        {"transfer_precision", m_p.transferPrecision},
        {"arithmetic_precision", m_p.arithmeticPrecision},
        {"codec_bytes_per_param", shortestNumber(m_p.codecBytesPerParam)},
        {"extra_steps", shortestNumber(m_p.extraStepsFraction)},
        {"inner", m_p.innerName}};
    for (const auto& [key, value] : m_inner->options())
        result["inner." + key] = value;
    return result;
}

PolicyInfo eadtPolicyInfo() {
    const std::vector<std::string> precisions{"fp32", "tf32", "fp16", "bf16", "fp8", "job"};
    PolicyInfo info{
        "eadt",
        "Communication-efficient data parallelism: gradient compression (with codec cost), transfer and "
        "arithmetic precision, a convergence penalty as extra work, applied to the performance model's "
        "menu; a carbon-aware policy schedules the changed job.",
        "EADT (Cheng, Sun, Turner; docs/MODEL.md 9.6); levers applied to the run's input (adaptInput)",
        {innerPolicyOption(
             "inner", "dynamic-3d",
             "single-region policy scheduling the changed menu; its options as inner.KEY=VALUE"),
         numberOption("compression_ratio", "10", 1, 1e4,
                      "gradient all-reduce bytes divided by r (1: no compression, no codec)"),
         choiceOption("transfer_precision", "fp16", precisions,
                      "all-reduce element type: fp32 | fp16 | bf16 | fp8 | job (calibration)"),
         choiceOption("arithmetic_precision", "job", precisions,
                      "matrix-unit precision: fp32 | tf32 | fp16 | bf16 | fp8 | job"),
         numberOption("codec_bytes_per_param", "16", 0, 1e4,
                      "HBM bytes per local gradient element to encode + decode, B"),
         numberOption("extra_steps", "0.05", 0, 1,
                      "convergence penalty: extra work as a fraction of the job (assumed)")},
        {},
        {0xCC79A7, LineDash::Dashed, PlotMarker::PlusCircle},
        [](const PolicyOptions& o) {
            EadtParameters p;
            p.innerName = o.text("inner");
            p.compressionRatio = o.number("compression_ratio");
            p.codecBytesPerParam = o.number("codec_bytes_per_param");
            p.extraStepsFraction = o.number("extra_steps");
            p.transferPrecision = o.text("transfer_precision");
            p.arithmeticPrecision = o.text("arithmetic_precision");
            return std::make_unique<EadtPolicy>(p, makeInnerPolicy("eadt", o, false));
        }};
    info.traits.wrapsPolicy = true;
    info.traits.changesJobOrMenu = true;
    return info;
}

} // namespace carbon3d
