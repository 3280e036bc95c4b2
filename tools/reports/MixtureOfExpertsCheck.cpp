// SPDX-License-Identifier: MIT
#include "reports/MixtureOfExpertsCheck.h"

#include "config/Presets.h"
#include "perf/ModelMath.h"
#include "reports/NumberFormat.h"
#include "validation/PublishedThroughput.h"

#include <algorithm>

namespace carbon3d::reports {

namespace {

// The presets' search: every mixture-of-experts preset, 1,024 H100s (128 DGX nodes), a global batch of
// 1,024 sequences, fastest first.
constexpr int kPresetGpus = 1024;
constexpr int kPresetGlobalBatch = 1024;

MoePresetSearch searchPreset(const ModelSpec& model, const ClusterProfile& cluster) {
    MoePresetSearch result;
    result.model = model.id;
    result.totalParams = parameterCount(model);
    result.activeParams = activeParameterCount(model);
    result.gpus = kPresetGpus;
    TrainingJob job;
    job.model = model;
    job.globalBatch = kPresetGlobalBatch;
    const PerfProblem problem = makePerfProblem(job, cluster);
    SearchStats stats;
    const std::vector<RankedConfig> top =
        searchConfigs(problem, searchOptionsFor(job, kPresetGpus), 1, &stats);
    result.feasible = stats.evaluated;
    result.enumerated = stats.enumerated;
    result.found = !top.empty();
    if (result.found)
        result.best = top.front();
    return result;
}

// The run's layout as published; where it did not publish its recomputation, the fastest mode that fits
// (and, under full recomputation, the fewest recomputed layers): fastestPublishedVariant, as for the Hopper
// rows.
MoeRunPrediction predictRun(const MoeRun& run, const PerfCalibration& calibration) {
    MoeRunPrediction prediction;
    prediction.run = run;
    ClusterProfile cluster = run.cluster;
    const double overlap = cluster.calibration.expertCommOverlap;
    cluster.calibration = familyCalibration(cluster.calibrationFamily, calibration);
    cluster.calibration.expertCommOverlap = overlap; // the row's stack
    const PerfProblem problem = makePerfProblem(run.job, cluster);
    // Micro-batch and interleave as published.
    const auto best = fastestPublishedVariant(problem, run.config, run.chooseRecompute, false, false);
    if (!best) {
        prediction.config = run.config;
        prediction.estimate = estimate(problem, run.config);
        prediction.reason = infeasibilityText(prediction.estimate.reason);
        return prediction;
    }
    prediction.feasible = true;
    prediction.config = best->config;
    prediction.estimate = best->estimate;
    prediction.predictedTokensPerSPerGpu = prediction.estimate.tokensPerS / run.config.gpus();
    return prediction;
}

} // namespace

MixtureOfExpertsCheck checkMixtureOfExperts(const std::string& dataDirectory,
                                            const PerfCalibration& calibration) {
    MixtureOfExpertsCheck check;
    check.allToAll = fitExpertAllToAll(dataDirectory);
    for (const MoeRun& run : readMoeRuns(dataDirectory))
        check.heldOut.push_back(predictRun(run, calibration));
    check.presetGpus = kPresetGpus;
    check.presetGlobalBatch = kPresetGlobalBatch;
    ClusterProfile cluster = *findClusterPreset("dgx-h100");
    cluster.calibration = familyCalibration(cluster.calibrationFamily, calibration);
    for (const std::string& id : modelPresetIds()) {
        const ModelSpec model = *findModelPreset(id);
        if (model.mixtureOfExperts())
            check.presets.push_back(searchPreset(model, cluster));
    }
    return check;
}

namespace {

// The all-to-all measurements and the efficiencies taken from them.
void renderAllToAll(std::ostream& md, const ExpertAllToAllFit& fit, const PerfCalibration& calibration) {
    md << "\n## Mixture of experts: expert parallelism\n\n"
          "An MoE layer sends each token to the GPUs that hold its experts and back (the dispatch and the "
          "combine, docs/MODEL.md (expert-parallel)). How fast those all-to-alls run is measured, not fitted "
          "on "
          "throughput: DeepEP's normal kernels, DeepSeek's own measurements on H800 "
          "(tests/data/validation/expert_alltoall). Each row's dispatch and combine over the link's nominal "
          "rate; the calibration takes the mean per link: `intra_node_all_to_all_efficiency` = "
       << fixed(fit.intraNodeEfficiency, 4)
       << " and `inter_node_all_to_all_efficiency` = " << fixed(fit.interNodeEfficiency, 4)
       << " (compiled in: " << significant(calibration.intraNodeAllToAllEfficiency, 4) << " and "
       << significant(calibration.interNodeAllToAllEfficiency, 4)
       << "). Over the network a token is counted once per destination node, its sender's own included, "
          "as DeepEP counts it: that is how a rate can pass the card's.\n\n"
          "| kernels | GPU | EP | link | nominal GB/s | dispatch GB/s | combine GB/s | dispatch / nominal | "
          "combine / nominal | used as |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for (const ExpertAllToAllRow& r : fit.rows) {
        md << "| DeepEP " << r.version << " | " << r.gpu << " | " << r.ep << " | "
           << (r.network ? "network" : "NVLink") << " | " << fixed(r.nominalBytesPerS / 1e9, 0) << " | "
           << fixed(r.dispatchBytesPerS / 1e9, 0) << " | " << fixed(r.combineBytesPerS / 1e9, 0) << " | "
           << fixed(r.dispatchEfficiency(), 3) << " | " << fixed(r.combineEfficiency(), 3) << " | "
           << (r.calibration ? "calibration" : "check (not fitted)") << " |\n";
    }
    for (const ExpertAllToAllRow& r : fit.rows) {
        if (r.calibration)
            continue;
        const double mean = (r.dispatchEfficiency() + r.combineEfficiency()) / 2.0;
        const double fitted = r.network ? fit.interNodeEfficiency : fit.intraNodeEfficiency;
        md << "\nThe check (DeepEP " << r.version << " on " << r.gpu << ", EP " << r.ep
           << ": another kernel generation on another GPU) reaches " << fixed(mean, 3)
           << " of its nominal rate on average, " << percent(mean / fitted - 1.0) << " from the fit.";
    }
    md << " Load imbalance is a stated assumption (`expert_load_imbalance` = "
       << significant(calibration.expertLoadImbalance, 3)
       << ", routing balanced), and whether the stack hides the all-to-alls behind compute is a fact of the "
          "stack (`expert_comm_overlap` = "
       << significant(calibration.expertCommOverlap, 3)
       << ": Megatron-Core's all-to-all dispatcher waits for them).\n\n";
}

// The held-out runs, each predicted from its published layout.
void renderHeldOut(std::ostream& md, const std::vector<MoeRunPrediction>& heldOut) {
    md << "### Published runs (held out: never fitted)\n\nEach run predicted from its published layout alone "
          "(tests/data/validation/moe_runs, with the sources and what each row pins): its model preset, "
          "cluster, precision, parallel degrees, batch and, as a fact of its stack, whether it overlaps the "
          "all-to-alls. Where a run did not publish its recomputation the fastest mode that fits is taken. "
          "All "
          "published rows ran with routing balanced or forced to balance, as the default assumes. Tokens per "
          "second per GPU, since the sources count FLOPs in different ways:\n\n"
          "| run | model | GPUs | layout | stack | published | model | model / published | EP comm share |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    for (const MoeRunPrediction& p : heldOut) {
        const MoeRun& r = p.run;
        md << "| " << r.source << " | " << r.job.model.id << " | " << grouped(r.config.gpus()) << " | "
           << (p.feasible ? p.config.label() : r.config.label()) << " " << precisionName(r.job.precision)
           << " | " << r.stack << " | " << fixed(r.measuredTokensPerSPerGpu, 0) << " | ";
        if (!p.feasible) {
            md << "infeasible: " << p.reason << " | - | - |\n";
            continue;
        }
        md << fixed(p.predictedTokensPerSPerGpu, 0) << " | " << fixed(p.ratio(), 3) << " | "
           << percent(p.estimate.time.epCommExposedS / p.estimate.stepTimeS) << " |\n";
    }
    double lowest = 0.0, highest = 0.0;
    for (const MoeRunPrediction& p : heldOut) {
        if (!p.feasible)
            continue;
        lowest = lowest == 0.0 ? p.ratio() : std::min(lowest, p.ratio());
        highest = std::max(highest, p.ratio());
    }
    md << "\nThe model predicts " << fixed(lowest, 2) << " to " << fixed(highest, 2)
       << " times the published throughput: for mixtures of experts it is optimistic, most where the "
          "all-to-all is exposed and takes the largest share of the step. It times the dispatch as DeepEP "
          "runs it (a token crosses to a node once) and charges no kernels for routing, permuting tokens "
          "and the host synchronisation of a dispatch beyond the memory traffic of their activations; a "
          "stack whose all-to-all sends a copy per expert, or runs at a collective's efficiency rather than "
          "DeepEP's, spends more. These rows are held out: nothing was changed to bring them closer. "
          "Comparisons between layouts of one job on one stack (what a carbon-aware schedule chooses "
          "between) rest on the same terms for both; absolute times, energy per token and the share the "
          "all-to-all takes should be read with this error.";
    md << "\n\nDeepSeek-V3's published figure is GPU-hours of the whole pre-training per trillion tokens "
          "(1e12 / (180,000 x 3,600) tokens per second per GPU), so it includes the batch-size ramp and "
          "whatever the run lost to failures; the model's is the steady state. Its pipeline is DualPipe, "
          "whose bubble is smaller than the 1F1B bubble the model charges, and it recomputes less than the "
          "full recomputation the model needs to fit it.\n\n";
}

// The fastest configuration the search finds for each preset.
void renderPresets(std::ostream& md, const MixtureOfExpertsCheck& check) {
    md << "### What the search makes of each preset\n\nThe fastest configuration on "
       << grouped(check.presetGpus) << " GPUs of the DGX H100 preset at a global batch of "
       << grouped(check.presetGlobalBatch)
       << " sequences of each preset's length (`carbon3d-cli search --model ID --cluster dgx-h100 --gpus "
       << check.presetGpus << " --global-batch " << check.presetGlobalBatch
       << "`), expert parallelism searched with the rest:\n\n"
          "| model | parameters | active | feasible / enumerated | fastest | step s | tokens/s per GPU | MFU "
          "| EP comm share |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    for (const MoePresetSearch& p : check.presets) {
        md << "| " << p.model << " | " << fixed(p.totalParams / 1e9, 1) << " B | "
           << fixed(p.activeParams / 1e9, 1) << " B | " << grouped(p.feasible) << " / "
           << grouped(p.enumerated) << " | ";
        if (!p.found) {
            md << "none | - | - | - | - |\n";
            continue;
        }
        const PerfEstimate& e = p.best.estimate;
        md << p.best.config.label() << " | " << fixed(e.stepTimeS, 2) << " | "
           << fixed(e.tokensPerS / p.gpus, 0) << " | " << fixed(e.mfu, 3) << " | "
           << percent(e.time.epCommExposedS / e.stepTimeS) << " |\n";
    }
}

} // namespace

void renderMixtureOfExperts(std::ostream& md, const MixtureOfExpertsCheck& check,
                            const PerfCalibration& calibration) {
    renderAllToAll(md, check.allToAll, calibration);
    renderHeldOut(md, check.heldOut);
    renderPresets(md, check);
}

} // namespace carbon3d::reports
