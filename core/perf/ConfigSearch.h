// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ParallelConfig.h"
#include "perf/PerfModel.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

enum class SearchObjective { Time, Energy, Carbon };
const char* searchObjectiveName(SearchObjective objective); // "time", "energy", "carbon"

// What the search enumerates (docs/MODEL.md#search). Rules: t divides heads, KV heads, hidden and FFN, and
// the GPUs per node unless the problem allows cross-node TP (then t <= maxTp, default 2 x GPUs per node);
// p gives a balanced split (balancedSplit: p divides the layers, or the layers + 2 with the first and last
// stage a layer short, docs/MODEL.md#stage-split); cp is fixed by the options; d divides B (global batch
// constant); b divides B/d; v > 1 needs equal model chunks (interleaveFits), p > 1 and m a multiple of p;
// recompute none/selective/full, and where nothing less than every layer fits without recomputation, full
// recomputation of the fewest layers per chunk that fit (fewestRecomputedLayers); sequence parallelism on
// exactly when t > 1; the model states replicated, and when d x cp > 1 also the optimizer states sharded
// (distributed optimizer) and, when asked (offerFsdp), everything sharded (FSDP). Without offerInterleave,
// v = 1 only. A mixture of experts also takes every expert-parallel degree ep that divides the routed
// experts and d x t x cp, with expert tensor parallelism 1 or t (docs/MODEL.md#expert-parallel), and no FSDP.
struct SearchOptions {
    int maxGpus = 0;             // upper bound on d*t*p
    bool exactGpus = false;      // only configurations using exactly maxGpus
    int maxTp = 0;               // 0: 2 x GPUs per node (reached only with cross-node TP)
    int contextParallel = 1;     // cp of every configuration (the search does not vary it)
    bool offerFsdp = false;      // also FSDP where d x cp > 1 (TrainingJob::fsdp)
    bool offerInterleave = true; // also v > 1 where it fits (TrainingJob::interleave)
    int maxMicroBatch = 0;       // 0: no bound other than B/d
    int perReplicaBatch = 0; // > 0: global batch = perReplicaBatch x d (docs/MODEL.md section 10, choice 2)
    SearchObjective objective = SearchObjective::Time;
    double ciGPerKwh = 0.0;   // for SearchObjective::Carbon
    double powerLimitW = 0.0; // per-GPU limit (0 = default)
};

struct RankedConfig {
    ParallelConfig config;
    PerfEstimate estimate;
    double objective = 0.0; // smaller is better: s/token, J/token or g/token
};

struct SearchStats {
    long long enumerated = 0; // well-formed configurations whose memory was checked
    long long evaluated = 0;  // feasible configurations fully evaluated
    // The others, counted by why the memory check refused them (index: Infeasibility), so that "nothing is
    // feasible" can say why (nothingFeasibleReason).
    std::array<long long, kInfeasibilityCount> refused{};
};

// Why a search whose `stats` these are found nothing feasible, for a person: the reason that refused the
// most configurations and how many it refused, or that no configuration was well-formed at all ("no
// (d, t, p) divides the GPUs, the global batch and the model's heads and layers").
std::string nothingFeasibleReason(const SearchStats& stats);

// What a job asks of every search for it (its cp, whether FSDP and the interleaved schedule are offered),
// on at most maxGpus GPUs; the menus and the Configurations page start from this.
SearchOptions searchOptionsFor(const TrainingJob& job, int maxGpus);

// Smaller is better: time -> seconds per token; energy -> facility J per token; carbon -> operational g per
// token at ciGPerKwh (J x CI / 3.6e6) + embodied g per token of the active GPUs.
double objectiveValue(const PerfEstimate& estimate, SearchObjective objective, double ciGPerKwh);

// Calls visit(config, estimate) for every feasible configuration. The problem's global batch is used unless
// options.perReplicaBatch > 0.
template <typename Visitor>
void forEachFeasibleConfig(const PerfProblem& problem, const SearchOptions& options, Visitor&& visit,
                           SearchStats* stats = nullptr);

// The best `topK` feasible configurations by the objective, best first.
std::vector<RankedConfig> searchConfigs(const PerfProblem& problem, const SearchOptions& options, int topK,
                                        SearchStats* stats = nullptr);

// For every active GPU count the best configuration by the objective, then only those on the Pareto frontier
// of (facility power, tokens/s): sorted by increasing power, each faster than all cheaper ones.
std::vector<RankedConfig> paretoFrontier(const PerfProblem& problem, const SearchOptions& options,
                                         SearchStats* stats = nullptr);
// Best configuration per active GPU count (index = GPU count, empty where none is feasible). With
// `feasible`, also every feasible configuration, in the order the search enumerates them.
std::vector<std::optional<RankedConfig>> bestPerGpuCount(const PerfProblem& problem,
                                                         const SearchOptions& options,
                                                         SearchStats* stats = nullptr,
                                                         std::vector<ParallelConfig>* feasible = nullptr);

// bestPerGpuCount over `feasible` only (the feasible configurations of a search with the same options but
// the power limit), estimated at options.powerLimitW: the same result as the search over every
// configuration. Feasibility is the memory check's alone, so the power limit does not change it: a menu of
// many power limits enumerates and checks memory once, then estimates only these at each limit.
std::vector<std::optional<RankedConfig>> bestPerGpuCount(const PerfProblem& problem,
                                                         const SearchOptions& options,
                                                         const std::vector<ParallelConfig>& feasible);

// The fewest layers of each model chunk whose full recomputation lets `config` fit (Megatron's block method,
// ParallelConfig::recomputeLayers): nullopt when the configuration fits without recomputing anything (or is
// not well-formed), and when only recomputing every layer fits, or not even that. Activation memory falls
// as N grows, so a bisection over N finds it. `scratch` is overwritten.
std::optional<int> fewestRecomputedLayers(const PerfProblem& problem, ParallelConfig config,
                                          PerfEstimate& scratch);

// The fastest feasible variant of `config`, varying the micro-batch size and/or the interleave degree when
// they are not fixed; with `recomputeBlocks` and full recomputation, each variant is also tried with the
// fewest recomputed layers that fit. nullopt when none is feasible.
std::optional<RankedConfig> fastestVariant(const PerfProblem& problem, const ParallelConfig& config,
                                           bool fixMicroBatch, bool fixInterleave, double powerLimitW,
                                           bool recomputeBlocks = false);

// The problem with another global batch (tokens and FLOPs per iteration follow).
PerfProblem withGlobalBatch(PerfProblem problem, int globalBatch);

// ---- implementation of the template ----
namespace detail {
inline bool dividesAll(int t, const PerfProblem& p) {
    return p.heads % t == 0 && p.kvHeads % t == 0 && p.hidden % t == 0 && p.ffn % t == 0;
}

// Calls visit(ep, etp) for the expert layouts the search offers on a stage of `stageGpus` (d x t x cp) GPUs
// with tensor parallelism t: (1, 1) for a dense model; for a mixture of experts every ep dividing the experts
// and, with etp 1 or t (when t divides the expert FFN), ep x etp dividing the stage's GPUs.
template <typename Visit>
void forEachExpertLayout(const PerfProblem& p, int stageGpus, int t, Visit&& visit) {
    if (!p.mixtureOfExperts()) {
        visit(1, 1);
        return;
    }
    for (int ep = 1; ep <= p.experts && ep <= stageGpus; ++ep) {
        if (p.experts % ep != 0)
            continue;
        for (const int etp : {1, t}) {
            if ((etp > 1 && p.expertFfn % etp != 0) || stageGpus % (ep * etp) != 0)
                continue;
            visit(ep, etp);
            if (t == 1)
                break; // etp 1 and t are the same layout
        }
    }
}
} // namespace detail

template <typename Visitor>
void forEachFeasibleConfig(const PerfProblem& base, const SearchOptions& options, Visitor&& visit,
                           SearchStats* stats) {
    const int maxGpus = options.maxGpus;
    const int maxTp = options.maxTp > 0 ? options.maxTp : 2 * base.gpusPerNode;
    PerfEstimate e;
    PerfProblem scaled = base;
    const int cp = std::max(1, options.contextParallel);
    for (int t = 1; t <= maxTp && t * cp <= maxGpus; ++t) {
        if (!detail::dividesAll(t, base) || (!base.crossNodeTp && base.gpusPerNode % t != 0))
            continue;
        for (int p = 1; p <= base.layers && t * p * cp <= maxGpus; ++p) {
            if (!balancedSplit(base.layers, p))
                continue;
            const int maxD = maxGpus / (t * p * cp);
            const int minD = options.exactGpus ? maxD : 1;
            if (options.exactGpus && maxD * t * p * cp != maxGpus)
                continue;
            for (int d = minD; d <= maxD; ++d) {
                const PerfProblem* problem = &base;
                if (options.perReplicaBatch > 0) {
                    scaled = withGlobalBatch(base, options.perReplicaBatch * d);
                    problem = &scaled;
                } else if (base.globalBatch % d != 0) {
                    continue;
                }
                const int perReplica = problem->globalBatch / d;
                for (int b = 1; b <= perReplica; ++b) {
                    if (perReplica % b != 0 || (options.maxMicroBatch > 0 && b > options.maxMicroBatch))
                        continue;
                    const int m = perReplica / b;
                    detail::forEachExpertLayout(base, d * t * cp, t, [&](int ep, int expertTp) {
                        for (const Recompute recompute : kRecomputeModes) {
                            // 0 replicated, 1 optimizer states sharded, 2 FSDP (which shards those too). A
                            // mixture of experts shards its experts' optimizer states over the expert-data-
                            // parallel ranks even where d x cp = 1.
                            const bool expertReplicas = base.mixtureOfExperts() && d * t * cp > ep * expertTp;
                            const int shardings = d * cp == 1 && !expertReplicas                  ? 0
                                                  : options.offerFsdp && !base.mixtureOfExperts() ? 2
                                                                                                  : 1;
                            for (int sharding = 0; sharding <= shardings; ++sharding) {
                                const int maxV = options.offerInterleave ? base.layers / p : 1;
                                for (int v = 1; v <= maxV; ++v) {
                                    if (v > 1 && (p == 1 || m % p != 0 || !interleaveFits(base.layers, p, v)))
                                        continue;
                                    ParallelConfig c;
                                    c.dp = d;
                                    c.tp = t;
                                    c.pp = p;
                                    c.microBatch = b;
                                    c.interleave = v;
                                    c.recompute = recompute;
                                    c.sequenceParallel = t > 1;
                                    c.distributedOptimizer = sharding >= 1;
                                    c.fullySharded = sharding == 2;
                                    c.cp = cp;
                                    c.ep = ep;
                                    c.expertTp = expertTp;
                                    auto evaluate = [&]() {
                                        if (stats != nullptr)
                                            ++stats->enumerated;
                                        estimateMemory(*problem, c, e);
                                        if (!e.feasible) {
                                            if (stats != nullptr)
                                                ++stats->refused[static_cast<std::size_t>(e.reason)];
                                            return false;
                                        }
                                        estimate(*problem, c, options.powerLimitW, e);
                                        if (stats != nullptr)
                                            ++stats->evaluated;
                                        visit(c, e);
                                        return true;
                                    };
                                    // A block of recomputed layers can only fit where every layer does.
                                    if (evaluate() && recompute == Recompute::Full) {
                                        if (const auto layers = fewestRecomputedLayers(*problem, c, e)) {
                                            c.recomputeLayers = *layers;
                                            evaluate();
                                        }
                                    }
                                }
                            }
                        }
                    });
                }
            }
        }
    }
}

} // namespace carbon3d
