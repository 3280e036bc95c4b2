// SPDX-License-Identifier: MIT
#include "cli/Commands.h"
#include "cli/PerfCli.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "perf/ConfigSearch.h"

#include <iomanip>
#include <ostream>

namespace carbon3d::cli {

namespace {

std::vector<FlagSpec> searchFlags() {
    std::vector<FlagSpec> flags = perfModelFlags();
    const std::vector<FlagSpec> own{
        {"gpus", true, false, "N", "GPUs available (configurations use up to N)"},
        {"global-batch", true, false, "B", "global batch, sequences"},
        {"objective", true, false, "time|energy|carbon", "ranking objective (default time)"},
        {"ci", true, false, "G", "carbon intensity for --objective carbon, gCO2eq/kWh"},
        {"top", true, false, "K", "how many to print (default 10)"},
        {"pareto", false, false, "", "print the (facility power, throughput) frontier across GPU counts"},
        {"fsdp", false, false, "",
         "also offer FSDP (ZeRO-3: weights and gradients sharded, gathered per layer)"},
        {"no-interleave", false, false, "",
         "plain 1F1B only (v = 1): the stack has no interleaved schedule (DeepSpeed's pipeline engine)"},
    };
    flags.insert(flags.end(), own.begin(), own.end());
    return flags;
}

SearchObjective parseObjective(const std::string& objective) {
    if (objective == "time")
        return SearchObjective::Time;
    if (objective == "energy")
        return SearchObjective::Energy;
    if (objective == "carbon")
        return SearchObjective::Carbon;
    throw UsageError("--objective expects time, energy or carbon, found '" + objective + "'");
}

void printSearchJson(std::ostream& out, const PerfProblem& problem, const SearchOptions& options, bool pareto,
                     const SearchStats& stats, const std::vector<RankedConfig>& results) {
    JsonValue root = JsonValue::makeObject();
    root.insert("objective", JsonValue::makeString(searchObjectiveName(options.objective)));
    root.insert("pareto", JsonValue::makeBool(pareto));
    root.insert("enumerated", JsonValue::makeNumber(static_cast<double>(stats.enumerated)));
    root.insert("feasible", JsonValue::makeNumber(static_cast<double>(stats.evaluated)));
    JsonValue list = JsonValue::makeArray();
    for (const RankedConfig& r : results) {
        JsonValue item = estimateToJson(problem, r.config, r.estimate, false, false);
        item.insert("gpus", JsonValue::makeNumber(r.config.gpus()));
        item.insert("objective_value", JsonValue::makeNumber(r.objective));
        list.append(item);
    }
    root.insert("configurations", list);
    out << root.dump(2) << '\n';
}

// `ordering` names how the rows are ranked: "Pareto frontier" or "ranked by OBJECTIVE".
void printSearchTable(std::ostream& out, const std::string& ordering, const SearchStats& stats,
                      const std::vector<RankedConfig>& results) {
    out << stats.evaluated << " feasible of " << stats.enumerated << " configurations; " << ordering << "\n";
    out << "  gpus  configuration                      step_s   tokens/s  MFU    GiB/GPU  facility_kW "
           " J/token\n";
    for (const RankedConfig& r : results) {
        out << std::setw(6) << r.config.gpus() << "  " << std::left << std::setw(33) << r.config.label()
            << std::right << std::fixed << std::setprecision(3) << std::setw(8) << r.estimate.stepTimeS
            << std::setprecision(0) << std::setw(11) << r.estimate.tokensPerS << std::setprecision(3)
            << std::setw(7) << r.estimate.mfu << std::setprecision(1) << std::setw(9)
            << r.estimate.memory.totalBytes() / (1024.0 * 1024.0 * 1024.0) << std::setw(13)
            << r.estimate.power.facilityPowerW / 1000.0 << std::setprecision(4) << std::setw(9)
            << r.estimate.energyPerTokenJ << '\n';
    }
}

// How much more energy a token costs in the fastest configuration than in the most efficient one: what
// reshaping can save per token at most (docs/MODEL.md, "Does reshaping pay?"), over every feasible
// configuration, not only the rows shown.
void printEnergySpread(std::ostream& out, const PerfProblem& problem, SearchOptions options) {
    options.objective = SearchObjective::Time;
    const std::vector<RankedConfig> fastest = searchConfigs(problem, options, 1, nullptr);
    options.objective = SearchObjective::Energy;
    const std::vector<RankedConfig> leanest = searchConfigs(problem, options, 1, nullptr);
    if (fastest.empty() || leanest.empty())
        return;
    const double full = fastest.front().estimate.energyPerTokenJ;
    const double least = leanest.front().estimate.energyPerTokenJ;
    out << "energy per token: the fastest configuration (" << fastest.front().config.shapeLabel() << ", "
        << fastest.front().config.gpus() << " GPUs) " << fixedNumber(full, 4) << " J, the most efficient ("
        << leanest.front().config.shapeLabel() << ", " << leanest.front().config.gpus() << " GPUs) "
        << fixedNumber(least, 4) << " J: full size spends " << fixedNumber(100.0 * (full / least - 1.0), 1)
        << " % more per token, the most reshaping can save before the grid's swings (active GPUs only; "
           "`simulate` says who pays for parked ones)\n";
}

int runSearch(const CliArguments& args, CommandIo& io) {
    PerfModelInputs inputs = perfModelInputsFromArgs(args);
    TrainingJob& job = inputs.job;
    const auto gpus = args.intValue("gpus", 1, 10000000);
    const auto batch = args.intValue("global-batch", 1, 100000000);
    if (!gpus || !batch)
        throw UsageError("--gpus and --global-batch are required");
    job.globalBatch = *batch;
    job.contextParallel = inputs.contextParallel;
    job.fsdp = args.has("fsdp");
    job.interleave = !args.has("no-interleave");
    SearchOptions options = searchOptionsFor(job, *gpus);
    options.powerLimitW = inputs.powerLimitW;
    const std::string objective = args.value("objective").value_or("time");
    options.objective = parseObjective(objective);
    const auto ci = args.doubleValue("ci", 0.0, 10000.0);
    if (options.objective == SearchObjective::Carbon && !ci)
        throw UsageError("--objective carbon needs --ci G (gCO2eq/kWh)");
    options.ciGPerKwh = ci.value_or(0.0);
    const int top = args.intValue("top", 1, 1000000).value_or(10);

    const PerfProblem problem = inputs.problem();
    SearchStats stats;
    const bool pareto = args.has("pareto");
    const std::vector<RankedConfig> results =
        pareto ? paretoFrontier(problem, options, &stats) : searchConfigs(problem, options, top, &stats);
    if (results.empty()) {
        io.err << "search: no feasible configuration of " << job.model.layers << " layers, hidden "
               << job.model.hidden << " on up to " << *gpus << " GPUs with global batch " << *batch << ": "
               << nothingFeasibleReason(stats) << '\n';
        return 1;
    }
    if (args.has("json"))
        printSearchJson(io.out, problem, options, pareto, stats, results);
    else {
        printSearchTable(io.out, pareto ? "Pareto frontier" : "ranked by " + objective, stats, results);
        printEnergySpread(io.out, problem, options);
    }
    return 0;
}

} // namespace

Command makeSearchCommand() {
    Command command;
    command.name = "search";
    command.summary =
        "rank every feasible 3D-parallel configuration, or the power/throughput Pareto frontier";
    command.usage =
        "search --model PRESET|FILE | --layers L ... --cluster PRESET|FILE --gpus N --global-batch B "
        "[--objective time|energy|carbon --ci G] [--top K] [--pareto] [--json]";
    command.details =
        "Enumerates configurations on up to N GPUs: t dividing heads, KV heads, hidden and FFN "
        "and the GPUs per node (up to 2 x GPUs per node with --cross-node-tp); p dividing the "
        "layers or the layers + 2 (the embedding and loss as a layer each); cp as --cp gives "
        "(default 1); d dividing B; b dividing B/d; v giving equal model chunks; recompute "
        "none/selective/full, and a block of the fewest layers per chunk that fit where only "
        "recomputation fits; sequence parallelism with t > 1; distributed optimizer off/on, and "
        "with --fsdp FSDP too (d x cp > 1); the interleave v from 1 up, or 1 only with --no-interleave. "
        "--pareto prints, for every GPU count, the "
        "best configuration by the objective, kept when it is faster than every cheaper "
        "(facility power) one.";
    command.flags = searchFlags();
    command.run = runSearch;
    return command;
}

} // namespace carbon3d::cli
