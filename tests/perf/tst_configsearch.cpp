// SPDX-License-Identifier: MIT
#include "config/Presets.h"
#include "perf/ConfigSearch.h"
#include "perf/ConfigurationLandscape.h"
#include "perf/ExecutionMenuBuilder.h"
#include "perf/ModelMath.h"
#include "validation/ValidationSet.h"

#include <QTest>
#include <set>

using namespace carbon3d;

namespace {

TrainingJob gpt18b() {
    TrainingJob job;
    job.model = gptModel(40, 6144, 48, 2048, 51200);
    job.globalBatch = 256;
    return job;
}

} // namespace

class TestConfigSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rankedBestFirst_data() {
        QTest::addColumn<int>("objective");
        QTest::newRow("time") << int(SearchObjective::Time);
        QTest::newRow("energy") << int(SearchObjective::Energy);
        QTest::newRow("carbon") << int(SearchObjective::Carbon);
    }
    void rankedBestFirst() {
        QFETCH(int, objective);
        const PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        SearchOptions options;
        options.maxGpus = 64;
        options.objective = static_cast<SearchObjective>(objective);
        options.ciGPerKwh = 300.0;
        SearchStats stats;
        const auto top = searchConfigs(problem, options, 10, &stats);
        QCOMPARE(top.size(), size_t(10));
        QVERIFY(stats.evaluated >= 10 && stats.enumerated >= stats.evaluated);
        // Every well-formed configuration is either evaluated or refused for one reason.
        long long refused = 0;
        for (const long long count : stats.refused)
            refused += count;
        QCOMPARE(stats.evaluated + refused, stats.enumerated);
        for (size_t i = 0; i < top.size(); ++i) {
            QVERIFY(top[i].estimate.feasible);
            QVERIFY(top[i].config.gpus() <= 64);
            if (i > 0)
                QVERIFY(top[i - 1].objective <= top[i].objective);
        }
        // Exhaustive: no feasible configuration beats the first (checked by brute force over every visit).
        double best = 1e300;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig&, const PerfEstimate& e) {
            best = std::min(best, objectiveValue(e, options.objective, options.ciGPerKwh));
        });
        QCOMPARE(top.front().objective, best);
    }

    // When nothing is feasible the search says why, in the performance model's words: the reason that
    // refused the most configurations, and how many of them.
    void nothingFeasibleSaysWhy() {
        SearchOptions options;
        options.maxGpus = 64;
        SearchStats stats;
        // V100 has no BF16 peak (NVIDIA's data sheet): every configuration is refused for that.
        ClusterProfile v100 = seleneCluster();
        v100.accelerator.peakFlops.erase(Precision::BF16);
        QVERIFY(searchConfigs(makePerfProblem(gpt18b(), v100), options, 1, &stats).empty());
        QVERIFY(stats.enumerated > 0);
        QCOMPARE(stats.refused[static_cast<std::size_t>(Infeasibility::PrecisionUnsupported)],
                 stats.enumerated);
        QCOMPARE(QString::fromStdString(nothingFeasibleReason(stats)),
                 QStringLiteral("the accelerator has no peak FLOP/s for this precision (all %1 well-formed "
                                "configurations)")
                     .arg(stats.enumerated));
        // GPT-3 175B on 8 A100s: memory refuses most (a t = 8 group without pipelining fails for the same
        // reason), so that is what is named, with its share.
        TrainingJob gpt3 = gpt18b();
        gpt3.model = gptModel(96, 12288, 96, 2048, 51200);
        options.maxGpus = 8;
        stats = SearchStats{};
        QVERIFY(searchConfigs(makePerfProblem(gpt3, seleneCluster()), options, 1, &stats).empty());
        QVERIFY(QString::fromStdString(nothingFeasibleReason(stats))
                    .startsWith(QStringLiteral("does not fit in GPU memory (")));
        // Nothing well-formed at all: exactly 11 GPUs leave t = 1 (t divides the 8 GPUs of a node), d = 11
        // does not divide the global batch of 256, and p = 11 splits neither 40 layers nor 42.
        options.maxGpus = 11;
        options.exactGpus = true;
        stats = SearchStats{};
        QVERIFY(searchConfigs(makePerfProblem(gpt18b(), seleneCluster()), options, 1, &stats).empty());
        QCOMPARE(stats.enumerated, 0LL);
        QVERIFY(
            QString::fromStdString(nothingFeasibleReason(stats)).startsWith(QStringLiteral("no (d, t, p)")));
    }

    // FSDP joins the search only when the job asks (TrainingJob::fsdp): the rest of the space is unchanged,
    // every FSDP configuration has replicas to shard over, and on the case docs/DECISIONS.md cites (Llama 3
    // 70B on 64 MI300X, global batch 128) it is the fastest.
    void fsdpIsOfferedWhenAsked() {
        TrainingJob job;
        job.model = *findModelPreset("llama3-70b");
        job.globalBatch = 128;
        const PerfProblem problem = makePerfProblem(job, *findClusterPreset("mi300x-node"));
        SearchOptions options;
        options.maxGpus = 64;
        long long replicatedOrOptimizer = 0;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig& c, const PerfEstimate&) {
            QVERIFY(!c.fullySharded);
            ++replicatedOrOptimizer;
        });
        const auto without = searchConfigs(problem, options, 1);
        options.offerFsdp = true;
        long long notSharded = 0;
        long long sharded = 0;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig& c, const PerfEstimate&) {
            if (!c.fullySharded) {
                ++notSharded;
                return;
            }
            ++sharded;
            QVERIFY(c.dp * c.cp > 1);
            QVERIFY(c.distributedOptimizer); // FSDP shards the optimizer states too
        });
        QCOMPARE(notSharded, replicatedOrOptimizer);
        QVERIFY(sharded > 0);
        const auto with = searchConfigs(problem, options, 1);
        QVERIFY(with.front().config.fullySharded);
        QVERIFY(with.front().estimate.stepTimeS < without.front().estimate.stepTimeS);
    }

    // Without the interleaved schedule (TrainingJob::interleave false) the search is exactly the v = 1 part
    // of the space it searches with it, and on SC21 Table 2's largest run (GPT-3 175B on 1,536 A100s, batch
    // 1,536) the fastest plain-1F1B configuration is slower than the fastest interleaved one.
    void interleavingIsOfferedUnlessTheStackHasNone() {
        TrainingJob job = gpt18b();
        job.model = gptModel(96, 12288, 96, 2048, 51200);
        job.globalBatch = 1536;
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        job.interleave = false;
        SearchOptions options = searchOptionsFor(job, 1536);
        options.exactGpus = true;
        QVERIFY(!options.offerInterleave);
        long long plain = 0;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig& c, const PerfEstimate&) {
            QCOMPARE(c.interleave, 1);
            ++plain;
        });
        QVERIFY(plain > 0);
        const auto without = searchConfigs(problem, options, 1);
        options.offerInterleave = true;
        long long plainWith = 0;
        long long interleaved = 0;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig& c, const PerfEstimate&) {
            ++(c.interleave == 1 ? plainWith : interleaved);
        });
        QCOMPARE(plainWith, plain);
        QVERIFY(interleaved > 0);
        const auto with = searchConfigs(problem, options, 1);
        QVERIFY(with.front().config.interleave > 1);
        QVERIFY(with.front().estimate.stepTimeS < without.front().estimate.stepTimeS);
    }

    void exactGpuCount() {
        const PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        SearchOptions options;
        options.maxGpus = 32;
        options.exactGpus = true;
        for (const auto& r : searchConfigs(problem, options, 50))
            QCOMPARE(r.config.gpus(), 32);
    }

    void paretoFrontierIsMonotone() {
        const PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        SearchOptions options;
        options.maxGpus = 128;
        const auto frontier = paretoFrontier(problem, options);
        QVERIFY(frontier.size() >= 3);
        for (size_t i = 1; i < frontier.size(); ++i) {
            QVERIFY(frontier[i].estimate.power.facilityPowerW >=
                    frontier[i - 1].estimate.power.facilityPowerW);
            QVERIFY(frontier[i].estimate.tokensPerS > frontier[i - 1].estimate.tokensPerS);
        }
        // The fastest point of the frontier is the fastest configuration overall (the time ranking's first).
        const auto fastest = searchConfigs(problem, options, 1);
        QCOMPARE(frontier.back().estimate.tokensPerS, fastest.front().estimate.tokensPerS);
        // The cheapest point uses fewer GPUs than the fastest one.
        QVERIFY(frontier.front().config.gpus() < frontier.back().config.gpus());
    }

    void menuFromModel() {
        ClusterProfile cluster = seleneCluster();
        MenuOptions options;
        options.maxGpus = 64;
        options.powerLimitsW = {250.0};
        const ExecutionMenu menu = buildExecutionMenu(gpt18b(), cluster, options);
        QVERIFY(!menu.empty());
        for (size_t i = 0; i < menu.size(); ++i) {
            QVERIFY(!menu[i].measured);
            QVERIFY(menu[i].gpusActive <= 64 && menu[i].gpusActive == menu[i].config.gpus());
            if (i > 0) {
                QVERIFY(menu[i].activePowerW >= menu[i - 1].activePowerW);
                QVERIFY(menu[i].workPerSecond > menu[i - 1].workPerSecond);
            }
        }
        options.paretoOnly = false;
        QVERIFY(buildExecutionMenu(gpt18b(), cluster, options).size() > menu.size());
    }

    void theFeasibleListSearchesAsTheFullSearch() {
        // A menu of several power limits enumerates once (the first search lists the feasible configurations)
        // and estimates that list at each other limit; it must pick exactly what the search over every
        // configuration picks, to the last digit.
        const PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        int compared = 0;
        for (int perReplica : {0, 2}) {
            for (SearchObjective objective : {SearchObjective::Time, SearchObjective::Energy}) {
                SearchOptions options = searchOptionsFor(gpt18b(), 96);
                options.perReplicaBatch = perReplica;
                options.objective = objective;
                std::vector<ParallelConfig> feasible;
                bestPerGpuCount(problem, options, nullptr, &feasible);
                QVERIFY(!feasible.empty());
                for (double limit : {0.0, 150.0, 275.0, 400.0}) {
                    options.powerLimitW = limit;
                    const auto full = bestPerGpuCount(problem, options);
                    const auto listed = bestPerGpuCount(problem, options, feasible);
                    QCOMPARE(listed.size(), full.size());
                    for (std::size_t gpus = 0; gpus < full.size(); ++gpus) {
                        QCOMPARE(listed[gpus].has_value(), full[gpus].has_value());
                        if (!full[gpus])
                            continue;
                        QVERIFY(listed[gpus]->config == full[gpus]->config);
                        QCOMPARE(listed[gpus]->estimate.tokensPerS, full[gpus]->estimate.tokensPerS);
                        QCOMPARE(listed[gpus]->estimate.power.facilityPowerW,
                                 full[gpus]->estimate.power.facilityPowerW);
                        ++compared;
                    }
                }
            }
        }
        QVERIFY(compared > 100);
    }

    // cp is the job's (TrainingJob::contextParallel): every option of the menu the policies choose from,
    // and every configuration the studio's configurations page shows, splits each sequence over it.
    void menuHoldsTheJobsContextParallelism() {
        TrainingJob job = gpt18b();
        job.model.seqLen = 32768;
        job.attention = AttentionKernel::Flash;
        job.contextParallel = 4;
        MenuOptions options;
        options.maxGpus = 256;
        options.paretoOnly = false;
        const ExecutionMenu menu = buildExecutionMenu(job, seleneCluster(), options);
        QVERIFY(!menu.empty());
        for (const ExecutionOption& option : menu) {
            QCOMPARE(option.config.cp, 4);
            QCOMPARE(option.gpusActive, option.config.gpus());
            // The timeline's band names the split with cp, as the full label begins.
            const std::string shape = option.config.shapeLabel();
            QCOMPARE(shape, "d" + std::to_string(option.config.dp) + " t" + std::to_string(option.config.tp) +
                                " c4 p" + std::to_string(option.config.pp));
            QVERIFY(option.config.label().starts_with(shape + " "));
        }
        const ConfigurationLandscape landscape =
            configurationLandscape(job, seleneCluster(), 256, ModellingOptions{});
        QVERIFY(!landscape.shapes.empty() && !landscape.frontier.empty());
        for (const RankedConfig& shape : landscape.shapes)
            QCOMPARE(shape.config.cp, 4);
        for (const RankedConfig& point : landscape.frontier)
            QCOMPARE(point.config.cp, 4);
    }

    void tensorParallelStaysInANodeUnlessAsked() {
        // GPT 18.4B: 48 heads allow t = 1, 2, 3, 4, 6, 8, 12, 16; on 8-GPU nodes only the divisors of 8 are
        // offered, and the others once cross-node TP is allowed.
        PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        SearchOptions options;
        options.maxGpus = 96;
        std::set<int> offered;
        forEachFeasibleConfig(problem, options,
                              [&](const ParallelConfig& c, const PerfEstimate&) { offered.insert(c.tp); });
        QCOMPARE(offered, (std::set<int>{1, 2, 4, 8}));
        problem.crossNodeTp = true;
        offered.clear();
        forEachFeasibleConfig(problem, options,
                              [&](const ParallelConfig& c, const PerfEstimate&) { offered.insert(c.tp); });
        QVERIFY(offered.count(3) == 1 && offered.count(6) == 1 && offered.count(16) == 1);
    }

    void unevenStagesAndContextParallelAreSearched() {
        // 40 layers: p = 3 and p = 6 split 42 slots (the embedding and loss as a layer each) and are offered,
        // p = 9 (neither 40 nor 42) is not; cp is what the options fix.
        TrainingJob job = gpt18b();
        job.attention = AttentionKernel::Flash;
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        SearchOptions options;
        options.maxGpus = 96;
        options.contextParallel = 2;
        std::set<int> stages;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig& c, const PerfEstimate& e) {
            stages.insert(c.pp);
            QCOMPARE(c.cp, 2);
            QVERIFY(c.gpus() <= 96);
            QVERIFY(c.interleave == 1 || interleaveFits(40, c.pp, c.interleave));
            QVERIFY(e.feasible);
        });
        QVERIFY(stages.count(3) == 1 && stages.count(6) == 1);
        QCOMPARE(stages.count(9), size_t(0));
    }

    void recomputedBlocksAreTheFewestLayersThatFit() {
        // Where nothing fits without recomputing, the search also offers full recomputation of the fewest
        // layers per chunk that fit: one layer fewer does not fit, and neither does recomputing none.
        const PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        SearchOptions options;
        options.maxGpus = 32;
        int blocks = 0;
        forEachFeasibleConfig(problem, options, [&](const ParallelConfig& c, const PerfEstimate& e) {
            if (c.recomputeLayers == 0)
                return;
            ++blocks;
            QVERIFY(e.feasible);
            QCOMPARE(c.recompute, Recompute::Full);
            ParallelConfig fewer = c;
            fewer.recomputeLayers = c.recomputeLayers - 1;
            if (fewer.recomputeLayers == 0)
                fewer.recompute = Recompute::None;
            QVERIFY2(!estimate(problem, fewer).feasible, fewer.label().c_str());
            ParallelConfig none = c;
            none.recompute = Recompute::None;
            none.recomputeLayers = 0;
            QVERIFY(!estimate(problem, none).feasible);
            // Faster than recomputing every layer, which fits too.
            ParallelConfig every = c;
            every.recomputeLayers = 0;
            const PerfEstimate all = estimate(problem, every);
            QVERIFY(all.feasible && e.stepTimeS < all.stepTimeS);
            PerfEstimate scratch;
            QCOMPARE(fewestRecomputedLayers(problem, every, scratch), std::optional<int>(c.recomputeLayers));
        });
        QVERIFY(blocks > 0);
        // A configuration that fits without recomputing gets no block.
        PerfEstimate scratch;
        const ParallelConfig roomy{1, 8, 4, 1, 1, Recompute::Full, true, false};
        QVERIFY(estimate(problem, ParallelConfig{1, 8, 4, 1, 1, Recompute::None, true, false}).feasible);
        QCOMPARE(fewestRecomputedLayers(problem, roomy, scratch), std::optional<int>());
    }

    void fastestVariantPicksMicroBatchAndInterleave() {
        const PerfProblem problem = makePerfProblem(gpt18b(), seleneCluster());
        const ParallelConfig base{4, 8, 2, 1, 1, Recompute::Full, false, false};
        const auto best = fastestVariant(problem, base, false, false, 0.0);
        QVERIFY(best.has_value());
        // Brute force over b | 64 and v | 20 must not beat it.
        for (int b : {1, 2, 4, 8, 16, 32, 64}) {
            for (int v : {1, 2, 4, 5, 10, 20}) {
                ParallelConfig c = base;
                c.microBatch = b;
                c.interleave = v;
                const PerfEstimate e = estimate(problem, c);
                if (e.feasible)
                    QVERIFY(e.stepTimeS >= best->estimate.stepTimeS);
            }
        }
        const auto fixed = fastestVariant(problem, base, true, true, 0.0);
        QVERIFY(fixed.has_value());
        QCOMPARE(fixed->config, base);
    }
};

QTEST_GUILESS_MAIN(TestConfigSearch)
#include "tst_configsearch.moc"
