// SPDX-License-Identifier: MIT
#include "validation/MoeRuns.h"

#include "config/ClusterProfileJson.h"
#include "config/Presets.h"
#include "domain/InputError.h"
#include "domain/Precision.h"
#include "validation/CsvTable.h"

namespace carbon3d {

namespace {

constexpr double kSecondsPerHour = 3600.0;

// The published figure as tokens per second per GPU: the units runs.csv allows.
double tokensPerSPerGpu(const Csv& csv, size_t row, int unitColumn, double value) {
    const std::string& unit = csv.text(row, unitColumn);
    if (unit == "tokens_per_s_per_gpu")
        return value;
    if (unit == "gpu_hours_per_trillion_tokens" && value > 0.0)
        return 1e12 / (value * kSecondsPerHour);
    throw InputError(csv.file, csv.lines[row], unitColumn + 1,
                     "expected 'tokens_per_s_per_gpu' or 'gpu_hours_per_trillion_tokens' (above 0), found '" +
                         unit + "'");
}

ClusterProfile runCluster(const Csv& csv, size_t row, int column, const std::string& folder) {
    const std::string& name = csv.text(row, column);
    if (std::optional<ClusterProfile> preset = findClusterPreset(name))
        return *preset;
    if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos)
        throw InputError(csv.file, csv.lines[row], column + 1,
                         "expected a cluster preset id or a profile file in " + folder + ", found '" + name +
                             "'");
    return loadClusterProfile(folder + "/" + name);
}

} // namespace

std::vector<MoeRun> readMoeRuns(const std::string& dataDir) {
    const std::string folder = dataDir + "/moe_runs";
    const Csv csv = readCsv(folder + "/runs.csv");
    const int source = csv.column("source_id"), model = csv.column("model"), cluster = csv.column("cluster");
    const int gpus = csv.column("gpus"), precision = csv.column("precision");
    const int tp = csv.column("tp"), pp = csv.column("pp"), ep = csv.column("ep"),
              etp = csv.column("expert_tp");
    const int cp = csv.column("cp"), vp = csv.column("vp"), dp = csv.column("dp");
    const int microBatch = csv.column("micro_batch"), globalBatch = csv.column("global_batch");
    const int recompute = csv.column("recompute"), overlap = csv.column("expert_comm_overlap");
    const int measured = csv.column("measured"), unit = csv.column("measured_unit"),
              stack = csv.column("stack");
    std::vector<MoeRun> runs;
    for (size_t i = 0; i < csv.rows.size(); ++i) {
        MoeRun run;
        run.line = csv.lines[i];
        run.source = csv.text(i, source);
        run.stack = csv.text(i, stack);
        const std::optional<ModelSpec> spec = findModelPreset(csv.text(i, model));
        if (!spec || !spec->mixtureOfExperts())
            throw InputError(csv.file, run.line, model + 1,
                             "expected a mixture-of-experts model preset, found '" + csv.text(i, model) +
                                 "'");
        run.job.model = *spec;
        const auto parsed = parsePrecision(csv.text(i, precision));
        if (!parsed)
            throw InputError(csv.file, run.line, precision + 1, "expected a precision such as bf16 or fp8");
        run.job.precision = *parsed;
        run.job.attention = AttentionKernel::Flash;
        run.job.globalBatch = csv.integer(i, globalBatch);
        run.cluster = runCluster(csv, i, cluster, folder);
        run.cluster.calibration.expertCommOverlap = csv.number(i, overlap);
        ParallelConfig& c = run.config;
        c.tp = csv.integer(i, tp);
        c.pp = csv.integer(i, pp);
        c.ep = csv.integer(i, ep);
        c.expertTp = csv.integer(i, etp);
        c.cp = csv.integer(i, cp);
        c.interleave = csv.integer(i, vp);
        c.dp = csv.integer(i, dp);
        c.microBatch = csv.integer(i, microBatch);
        if (c.gpus() != csv.integer(i, gpus))
            throw InputError(csv.file, run.line, gpus + 1, "expected gpus = dp x tp x pp x cp");
        c.sequenceParallel = c.tp > 1;
        c.distributedOptimizer = true;
        run.chooseRecompute = csv.text(i, recompute).empty();
        if (!run.chooseRecompute) {
            const auto mode = parseRecompute(csv.text(i, recompute));
            if (!mode)
                throw InputError(csv.file, run.line, recompute + 1,
                                 "expected " + recomputeModeNames() + " or nothing");
            c.recompute = *mode;
        }
        run.measured = csv.number(i, measured);
        run.measuredUnit = csv.text(i, unit);
        run.measuredTokensPerSPerGpu = tokensPerSPerGpu(csv, i, unit, run.measured);
        runs.push_back(run);
    }
    return runs;
}

} // namespace carbon3d
