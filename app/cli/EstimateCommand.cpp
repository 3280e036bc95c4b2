// SPDX-License-Identifier: MIT
#include "cli/Commands.h"
#include "cli/MeasuredPower.h"
#include "cli/PerfCli.h"
#include "perf/ConfigSearch.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <string>

namespace carbon3d::cli {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

Recompute recomputeFromArgs(const CliArguments& args) {
    const std::string text = args.value("recompute").value_or("full");
    if (const auto recompute = parseRecompute(text))
        return *recompute;
    throw UsageError("--recompute expects " + recomputeModeNames() + ", found '" + text + "'");
}

void printText(std::ostream& out, const ClusterProfile& cluster, const PerfProblem& problem,
               const ParallelConfig& c, const PerfEstimate& e, bool bChosen, bool vChosen) {
    out << std::fixed << std::setprecision(3);
    out << "configuration   " << c.label() << (bChosen ? "  (micro-batch chosen: fastest)" : "")
        << (vChosen ? "  (interleave chosen: fastest)" : "") << '\n';
    out << "feasible        " << (e.feasible ? "yes" : "no")
        << (e.feasible ? "" : std::string(" - ") + infeasibilityText(e.reason)) << '\n';
    out << "attention       "
        << (problem.flashAttention ? "flash (no stored scores; causal blocks skipped)"
                                   : "materialized (scores and softmax stored)")
        << '\n';
    out << "calibration     " << describeCalibration(cluster.calibrationFamily, cluster.calibration) << '\n';
    if (c.gpus() % problem.gpusPerNode != 0)
        out << "nodes           " << c.gpus() << " GPUs fill " << c.gpus() / problem.gpusPerNode
            << " nodes and part of another (" << problem.gpusPerNode << " GPUs per node)\n";
    if (c.pp > 1 && e.stages.first > 0)
        out << "stage split     " << e.stages.first << " layers on the first stage"
            << (c.pp > 2 ? ", up to " + std::to_string(e.stages.middle) + " on the middle ones" : "") << ", "
            << e.stages.last << " on the last" << (e.stages.even() ? " (even)" : "") << '\n';
    if (problem.mixtureOfExperts())
        out << "experts         " << problem.experts << " routed, " << problem.expertsPerToken
            << " per token: " << problem.experts / std::max(1, c.ep) << " per GPU (ep " << c.ep << ", etp "
            << c.expertTp << "), each on " << c.expertDataParallel() << " expert-data-parallel replicas\n";
    out << "weights         "
        << (problem.weightBytes == 1.0
                ? std::string("1 byte per parameter (FP8 weights)")
                : std::to_string(static_cast<int>(problem.weightBytes)) + " bytes per parameter")
        << '\n';
    out << "gradients       " << static_cast<int>(problem.gradientBytes) << " bytes per parameter"
        << (problem.gradientBytes == 2.0 ? " (16-bit buffer)" : "") << '\n';
    out << "memory/GPU      " << e.memory.totalBytes() / kGiB << " GiB (weights "
        << e.memory.weightsBytes / kGiB << ", grads " << e.memory.gradientsBytes / kGiB << ", optimizer "
        << e.memory.optimizerBytes / kGiB << ", activations " << e.memory.activationsBytes / kGiB
        << ", reserve " << e.memory.reserveBytes / kGiB << ")\n";
    out << "step time       " << e.stepTimeS << " s (";
    const char* separator = "";
    for (const TimeBreakdownField& field : timeBreakdownFields()) {
        if ((field.member == &TimeBreakdown::cpCommExposedS && c.cp <= 1) ||
            (field.member == &TimeBreakdown::epCommExposedS && !problem.mixtureOfExperts()))
            continue; // no context parallelism or no experts, nothing to say
        out << separator << field.label << ' ' << e.time.*field.member;
        separator = ", ";
    }
    out << ")\n";
    out << std::setprecision(1) << "throughput      " << e.tokensPerS << " tokens/s\n";
    out << "TFLOP/s per GPU " << e.modelFlopsPerGpu / 1e12 << " model (MFU " << std::setprecision(3) << e.mfu
        << "), " << std::setprecision(1) << e.hardwareFlopsPerGpu / 1e12
        << " hardware (with recomputation)\n";
    out << "power           " << e.power.gpuAverageW << " W per GPU (compute phase " << e.power.computeW
        << " W) at limit " << e.powerLimit.limitW << " W; IT " << e.power.itPowerW << " W (node overhead "
        << e.power.nodeOverheadW << " W); facility " << e.power.facilityPowerW << " W\n";
    // Which of the GPU's powers rest on a measurement of the board (docs/MODEL.md#phase-powers).
    out << "waiting, parked " << e.power.commW << " W while a GPU waits ("
        << (problem.waitW > 0.0 ? "the cluster's measured wait_w"
                                : "the power model's communication phase: no wait_w measured")
        << "), " << e.power.idleW << " W parked (the cluster's idle_w)\n";
    out << std::setprecision(4) << "energy/token    " << e.energyPerTokenJ << " J (facility)\n";
}

std::vector<FlagSpec> estimateFlags() {
    std::vector<FlagSpec> flags = perfModelFlags();
    const std::vector<FlagSpec> own{
        {"gpus", true, false, "N", "GPUs (= d x t x p x cp)"},
        {"tp", true, false, "T", "tensor-parallel degree"},
        {"pp", true, false, "P", "pipeline-parallel degree"},
        {"dp", true, false, "D", "data-parallel degree (default N / (T P C))"},
        {"ep", true, false, "E",
         "expert-parallel degree of a mixture of experts: its routed experts split over E of the stage's "
         "d x t x cp GPUs (default 1)"},
        {"expert-tp", true, false, "ET",
         "expert tensor-parallel degree: each expert split over ET GPUs (default 1)"},
        {"micro-batch", true, false, "b", "micro-batch size, sequences (default: fastest feasible)"},
        {"global-batch", true, false, "B", "global batch, sequences"},
        {"interleave", true, false, "v", "virtual pipeline stages per GPU (default: fastest feasible)"},
        {"recompute", true, false, recomputeModeNames(), "activation recomputation (default full)"},
        {"recompute-layers", true, false, "N",
         "full recomputation of only the first N layers of each model chunk (Megatron's block method)"},
        {"sequence-parallel", false, false, "", "sequence parallelism (needs T > 1)"},
        {"distributed-optimizer", false, false, "", "shard optimizer states over data parallelism"},
        {"fsdp", false, false, "", "FSDP (ZeRO-3): shard weights and gradients as well, gathered per layer"},
    };
    flags.insert(flags.end(), own.begin(), own.end());
    const std::vector<FlagSpec> measured = measuredPowerFlags();
    flags.insert(flags.end(), measured.begin(), measured.end());
    return flags;
}

// The t, p, cp and d degrees from --gpus, --tp, --pp, --cp and --dp, which must multiply to --gpus; the
// expert layout from --ep and --expert-tp (they fold over those GPUs).
ParallelConfig layoutFromArgs(const CliArguments& args, int contextParallel) {
    const auto gpus = args.intValue("gpus", 1, 10000000);
    const auto tp = args.intValue("tp", 1, 100000);
    const auto pp = args.intValue("pp", 1, 100000);
    if (!gpus || !tp || !pp)
        throw UsageError("--gpus, --tp and --pp are required");
    const long long perReplica = static_cast<long long>(*tp) * *pp * contextParallel;
    if (*gpus % perReplica != 0)
        throw UsageError("--gpus must be a multiple of --tp x --pp x --cp");
    ParallelConfig c;
    c.tp = *tp;
    c.pp = *pp;
    c.cp = contextParallel;
    c.dp = args.intValue("dp", 1, 10000000).value_or(static_cast<int>(*gpus / perReplica));
    if (c.gpus() != *gpus)
        throw UsageError("--dp x --tp x --pp x --cp must equal --gpus");
    c.ep = args.intValue("ep", 1, 100000).value_or(1);
    c.expertTp = args.intValue("expert-tp", 1, 100000).value_or(1);
    return c;
}

// --recompute, --recompute-layers, --sequence-parallel, --distributed-optimizer and --fsdp: what each GPU
// keeps in memory.
void applyMemoryFlags(const CliArguments& args, ParallelConfig& c) {
    c.recompute = recomputeFromArgs(args);
    if (const auto layers = args.intValue("recompute-layers", 1, 100000)) {
        if (c.recompute != Recompute::Full)
            throw UsageError("--recompute-layers needs --recompute full (it limits full recomputation to a "
                             "block of layers)");
        c.recomputeLayers = *layers;
    }
    c.sequenceParallel = args.has("sequence-parallel");
    c.distributedOptimizer = args.has("distributed-optimizer");
    c.fullySharded = args.has("fsdp");
}

// The reason on err, with the numbers that make it so where there are any.
void reportInfeasible(std::ostream& err, const ClusterProfile& cluster, const ParallelConfig& c,
                      const PerfEstimate& e) {
    err << "estimate: configuration " << c.label() << " is infeasible: " << infeasibilityText(e.reason);
    if (e.reason == Infeasibility::OutOfMemory)
        err << " (needs " << e.memory.totalBytes() / kGiB << " GiB of "
            << cluster.accelerator.memoryBytes / kGiB << " GiB)";
    if (e.reason == Infeasibility::ExpertsNotDivisible)
        err << " (ep = " << c.ep << ", etp = " << c.expertTp << ", d x t x cp = " << c.dp * c.tp * c.cp
            << ")";
    if (e.reason == Infeasibility::TpCrossesNodes)
        err << " (t = " << c.tp << ", " << cluster.gpusPerNode
            << " GPUs per node; --cross-node-tp prices a group that straddles nodes)";
    err << '\n';
}

int runEstimate(const CliArguments& args, CommandIo& io) {
    PerfModelInputs inputs = perfModelInputsFromArgs(args);
    TrainingJob& job = inputs.job;
    const ClusterProfile& cluster = inputs.cluster;
    const double powerLimit = inputs.powerLimitW;
    ParallelConfig c = layoutFromArgs(args, inputs.contextParallel);
    const auto micro = args.intValue("micro-batch", 1, 1000000);
    const auto interleave = args.intValue("interleave", 1, 100000);
    c.microBatch = micro.value_or(1);
    c.interleave = interleave.value_or(1);
    applyMemoryFlags(args, c);
    job.globalBatch = args.intValue("global-batch", 1, 100000000).value_or(8 * c.pp * c.dp);

    const PerfProblem problem = inputs.problem();
    PerfEstimate e = estimate(problem, c, powerLimit);
    // Set only when a feasible variant was found: an infeasible layout is shown as asked, b = v = 1.
    bool variantChosen = false;
    if (!micro || !interleave) {
        if (const auto best =
                fastestVariant(problem, c, micro.has_value(), interleave.has_value(), powerLimit)) {
            c = best->config;
            e = best->estimate;
            variantChosen = true;
        }
    }
    const bool microBatchChosen = variantChosen && !micro;
    // Without a pipeline there is nothing to interleave: v = 1 is not a choice then.
    const bool interleaveChosen = variantChosen && !interleave && c.pp > 1;
    if (args.has("json") && args.has("measured-power"))
        throw UsageError("--measured-power prints its comparison as text: leave out --json");
    if (args.has("json"))
        io.out << estimateToJson(problem, c, e, microBatchChosen, interleaveChosen).dump(2) << '\n';
    else
        printText(io.out, cluster, problem, c, e, microBatchChosen, interleaveChosen);
    if (e.feasible)
        reportMeasuredPower(args, cluster, problem, c, e, powerLimit, io.out);
    if (!e.feasible) {
        reportInfeasible(io.err, cluster, c, e);
        return 1;
    }
    return 0;
}

} // namespace

Command makeEstimateCommand() {
    Command command;
    command.name = "estimate";
    command.summary = "memory, step time, FLOP/s and power of one 3D-parallel configuration";
    command.usage = "estimate --model PRESET|FILE | --layers L --hidden H --heads A --vocab V --seq-len S "
                    "--cluster PRESET|FILE --gpus N --tp T --pp P [--cp C] [options]";
    command.details =
        "N = d x t x p x cp. The global batch defaults to 8 x p x d sequences. Without --micro-batch or "
        "--interleave the fastest feasible value is chosen and reported. The layers need not divide by p: "
        "the stage split is printed. t must divide the GPUs per node unless --cross-node-tp is given. "
        "Exit code 1 when the configuration is infeasible.";
    command.flags = estimateFlags();
    command.run = runEstimate;
    return command;
}

} // namespace carbon3d::cli
