// SPDX-License-Identifier: MIT
#include "perf/ConfigSearch.h"

#include <algorithm>

namespace carbon3d {

const char* searchObjectiveName(SearchObjective objective) {
    switch (objective) {
    case SearchObjective::Time:
        return "time";
    case SearchObjective::Energy:
        return "energy";
    case SearchObjective::Carbon:
        return "carbon";
    }
    return "?";
}

double objectiveValue(const PerfEstimate& e, SearchObjective objective, double ciGPerKwh) {
    switch (objective) {
    case SearchObjective::Time:
        return 1.0 / e.tokensPerS;
    case SearchObjective::Energy:
        return e.energyPerTokenJ;
    case SearchObjective::Carbon:
        return e.energyPerTokenJ * ciGPerKwh / 3.6e6 + e.embodiedGPerToken;
    }
    return 0.0;
}

std::string nothingFeasibleReason(const SearchStats& stats) {
    if (stats.enumerated == 0)
        return "no (d, t, p) divides the GPUs, the global batch and the model's heads and layers";
    const auto commonest = std::max_element(stats.refused.begin(), stats.refused.end());
    const auto reason = static_cast<Infeasibility>(commonest - stats.refused.begin());
    const std::string of = std::to_string(stats.enumerated) + " well-formed configurations";
    return std::string(infeasibilityText(reason)) +
           (*commonest == stats.enumerated ? " (all " + of + ")"
                                           : " (" + std::to_string(*commonest) + " of " + of + ")");
}

SearchOptions searchOptionsFor(const TrainingJob& job, int maxGpus) {
    SearchOptions options;
    options.maxGpus = maxGpus;
    options.contextParallel = job.contextParallel;
    options.offerFsdp = job.fsdp;
    options.offerInterleave = job.interleave;
    return options;
}

PerfProblem withGlobalBatch(PerfProblem p, int globalBatch) {
    const double ratio = static_cast<double>(globalBatch) / std::max(1, p.globalBatch);
    p.globalBatch = globalBatch;
    p.tokensPerIteration *= ratio;
    p.forwardFlopsPerIteration *= ratio;
    p.modelFlopsPerIteration *= ratio;
    return p;
}

std::vector<RankedConfig> searchConfigs(const PerfProblem& problem, const SearchOptions& options, int topK,
                                        SearchStats* stats) {
    std::vector<RankedConfig> best;
    if (topK <= 0)
        return best;
    best.reserve(static_cast<size_t>(topK) + 1);
    auto worse = [](const RankedConfig& a, const RankedConfig& b) { return a.objective < b.objective; };
    // A max-heap of the K best so far: the root is the worst kept, replaced when something better comes.
    forEachFeasibleConfig(
        problem, options,
        [&](const ParallelConfig& c, const PerfEstimate& e) {
            const double value = objectiveValue(e, options.objective, options.ciGPerKwh);
            if (static_cast<int>(best.size()) == topK && value >= best.front().objective)
                return;
            best.push_back({c, e, value});
            std::push_heap(best.begin(), best.end(), worse);
            if (static_cast<int>(best.size()) > topK) {
                std::pop_heap(best.begin(), best.end(), worse);
                best.pop_back();
            }
        },
        stats);
    std::sort_heap(best.begin(), best.end(), worse);
    return best;
}

namespace {

// bestPerGpuCount's rule: a configuration replaces its GPU count's best when its objective is lower (the
// first of equals stays).
void keepIfBetter(std::vector<std::optional<RankedConfig>>& best, const ParallelConfig& c,
                  const PerfEstimate& e, const SearchOptions& options) {
    const double value = objectiveValue(e, options.objective, options.ciGPerKwh);
    auto& slot = best[static_cast<size_t>(c.gpus())];
    if (!slot || value < slot->objective)
        slot = RankedConfig{c, e, value};
}

} // namespace

std::vector<std::optional<RankedConfig>> bestPerGpuCount(const PerfProblem& problem,
                                                         const SearchOptions& options, SearchStats* stats,
                                                         std::vector<ParallelConfig>* feasible) {
    std::vector<std::optional<RankedConfig>> best(static_cast<size_t>(std::max(0, options.maxGpus)) + 1);
    forEachFeasibleConfig(
        problem, options,
        [&](const ParallelConfig& c, const PerfEstimate& e) {
            if (feasible != nullptr)
                feasible->push_back(c);
            keepIfBetter(best, c, e, options);
        },
        stats);
    return best;
}

std::vector<std::optional<RankedConfig>> bestPerGpuCount(const PerfProblem& problem,
                                                         const SearchOptions& options,
                                                         const std::vector<ParallelConfig>& feasible) {
    std::vector<std::optional<RankedConfig>> best(static_cast<size_t>(std::max(0, options.maxGpus)) + 1);
    PerfEstimate e;
    for (const ParallelConfig& c : feasible) {
        // The search's own problem for this d: a per-replica batch scales the global batch with it.
        estimate(options.perReplicaBatch > 0 ? withGlobalBatch(problem, options.perReplicaBatch * c.dp)
                                             : problem,
                 c, options.powerLimitW, e);
        keepIfBetter(best, c, e, options);
    }
    return best;
}

std::vector<RankedConfig> paretoFrontier(const PerfProblem& problem, const SearchOptions& options,
                                         SearchStats* stats) {
    std::vector<RankedConfig> candidates;
    for (auto& slot : bestPerGpuCount(problem, options, stats)) {
        if (slot)
            candidates.push_back(*slot);
    }
    std::sort(candidates.begin(), candidates.end(), [](const RankedConfig& a, const RankedConfig& b) {
        if (a.estimate.power.facilityPowerW != b.estimate.power.facilityPowerW)
            return a.estimate.power.facilityPowerW < b.estimate.power.facilityPowerW;
        return a.estimate.tokensPerS > b.estimate.tokensPerS;
    });
    std::vector<RankedConfig> frontier;
    double fastest = 0.0;
    for (const RankedConfig& r : candidates) {
        if (r.estimate.tokensPerS > fastest) {
            frontier.push_back(r);
            fastest = r.estimate.tokensPerS;
        }
    }
    return frontier;
}

std::optional<int> fewestRecomputedLayers(const PerfProblem& problem, ParallelConfig c, PerfEstimate& e) {
    c.recompute = Recompute::None;
    c.recomputeLayers = 0;
    estimateMemory(problem, c, e);
    if (e.reason != Infeasibility::OutOfMemory)
        return std::nullopt; // it fits without recomputing, or is not well-formed
    const StageSplit stages = splitLayers(problem.layers, c.pp);
    const int stageLayers = std::max({stages.first, stages.middle, stages.last});
    const int chunkLayers = (stageLayers + c.interleave - 1) / c.interleave;
    // N from 1 to one short of the largest chunk: N = chunkLayers recomputes every layer.
    int lo = 1;
    int hi = chunkLayers - 1;
    c.recompute = Recompute::Full;
    c.recomputeLayers = hi;
    if (hi < lo || (estimateMemory(problem, c, e), !e.feasible))
        return std::nullopt;
    while (lo < hi) {
        c.recomputeLayers = lo + (hi - lo) / 2;
        estimateMemory(problem, c, e);
        if (e.feasible)
            hi = c.recomputeLayers;
        else
            lo = c.recomputeLayers + 1;
    }
    return hi;
}

std::optional<RankedConfig> fastestVariant(const PerfProblem& problem, const ParallelConfig& config,
                                           bool fixMicroBatch, bool fixInterleave, double powerLimitW,
                                           bool recomputeBlocks) {
    std::optional<RankedConfig> best;
    PerfEstimate e;
    const int perReplica = config.dp > 0 ? problem.globalBatch / config.dp : 0;
    const int perStage = config.pp > 0 ? (problem.layers + 2) / config.pp : 0; // interleaveFits bounds v
    const int bLo = fixMicroBatch ? config.microBatch : 1,
              bHi = fixMicroBatch ? config.microBatch : perReplica;
    const int vLo = fixInterleave ? config.interleave : 1, vHi = fixInterleave ? config.interleave : perStage;
    for (int b = bLo; b <= bHi; ++b) {
        for (int v = vLo; v <= vHi; ++v) {
            ParallelConfig c = config;
            c.microBatch = b;
            c.interleave = v;
            estimate(problem, c, powerLimitW, e);
            if (!e.feasible)
                continue;
            if (!best || e.stepTimeS < best->estimate.stepTimeS)
                best = RankedConfig{c, e, 1.0 / e.tokensPerS};
            if (!recomputeBlocks || c.recompute != Recompute::Full || c.recomputeLayers > 0)
                continue;
            if (const auto layers = fewestRecomputedLayers(problem, c, e)) {
                c.recomputeLayers = *layers;
                estimate(problem, c, powerLimitW, e);
                if (e.feasible && e.stepTimeS < best->estimate.stepTimeS)
                    best = RankedConfig{c, e, 1.0 / e.tokensPerS};
            }
        }
    }
    return best;
}

} // namespace carbon3d
