// SPDX-License-Identifier: MIT
#include "config/Presets.h"
#include "domain/InputError.h"
#include "perf/ExecutionMenuBuilder.h"
#include "perf/ModelMath.h"
#include "perf/PerfModel.h"
#include "perf/Stragglers.h"
#include "validation/ValidationSet.h"

#include <QTest>
#include <cmath>

using namespace carbon3d;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// The published cases these tests reproduce (Korthikanti et al., SC21, vTrain) ran before FlashAttention.
TrainingJob gptJob(int layers, int hidden, int heads, int vocab, int seqLen, int globalBatch) {
    TrainingJob job;
    job.model = gptModel(layers, hidden, heads, seqLen, vocab);
    job.globalBatch = globalBatch;
    job.attention = AttentionKernel::Materialized;
    return job;
}

bool near(double a, double b, double relative) {
    return std::abs(a - b) <= relative * std::abs(b);
}

// The by-hand memory cases share one small job and layout: l 2, h 1024, a 16, V 0, s 1024 on t = 2 over
// d = 4, p = 1, 13,120,512 parameters per GPU (modelStatesByHand counts them).
TrainingJob byHandJob() {
    return gptJob(2, 1024, 16, 0, 1024, 8);
}
ParallelConfig byHandLayout() {
    ParallelConfig c;
    c.tp = 2;
    c.dp = 4;
    return c;
}
double byHandStatesBytes(const TrainingJob& job, const ClusterProfile& cluster) {
    return estimate(makePerfProblem(job, cluster), byHandLayout()).memory.modelStatesBytes();
}

} // namespace

class TestPerfModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ringAllReduceByHand() {
        // 1 GB over 8 ranks at 100 GB/s + 10 us: 2*7/8*1e9/1e11 + 1e-5 = 0.0175 + 0.00001 = 0.01751 s.
        QVERIFY(near(ringAllReduceS(1e9, 8, 1e11, 1e-5), 0.01751, 1e-12)); // floating-point rounding only
        QCOMPARE(ringAllReduceS(1e9, 1, 1e11, 1e-5), 0.0);                 // one rank: nothing to reduce
    }

    void gemmEfficiencyCurveByHand() {
        PerfCalibration c;
        c.gemmEfficiencyMax = 0.7;
        c.gemmHalfSaturationGflop = 10.0;
        c.gemmSaturationExponent = 2.0;
        // At the half-saturation size x = 1: 0.7 * 1 / 2 = 0.35, whatever the exponent.
        QVERIFY(std::abs(gemmEfficiency(c, 10e9) - 0.35) < 1e-12); // 1e-12: rounding only
        // At twice that size x = 2^2 = 4: 0.7 * 4 / 5 = 0.56 (the hyperbola, exponent 1, gives 0.7 * 2/3).
        QVERIFY(std::abs(gemmEfficiency(c, 20e9) - 0.56) < 1e-12);
        c.gemmSaturationExponent = 1.0;
        QVERIFY(std::abs(gemmEfficiency(c, 20e9) - 0.7 * 2.0 / 3.0) < 1e-12);
    }

    void dataParallelAllReduceMovesGradientBytes() {
        // Pipeline-free 18.4B on 256 GPUs, t = 8, d = 32: the exposed DP time is a ring all-reduce of the
        // stage gradients at dp_gradient_bytes per parameter, so 4 bytes costs (almost exactly, the latency
        // aside) twice 2 bytes.
        PerfCalibration c;
        c.collectiveLatencyS = 0.0;
        c.networkLatencyS = 0.0;
        c.networkLatencyPerDoublingS = 0.0;
        c.dpGradientBytes = 2.0;
        const TrainingJob job = gptJob(40, 6144, 48, 51200, 2048, 1024);
        const ParallelConfig config{32, 8, 1, 4, 1, Recompute::Full, false, false};
        const double two = estimate(makePerfProblem(job, vtrainCluster(c)), config).time.dpCommExposedS;
        c.dpGradientBytes = 4.0;
        const double four = estimate(makePerfProblem(job, vtrainCluster(c)), config).time.dpCommExposedS;
        QVERIFY(two > 0.0);
        QVERIFY(std::abs(four / two - 2.0) < 1e-9); // 1e-9: rounding only, the latency is 0
    }

    void gradientReductionHidesBehindTheLastBackwardPass() {
        // 18.4B, t = 8, p = 1, d = 32 on Selene, plain all-reduce. An overlapping stack (dp_overlap 1) shows
        // only what the reduction exceeds the stage's backward pass by, and never less than the last
        // bucket's share: Megatron-Core's default bucket of max(40e6, 1e6 d) parameters over the stage's
        // parameters per GPU.
        PerfCalibration blocking;
        const TrainingJob job = gptJob(40, 6144, 48, 51200, 2048, 1024);
        const ParallelConfig config{32, 8, 1, 4, 1, Recompute::Full, false, false};
        const PerfEstimate before = estimate(makePerfProblem(job, vtrainCluster(blocking)), config);
        PerfCalibration overlapping = blocking;
        overlapping.dpOverlap = 1.0;
        const PerfEstimate after = estimate(makePerfProblem(job, vtrainCluster(overlapping)), config);
        const double reduce = before.time.dpCommExposedS;
        const double stageParams = before.memory.weightsBytes / 2.0; // bf16 weights: 2 bytes per parameter
        const double lastBucket = std::min(1.0, std::max(40e6, 1e6 * config.dp) / stageParams) * reduce;
        // The last micro-batch's backward pass, the recomputed forward it runs included: 3/4 of a
        // micro-batch's compute under full recomputation (forward 1, recomputed forward 1, backward 2).
        const double backwardPass = before.time.computeS / before.microBatches * 3.0 / 4.0;
        QVERIFY(reduce > 0.0);
        QVERIFY(after.time.dpCommExposedS < reduce);
        // 1e-2: the pass's split into forward and backward ignores the attention core's own backward ratio
        // and the logits, a few per cent of a layer at h = 6144.
        const double expected = std::max(lastBucket, reduce - backwardPass);
        QVERIFY2(std::abs(after.time.dpCommExposedS - expected) <= 1e-2 * reduce,
                 qPrintable(QStringLiteral("%1 vs %2").arg(after.time.dpCommExposedS).arg(expected)));
    }

    void collectiveLatencyGrowsWithTheTreesDepth() {
        PerfCalibration c;
        QCOMPARE(collectiveLatencyS(c, 1), c.collectiveLatencyS);
        // 16 nodes: four doublings. 1e-15 s: rounding only.
        const double sixteen = c.collectiveLatencyS + c.networkLatencyS + 4.0 * c.networkLatencyPerDoublingS;
        QVERIFY(std::abs(collectiveLatencyS(c, 16) - sixteen) < 1e-15);
        QVERIFY(collectiveLatencyS(c, 2) > collectiveLatencyS(c, 1));
    }

    void expectedMaxOfNormalsMatchesTheTables() {
        // Tabulated expected maxima of n standard normals (Harter, Biometrika 48, 1961; n = 2 is 1/sqrt(pi),
        // n = 3 is 3/(2 sqrt(pi))). 2e-3 relative: the table is interpolated in log2 n between 2^(k/8).
        const std::pair<int, double> known[] = {{2, 0.5641896},  {3, 0.8462844},   {5, 1.1629645},
                                                {10, 1.5387527}, {100, 2.5075937}, {1000, 3.2414474}};
        QCOMPARE(expectedMaxOfNormals(1), 0.0);
        for (const auto& [n, value] : known)
            QVERIFY2(
                std::abs(expectedMaxOfNormals(n) - value) <= 2e-3 * value,
                qPrintable(QStringLiteral("n %1: %2 vs %3").arg(n).arg(expectedMaxOfNormals(n)).arg(value)));
        QCOMPARE(stragglerWaitS(0.02, 1, 10.0), 0.0);
        QVERIFY(std::abs(stragglerWaitS(0.02, 100, 10.0) - 0.02 * expectedMaxOfNormals(100) * 10.0) < 1e-12);
    }

    void aStepWaitsForItsSlowestGpu() {
        // The same configuration on more GPUs (more data-parallel replicas) waits longer for its slowest,
        // as a share of the lockstep compute; with no spread it does not wait at all.
        const TrainingJob job = gptJob(40, 6144, 48, 51200, 2048, 4096);
        PerfCalibration c;
        ParallelConfig small{8, 8, 1, 1, 1, Recompute::Full, false, false};
        ParallelConfig large = small;
        large.dp = 64;
        const PerfEstimate a = estimate(makePerfProblem(job, vtrainCluster(c)), small);
        const PerfEstimate b = estimate(makePerfProblem(job, vtrainCluster(c)), large);
        const double shareA = a.time.stragglerWaitS / (a.time.computeS + a.time.pipelineBubbleS);
        const double shareB = b.time.stragglerWaitS / (b.time.computeS + b.time.pipelineBubbleS);
        QVERIFY(shareA > 0.0 && shareB > shareA);
        // 1e-9: rounding only.
        QVERIFY(std::abs(shareB - c.gpuSpeedSpread * expectedMaxOfNormals(512)) < 1e-9);
        c.gpuSpeedSpread = 0.0;
        QCOMPARE(estimate(makePerfProblem(job, vtrainCluster(c)), large).time.stragglerWaitS, 0.0);
        // The step's parts sum to its time, the wait included.
        QVERIFY(std::abs(b.time.total() - b.stepTimeS) < 1e-12 * b.stepTimeS);
    }

    void bubbleFraction_data() {
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("interleave");
        QTest::addColumn<int>("globalBatch");
        QTest::newRow("p4 m8") << 4 << 1 << 8;
        QTest::newRow("p4 v2 m8") << 4 << 2 << 8;
        QTest::newRow("p8 v3 m16") << 8 << 3 << 16;
        QTest::newRow("p2 m64") << 2 << 1 << 64;
    }
    void bubbleFraction() {
        QFETCH(int, pp);
        QFETCH(int, interleave);
        QFETCH(int, globalBatch);
        // Vocabulary 0 removes the output layer so every stage is equal; t = 1 removes TP communication.
        // SC21 Eq. 1: bubble / compute = (p - 1) / (v m) with m = B / (d b).
        const TrainingJob job = gptJob(48, 1024, 16, 0, 1024, globalBatch);
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c;
        c.pp = pp;
        c.interleave = interleave;
        const PerfEstimate e = estimate(problem, c);
        QVERIFY2(e.feasible, infeasibilityText(e.reason));
        const double expected = (pp - 1.0) / (interleave * static_cast<double>(globalBatch));
        QVERIFY(near(e.time.pipelineBubbleS / e.time.computeS, expected, 1e-12)); // same sums, rounding only
    }

    void modelStatesByHand() {
        // GPT l=2, h=1024, a=16, V=0, s=1024: 12*1024^2 + 13*1024 = 12,596,224 per layer, positions
        // 1024*1024. p = 1, t = 2: params per GPU (2*12,596,224 + 1,048,576)/2 = 13,120,512; 2 B weights + 4
        // B fp32 grads + 12 B Adam = 18 B -> 236,169,216 B. With distributed optimizer over d = 4: (2 + 4 +
        // 12/4) * 13,120,512 = 118,084,608 B.
        // Exact integers in doubles.
        QVERIFY(near(byHandStatesBytes(byHandJob(), seleneCluster()), 236169216.0, 1e-12));
        ParallelConfig c = byHandLayout();
        c.distributedOptimizer = true;
        const PerfEstimate e = estimate(makePerfProblem(byHandJob(), seleneCluster()), c);
        QVERIFY(near(e.memory.modelStatesBytes(), 118084608.0, 1e-12));
    }

    void fullyShardedStatesByHand() {
        // modelStatesByHand's 13,120,512 parameters per GPU under FSDP over d = 4: all 18 B sharded,
        // 18 x 13,120,512 / 4 = 59,042,304 B, plus the whole weights of two layers (12 x 1024^2 + 13 x 1024 =
        // 12,596,224 per layer, / t = 6,298,112, x 2 B x 2 layers = 25,192,448 B) and one layer's full fp32
        // gradient (6,298,112 x 4 = 25,192,448 B): 109,427,200 B.
        ParallelConfig c = byHandLayout();
        c.fullySharded = true;
        const PerfEstimate e = estimate(makePerfProblem(byHandJob(), seleneCluster()), c);
        QVERIFY(near(e.memory.modelStatesBytes(), 109427200.0, 1e-12)); // exact integers in doubles
        QCOMPARE(QString::fromStdString(c.label()), QStringLiteral("d4 t2 p1 b1 full fsdp"));
    }

    void fullyShardedTransfersByHand() {
        // The same job on a link so slow that no compute hides the transfers: per micro-batch FSDP gathers
        // the weights twice (g) and reduce-scatters the gradients once (r), each 3/4 of 13,120,512 parameters
        // x 2 B at 1 MB/s: g = r = 19.680768 s, and the first layer's gather of each pass, 2 g / 2 layers,
        // shows too. Only the compute hides the rest, so exposed + compute = m (2 g + r + g) = 2 x 78.723072
        // = 157.446144 s (m = 8 / (4 x 1) = 2; vocabulary 0, so every pass is layers only).
        const TrainingJob job = byHandJob();
        PerfCalibration calibration;
        calibration.intraNodeCommEfficiency = 1.0;
        calibration.collectiveLatencyS = 0.0;
        ClusterProfile cluster = seleneCluster(calibration);
        cluster.intraNodeBytesPerS = 1e6; // d x t = 8 GPUs: one node, so the gathers run over this link
        ParallelConfig c = byHandLayout();
        c.fullySharded = true;
        const PerfEstimate e = estimate(makePerfProblem(job, cluster), c);
        QVERIFY2(e.feasible, infeasibilityText(e.reason));
        QVERIFY(near(e.time.dpCommExposedS + e.time.computeS, 157.446144, 1e-9)); // rounding of the sums only
        // On the real link the prefetch hides all but the first layer's gathers: far below the slow link's.
        const PerfEstimate fast = estimate(makePerfProblem(job, seleneCluster(calibration)), c);
        QVERIFY(fast.time.dpCommExposedS < 0.01 * e.time.dpCommExposedS);
    }

    void fp8WeightsByHand() {
        // modelStatesByHand's 13,120,512 parameters per GPU trained in FP8 (peak added to the A100 for the
        // test): FP8 weights, 1 + 4 + 12 = 17 B -> 223,048,704 B; a BF16 copy keeps 18 B -> 236,169,216 B.
        TrainingJob job = byHandJob();
        job.precision = Precision::FP8;
        ClusterProfile cluster = seleneCluster();
        cluster.accelerator.peakFlops[Precision::FP8] = 2.0 * cluster.accelerator.peakFlops[Precision::BF16];
        QVERIFY(near(byHandStatesBytes(job, cluster), 223048704.0, 1e-12)); // exact integers in doubles
        TrainingJob bf16Weights = job;
        bf16Weights.fp8Weights = false;
        QVERIFY(near(byHandStatesBytes(bf16Weights, cluster), 236169216.0, 1e-12));

        // The distributed optimizer gathers the weights in their stored precision: with no gradient bytes
        // and no latency the exposed data-parallel time is that gather alone, half as long in FP8.
        cluster.calibration.dpGradientBytes = 0.0;
        cluster.calibration.collectiveLatencyS = 0.0;
        ParallelConfig c = byHandLayout();
        c.distributedOptimizer = true;
        const double fp8Gather = estimate(makePerfProblem(job, cluster), c).time.dpCommExposedS;
        const double bf16Gather = estimate(makePerfProblem(bf16Weights, cluster), c).time.dpCommExposedS;
        QVERIFY(fp8Gather > 0.0);
        QVERIFY(near(bf16Gather / fp8Gather, 2.0, 1e-12)); // one division: rounding only
    }

    void bf16GradientsByHand() {
        // modelStatesByHand's 13,120,512 parameters per GPU: fp32 gradients, 2 + 4 + 12 = 18 B ->
        // 236,169,216 B; a 16-bit gradient buffer, 2 + 2 + 12 = 16 B -> 209,928,192 B. FP32 training keeps
        // 32-bit gradients whatever the stack says: 4 + 4 + 12 = 20 B -> 262,410,240 B either way.
        const TrainingJob job = byHandJob();
        const ClusterProfile cluster = seleneCluster();
        QVERIFY(near(byHandStatesBytes(job, cluster), 236169216.0, 1e-12)); // exact integers in doubles
        TrainingJob bf16Gradients = job;
        bf16Gradients.bf16Gradients = true;
        QVERIFY(near(byHandStatesBytes(bf16Gradients, cluster), 209928192.0, 1e-12));
        TrainingJob fp32 = job;
        fp32.precision = Precision::FP32;
        QVERIFY(near(byHandStatesBytes(fp32, cluster), 262410240.0, 1e-12));
        fp32.bf16Gradients = true;
        QVERIFY(near(byHandStatesBytes(fp32, cluster), 262410240.0, 1e-12));
        // Only the memory changes: the step time is the same.
        QCOMPARE(estimate(makePerfProblem(bf16Gradients, cluster), byHandLayout()).stepTimeS,
                 estimate(makePerfProblem(job, cluster), byHandLayout()).stepTimeS);
    }

    void activationsByHand() {
        // Korthikanti: TP only, per layer s b h (10 + 24/t + 5 a s/(h t)); s=1024, b=2, h=1024, a=16, t=2:
        // sbh = 2,097,152; 10 + 12 + 5*16*1024/(1024*2) = 62 -> 130,023,424 B per layer; 2 layers, p = 1 (one
        // micro-batch in flight) -> 260,046,848 B; vocabulary 0 so no logits.
        const TrainingJob job = gptJob(2, 1024, 16, 0, 1024, 8);
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c;
        c.tp = 2;
        c.dp = 4;
        c.microBatch = 2;
        c.recompute = Recompute::None;
        QVERIFY(near(estimate(problem, c).memory.activationsBytes, 260046848.0, 1e-12)); // exact integers
    }

    void recomputedBlockByHand() {
        // activationsByHand's layer on 4 layers, one stage: kept, a layer stores 130,023,424 B; recomputed,
        // only its input 2 s b h = 4,194,304 B (no SP). Full recomputation of every layer holds the four
        // inputs and one rebuilt layer: 146,800,640 B. A block of N stores N inputs and keeps 4 - N layers,
        // and needs no room to rebuild (the kept layers behind the block are freed first):
        // N = 1: 394,264,576; N = 2: 268,435,456; N = 3: 142,606,336 B.
        const TrainingJob job = gptJob(4, 1024, 16, 0, 1024, 8);
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c{4, 2, 1, 2, 1, Recompute::Full, false, false, 1};
        const PerfEstimate full = estimate(problem, c);
        QVERIFY(near(full.memory.activationsBytes, 146800640.0, 1e-12)); // exact integers
        const double byHand[] = {394264576.0, 268435456.0, 142606336.0};
        c.recompute = Recompute::None;
        const PerfEstimate none = estimate(problem, c);
        c.recompute = Recompute::Full;
        for (int n = 1; n <= 3; ++n) {
            c.recomputeLayers = n;
            const PerfEstimate block = estimate(problem, c);
            QVERIFY2(near(block.memory.activationsBytes, byHand[n - 1], 1e-12), c.label().c_str());
            // Time: each recomputed layer adds its forward pass and its two tensor-parallel all-reduces,
            // so a block of n costs n / 4 of what recomputing every layer adds (rounding only).
            const double share = n / 4.0;
            QVERIFY(near(block.time.computeS - none.time.computeS,
                         share * (full.time.computeS - none.time.computeS), 1e-9));
            QVERIFY(near(block.time.tpCommS - none.time.tpCommS,
                         share * (full.time.tpCommS - none.time.tpCommS), 1e-9));
            QVERIFY(
                near(block.hardwareFlopsPerGpu * block.stepTimeS - none.hardwareFlopsPerGpu * none.stepTimeS,
                     share * (full.hardwareFlopsPerGpu * full.stepTimeS -
                              none.hardwareFlopsPerGpu * none.stepTimeS),
                     1e-9));
        }
        QCOMPARE(c.label(), std::string("d4 t2 p1 b2 block3"));
        // A block needs full recomputation to limit.
        c.recompute = Recompute::Selective;
        QCOMPARE(estimate(problem, c).reason, Infeasibility::BadDegrees);
    }

    void recomputedBlockCountsPerModelChunk() {
        // Megatron's block method counts N per model chunk: with v = 2 chunks per stage, N = 1 recomputes
        // two layers of the stage, the same as N = 2 without interleaving.
        ParallelConfig c{1, 1, 2, 1, 2, Recompute::Full, false, false, 1};
        c.recomputeLayers = 1;
        QCOMPARE(c.recomputedLayers(8), 2);
        c.interleave = 1;
        QCOMPARE(c.recomputedLayers(8), 1);
        c.recomputeLayers = 20;
        QCOMPARE(c.recomputedLayers(8), 8);
        c.recomputeLayers = 0; // every layer
        QCOMPARE(c.recomputedLayers(8), 8);
        c.recompute = Recompute::None;
        QCOMPARE(c.recomputedLayers(8), 0);
    }

    void flashActivationsByHand() {
        // The activationsByHand case with FlashAttention: no 5as/h term, s b h (10 + 24/t) = 2,097,152 x 22 =
        // 46,137,344 B, plus the fp32 log-sum-exp 4 a s b / t = 4 x 16 x 1024 x 2 / 2 = 65,536 B: 46,202,880
        // B per layer, 92,405,760 B for the 2 layers. Selective recomputation keeps the same (it would
        // rebuild only the scores flash never stores) and costs the same time.
        TrainingJob job = gptJob(2, 1024, 16, 0, 1024, 8);
        job.attention = AttentionKernel::Flash;
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c;
        c.tp = 2;
        c.dp = 4;
        c.microBatch = 2;
        c.recompute = Recompute::None;
        const PerfEstimate none = estimate(problem, c);
        QVERIFY(near(none.memory.activationsBytes, 92405760.0, 1e-12)); // exact integers
        c.recompute = Recompute::Selective;
        const PerfEstimate selective = estimate(problem, c);
        QCOMPARE(selective.memory.activationsBytes, none.memory.activationsBytes);
        QCOMPARE(selective.stepTimeS, none.stepTimeS);
        QCOMPARE(selective.hardwareFlopsPerGpu, selective.modelFlopsPerGpu); // nothing recomputed
    }

    void llamaShapeActivationsByHand() {
        // A gated, GQA layer: h = 1024, a = 16, g = 4 (K and V a quarter of Q), f = 2816 (2.75 h), s = 1024,
        // b = 1, t = 2, no SP, flash, no recomputation. Whole on every rank: two norm inputs 4 + QKV input 2
        // + MLP input 2 + two dropout masks 2 = 10 s b h; split over t: Q 2 + K 0.5 + V 0.5 + projection
        // input 2 + gate, up and product 3 x 2 x 2.75 = 21.5 s b h. Per layer s b h (10 + 21.5/2) = 1,048,576
        // x 20.75 = 21,757,952 B, plus the log-sum-exp 4 x 16 x 1024 / 2 = 32,768 B: 21,790,720 B; two
        // layers, one micro-batch in flight (p = 1), no vocabulary.
        TrainingJob job;
        job.model.layers = 2;
        job.model.hidden = 1024;
        job.model.heads = 16;
        job.model.kvHeads = 4;
        job.model.ffnHidden = 2816;
        job.model.gatedMlp = true;
        job.model.vocab = 0;
        job.model.seqLen = 1024;
        job.globalBatch = 8;
        job.attention = AttentionKernel::Flash;
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c;
        c.tp = 2;
        c.dp = 4;
        c.recompute = Recompute::None;
        QVERIFY(
            near(estimate(problem, c).memory.activationsBytes, 2.0 * 21790720.0, 1e-12)); // exact integers
        // Trained without dropout: no masks, 8 instead of 10 whole, s b h (8 + 10.75) = 19,660,800 B, plus
        // the log-sum-exp: 19,693,568 B per layer.
        job.model.dropout = false;
        QVERIFY(near(estimate(makePerfProblem(job, seleneCluster()), c).memory.activationsBytes,
                     2.0 * 19693568.0, 1e-12)); // exact integers
        // The materialized kernel also drops the dropped-out scores: 2 a s / h = 32 instead of 5 a s / h = 80
        // (x s b h / t), so per layer s b h (8 + 10.75 + 16) = 36,438,016 B without dropout.
        job.attention = AttentionKernel::Materialized;
        QVERIFY(near(estimate(makePerfProblem(job, seleneCluster()), c).memory.activationsBytes,
                     2.0 * 36438016.0, 1e-12)); // exact integers
    }

    void fp8CastTrafficByHand() {
        // FP8 quantizes the linear layers' inputs and outputs: per token and layer (h = 1024, GPT MLP f =
        // 4096, no GQA) QKV 1024 + 3072, projection 2 x 1024, MLP 2 x (1024 + 4096): 16,384 elements; at X
        // bytes each over HBM, forward, and twice that backward. With t = 1, m = 8 micro-batches of 1024
        // tokens, 2 layers, no recomputation, no pipeline: compute grows by 3 x X x 1024 x 16,384 / 2.039e12
        // x 2 x 8 s.
        TrainingJob job = gptJob(2, 1024, 16, 0, 1024, 8);
        job.precision = Precision::FP8;
        ClusterProfile cluster = seleneCluster();
        cluster.accelerator.peakFlops[Precision::FP8] = 624e12; // an FP8 peak for the A100 of this test
        PerfCalibration cal;
        cal.fp8CastBytesPerElement = 0.0;
        cluster.calibration = cal;
        ParallelConfig c;
        c.recompute = Recompute::None;
        const double without = estimate(makePerfProblem(job, cluster), c).time.computeS;
        cluster.calibration.fp8CastBytesPerElement = 5.0;
        const double with = estimate(makePerfProblem(job, cluster), c).time.computeS;
        const double expected = 3.0 * 5.0 * 1024.0 * 16384.0 / 2.039e12 * 2.0 * 8.0;
        QVERIFY2(near(with - without, expected, 1e-9), // a difference of two sums: rounding only
                 qPrintable(QStringLiteral("%1 vs %2").arg(with - without).arg(expected)));
        job.precision = Precision::BF16; // BF16 quantizes nothing
        QCOMPARE(makePerfProblem(job, cluster).fp8CastElementsPerToken, 0.0);
    }

    void flashIsTheDefaultWhereTheAcceleratorHasIt() {
        TrainingJob job = gptJob(2, 1024, 16, 0, 1024, 8);
        job.attention.reset();
        ClusterProfile cluster = seleneCluster();
        QVERIFY(makePerfProblem(job, cluster).flashAttention);
        cluster.accelerator.flashAttention = false; // as the V100 preset
        QVERIFY(!makePerfProblem(job, cluster).flashAttention);
        job.attention = AttentionKernel::Flash; // a named kernel wins
        QVERIFY(makePerfProblem(job, cluster).flashAttention);
    }

    void flashAttentionRunsTheCausalHalf() {
        // Only the attention core differs between the kernels, so the difference in forward compute is the
        // materialized core (two GEMMs of F/2 each) minus flash's (one kernel of F/2, the causal half), and
        // backward repeats each at its own ratio (2 and 2.5). With the efficiency curve flat (half-saturation
        // tiny) every kernel runs at e_max: materialized attention = F/(P e), flash = F/(2 P e), so the layer
        // (fwd + bwd) differs by F/(P e) x (3 - 0.5 x 3.5) = 1.25 F/(P e). No recomputation, no pipeline, and
        // no memory-bound traffic (the stored scores would add theirs to the materialized form).
        PerfCalibration cal;
        cal.gemmHalfSaturationGflop = 1e-9;
        cal.gemmSaturationExponent = 1.0;
        cal.memoryTrafficPerActivationByte = 0.0;
        TrainingJob job = gptJob(2, 1024, 16, 0, 4096, 8);
        const ClusterProfile cluster = seleneCluster(cal);
        job.attention = AttentionKernel::Materialized;
        const PerfProblem materialized = makePerfProblem(job, cluster);
        job.attention = AttentionKernel::Flash;
        const PerfProblem flash = makePerfProblem(job, cluster);
        ParallelConfig c;
        c.dp = 8;
        c.recompute = Recompute::None;
        const double difference = estimate(materialized, c).time.computeS - estimate(flash, c).time.computeS;
        // m = 1 micro-batch of 4096 tokens; F = tokens x 4 s h = 4096 x 4 x 4096 x 1024 per layer, 2 layers.
        const double f = 4096.0 * 4.0 * 4096.0 * 1024.0;
        const double perLayer = 1.25 * f / (312e12 * cal.gemmEfficiencyMax);
        // 1e-6: the flat curve's efficiency is within 1e-9 of e_max (x ~ 1e12 at these sizes), and the
        // difference of two compute times loses a few more digits.
        QVERIFY2(near(difference, 2.0 * perLayer, 1e-6),
                 qPrintable(QStringLiteral("%1 vs %2").arg(difference).arg(2.0 * perLayer)));
    }

    void crossNodeTensorParallelByHand() {
        // t = 6 on 8-GPU nodes: groups straddle a node boundary holding at least gcd(6, 8) = 2 GPUs in a
        // node, so the ring runs over min(NVLink, 2 x 25 GB/s) = 50 GB/s (efficiencies 1, latency 0).
        // Per all-reduce 2 x 5/6 x (1024 x 1536 x 2 B = 3,145,728 B) / 50e9 = 1.048576e-4 s; 4 per layer
        // (no recomputation), 2 layers, m = 8 micro-batches: 6.7108864e-3 s.
        PerfCalibration cal;
        cal.intraNodeCommEfficiency = 1.0;
        cal.interNodeCommEfficiency = 1.0;
        cal.collectiveLatencyS = 0.0;
        cal.networkLatencyS = 0.0;
        cal.networkLatencyPerDoublingS = 0.0;
        PerfProblem problem = makePerfProblem(gptJob(2, 1536, 12, 0, 1024, 8), seleneCluster(cal));
        ParallelConfig c;
        c.tp = 6;
        c.recompute = Recompute::None;
        QCOMPARE(int(estimate(problem, c).reason), int(Infeasibility::TpCrossesNodes));
        problem.crossNodeTp = true;
        const PerfEstimate e = estimate(problem, c);
        QVERIFY(near(e.time.tpCommS, 6.7108864e-3, 1e-12)); // rounding only
        // Inside a node (t = 4 divides 8) the same formula runs at NVLink's 300 GB/s.
        c.tp = 4;
        const double inside = 8.0 * 2.0 * 4.0 * (2.0 * 3.0 / 4.0 * 3145728.0 / 300e9);
        QVERIFY(near(estimate(problem, c).time.tpCommS, inside, 1e-12));
    }

    void pipelineExchangesByHand() {
        // A pure pipeline inside one node (p = 4, t = d = 1, 6 layers of h = 1024, s = 1024, b = 1, m = 8;
        // 6 + 2 = p x v for v = 2, Megatron-Core's split):
        // each exchange moves 1024 x 1024 x 2 B = 2,097,152 B over NVLink's 300 GB/s (efficiency 1, latency
        // 0): 6.990506e-6 s. Blocking, every exchange also pays the fixed cost X: 2 (v m + p - 1) exchanges,
        // 22 with v = 1 and 38 with v = 2.
        PerfCalibration cal;
        cal.intraNodeCommEfficiency = 1.0;
        cal.collectiveLatencyS = 0.0;
        cal.pipelineTransferOverheadS = 5e-4;
        const PerfProblem problem = makePerfProblem(gptJob(6, 1024, 16, 0, 1024, 8), seleneCluster(cal));
        ParallelConfig c;
        c.pp = 4;
        c.recompute = Recompute::None;
        const double transfer = 2097152.0 / 300e9;
        QVERIFY(near(estimate(problem, c).time.ppCommS, 22.0 * (transfer + 5e-4), 1e-12)); // rounding only
        c.interleave = 2;
        QVERIFY(near(estimate(problem, c).time.ppCommS, 38.0 * (transfer + 5e-4), 1e-12));
        // Overlapped (Megatron-Core's overlap_p2p_comm): only the fill and drain wait, 2 (p - 1) = 6
        // transfers, without the fixed cost; each steady-state transfer hides behind a chunk's pass (far
        // longer than 7 us here).
        PerfProblem overlapped = problem;
        overlapped.calibration.pipelineOverlap = 1.0;
        QVERIFY(near(estimate(overlapped, c).time.ppCommS, 6.0 * transfer, 1e-12));
        // Plain 1F1B blocks whatever the stack.
        c.interleave = 1;
        QVERIFY(near(estimate(overlapped, c).time.ppCommS, 22.0 * (transfer + 5e-4), 1e-12));

        // Across nodes: p = 16 with t = d = 1 (neighbours one rank apart) on 8-GPU nodes puts 8 stages in a
        // node, and the stage at a node's edge sends one way over the 25 GB/s network and the other over
        // NVLink: (2,097,152 / 25e9 + 2,097,152 / 300e9) / 2 per exchange, 2 (m + p - 1) = 46 of them (16
        // layers, no fixed cost). With t = 8 every neighbour is a node away: the network alone (for the
        // piece each rank sends; the receiving group then gathers the pieces over NVLink).
        PerfCalibration plain = cal;
        plain.pipelineTransferOverheadS = 0.0;
        plain.interNodeCommEfficiency = 1.0;
        const PerfProblem deep = makePerfProblem(gptJob(16, 1024, 16, 0, 1024, 8), seleneCluster(plain));
        ParallelConfig wide;
        wide.pp = 16;
        wide.recompute = Recompute::None;
        const double edge = (2097152.0 / 25e9 + 2097152.0 / 300e9) / 2.0;
        QVERIFY(near(estimate(deep, wide).time.ppCommS, 46.0 * edge, 1e-12));
        wide.tp = 8;
        const double piece = 2097152.0 / 8.0; // scattered over t, gathered again over NVLink (no SP)
        QVERIFY(near(estimate(deep, wide).time.ppCommS, 46.0 * (piece / 25e9 + 7.0 * piece / 300e9), 1e-12));
    }

    void contextParallelSplitsTheSequence() {
        // Flash activations and the log-sum-exp are linear in the tokens a GPU holds: cp = 2 halves them.
        TrainingJob job = gptJob(2, 1024, 16, 0, 4096, 8);
        job.attention = AttentionKernel::Flash;
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c;
        c.tp = 2;
        c.dp = 4;
        c.recompute = Recompute::None;
        const PerfEstimate one = estimate(problem, c);
        c.cp = 2;
        const PerfEstimate two = estimate(problem, c);
        QCOMPARE(two.gpus, 16);
        QVERIFY(near(two.memory.activationsBytes, one.memory.activationsBytes / 2.0, 1e-12));
        QVERIFY(two.stepTimeS < one.stepTimeS); // half the work per GPU, comm inside the node
        // Ring attention needs the fused kernel and a sequence that splits into 2 x cp chunks.
        job.attention = AttentionKernel::Materialized;
        QCOMPARE(int(estimate(makePerfProblem(job, seleneCluster()), c).reason),
                 int(Infeasibility::ContextParallelNeedsFlash));
        c.cp = 3;
        QCOMPARE(int(estimate(problem, c).reason), int(Infeasibility::SequenceNotDivisible));
    }

    void contextParallelAcrossNodesExposesTheRing() {
        // The same configuration with its cp ranks in one node and across nodes (one GPU per node): only the
        // K/V ring's bandwidth differs, so only the exposed cp time may grow.
        TrainingJob job = gptJob(2, 1024, 16, 0, 32768, 8);
        job.attention = AttentionKernel::Flash;
        ClusterProfile cluster = seleneCluster();
        ParallelConfig c;
        c.dp = 8;
        c.cp = 8;
        c.recompute = Recompute::None;
        const PerfEstimate inside = estimate(makePerfProblem(job, cluster), c);
        cluster.gpusPerNode = 1;
        const PerfEstimate across = estimate(makePerfProblem(job, cluster), c);
        QCOMPARE(across.time.computeS, inside.time.computeS);
        QVERIFY(across.time.cpCommExposedS >= inside.time.cpCommExposedS);
        QVERIFY(across.time.cpCommExposedS > 0.0);
    }

    void interleaveFitsMegatronsSplits_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("interleave");
        QTest::addColumn<bool>("fits");
        QTest::newRow("equal chunks") << 96 << 8 << 3 << true;
        QTest::newRow("unequal chunks") << 96 << 8 << 5 << false;
        // 126 + 2 = 128 slots: 8 per stage, the embedding and the loss take one each at the ends (7 + 14 x 8
        // + 7), so v = 2, 4 and 8 give equal chunks; v = 3 does not.
        QTest::newRow("Llama 3 405B, v = 8") << 126 << 16 << 8 << true;
        QTest::newRow("Llama 3 405B, v = 2") << 126 << 16 << 2 << true;
        QTest::newRow("Llama 3 405B, v = 3") << 126 << 16 << 3 << false;
        QTest::newRow("BLOOM 70 on 12, v = 2") << 70 << 12 << 2 << true; // 72 slots, 3 per chunk
        QTest::newRow("BLOOM 70 on 12, v = 4") << 70 << 12 << 4 << false;
        QTest::newRow("no interleave, uneven") << 13 << 4 << 1 << true;
        QTest::newRow("more stages than layers") << 3 << 4 << 1 << false;
    }
    void interleaveFitsMegatronsSplits() {
        QFETCH(int, layers);
        QFETCH(int, stages);
        QFETCH(int, interleave);
        QTEST(interleaveFits(layers, stages, interleave), "fits");
    }

    void korthikantiMemory_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("microBatch");
        QTest::addColumn<int>("interleave");
        QTest::addColumn<double>("statesGib");
        QTest::addColumn<double>("noneGib");
        QTest::addColumn<double>("selectiveGib");
        // docs/MODEL.md section 3 (Korthikanti Fig. 1 as encoded by Calculon). The published GiB are
        // reproduced with micro-batch 4 for 22B and interleave 3 for 175B and 530B (docs/VALIDATION.md
        // explains).
        QTest::newRow("22B") << 48 << 6144 << 64 << 8 << 1 << 4 << 1 << 45.56 << 59.25 << 9.56;
        QTest::newRow("175B") << 96 << 12288 << 96 << 8 << 8 << 1 << 3 << 45.56 << 66.84 << 12.35;
        QTest::newRow("530B") << 105 << 20480 << 128 << 8 << 35 << 1 << 3 << 31.64 << 114.02 << 23.08;
        QTest::newRow("1T") << 128 << 25600 << 160 << 8 << 64 << 1 << 1 << 32.96 << 131.25 << 26.56;
    }
    void korthikantiMemory() {
        QFETCH(int, layers);
        QFETCH(int, hidden);
        QFETCH(int, heads);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, microBatch);
        QFETCH(int, interleave);
        QFETCH(double, statesGib);
        QFETCH(double, noneGib);
        QFETCH(double, selectiveGib);
        // Enough micro-batches (m = 2p) for a full 1F1B pipeline; d = 1.
        const TrainingJob job = gptJob(layers, hidden, heads, 51200, 2048, 2 * pp * microBatch);
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        ParallelConfig c;
        c.tp = tp;
        c.pp = pp;
        c.microBatch = microBatch;
        c.interleave = interleave;
        c.recompute = Recompute::None;
        PerfEstimate e;
        estimateMemory(problem, c, e);
        const double states = e.memory.modelStatesBytes() / kGiB;
        // Done-when target: within 10 % of the published GiB in both modes.
        QVERIFY2(near(states, statesGib, 0.10), qPrintable(QString::number(states)));
        QVERIFY2(near(e.memory.activationsBytes / kGiB, noneGib, 0.10),
                 qPrintable(QString::number(e.memory.activationsBytes / kGiB)));
        c.recompute = Recompute::Selective;
        c.sequenceParallel = true;
        estimateMemory(problem, c, e);
        QVERIFY2(near(e.memory.activationsBytes / kGiB, selectiveGib, 0.10),
                 qPrintable(QString::number(e.memory.activationsBytes / kGiB)));
    }

    void infeasibleReasons_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("microBatch");
        QTest::addColumn<int>("interleave");
        QTest::addColumn<bool>("sequenceParallel");
        QTest::addColumn<int>("reason");
        // GPT-3 175B shape: l96 h12288 a96, B = 1536.
        QTest::newRow("t does not divide heads")
            << 1 << 7 << 1 << 1 << 1 << false << int(Infeasibility::HeadsNotDivisible);
        QTest::newRow("more stages than layers")
            << 1 << 1 << 97 << 1 << 1 << false << int(Infeasibility::LayersNotDivisible);
        QTest::newRow("interleaved chunks unequal")
            << 1 << 8 << 8 << 1 << 5 << false << int(Infeasibility::LayersNotDivisible);
        QTest::newRow("uneven stages") << 1 << 8 << 5 << 1 << 1 << false << int(Infeasibility::OutOfMemory);
        QTest::newRow("batch") << 5 << 8 << 8 << 1 << 1 << false << int(Infeasibility::BatchNotDivisible);
        QTest::newRow("interleave without pipeline")
            << 1 << 8 << 1 << 1 << 2 << false << int(Infeasibility::InterleaveNeedsPipeline);
        QTest::newRow("SP without TP")
            << 1 << 1 << 8 << 1 << 1 << true << int(Infeasibility::SequenceParallelNeedsTp);
        QTest::newRow("175B on one GPU") << 1 << 1 << 1 << 1 << 1 << false << int(Infeasibility::OutOfMemory);
        QTest::newRow("fits") << 8 << 8 << 8 << 1 << 1 << false << int(Infeasibility::None);
        // t = 16 spans two 8-GPU nodes and t = 3 makes some groups straddle a node boundary.
        QTest::newRow("t beyond a node")
            << 1 << 16 << 8 << 1 << 1 << false << int(Infeasibility::TpCrossesNodes);
        QTest::newRow("t straddles nodes")
            << 1 << 3 << 8 << 1 << 1 << false << int(Infeasibility::TpCrossesNodes);
    }
    void infeasibleReasons() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, microBatch);
        QFETCH(int, interleave);
        QFETCH(bool, sequenceParallel);
        QFETCH(int, reason);
        const PerfProblem problem =
            makePerfProblem(gptJob(96, 12288, 96, 51200, 2048, 1536), seleneCluster());
        ParallelConfig c{dp, tp, pp, microBatch, interleave, Recompute::Full, sequenceParallel, false, 1};
        const PerfEstimate e = estimate(problem, c);
        QCOMPARE(int(e.reason), reason);
        QCOMPARE(e.feasible, reason == int(Infeasibility::None));
    }

    void stageSplitByHand_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("middle");
        QTest::addColumn<int>("last");
        QTest::newRow("even") << 96 << 8 << 12 << 12 << 12;
        QTest::newRow("one stage") << 7 << 1 << 7 << 0 << 7;
        QTest::newRow("two stages, the first takes the extra") << 5 << 2 << 3 << 0 << 2;
        // BLOOM-176B as trained: 5 + 10 x 6 + 5 (the embeddings counted as a layer at each end).
        QTest::newRow("BLOOM 70 on 12") << 70 << 12 << 5 << 6 << 5;
        // Llama 3 405B as trained: one layer fewer on the first and the last stage.
        QTest::newRow("Llama 3 126 on 16") << 126 << 16 << 7 << 8 << 7;
        QTest::newRow("one extra") << 13 << 4 << 3 << 4 << 3;                         // 3 4 3 3
        QTest::newRow("every middle full, then the first") << 15 << 4 << 4 << 4 << 3; // 4 4 4 3
    }
    void stageSplitByHand() {
        QFETCH(int, layers);
        QFETCH(int, stages);
        const StageSplit split = splitLayers(layers, stages);
        QTEST(split.first, "first");
        QTEST(split.middle, "middle");
        QTEST(split.last, "last");
    }

    void unevenStagesRunAtTheSlowestStagesPace() {
        // GPT-3 175B's shape with one layer too many or too few for p = 8 lies between the two even
        // splits around it: 97 layers (13 on stage 1, 12 elsewhere) is no faster than 96 and no slower
        // than 104 (13 everywhere), and the same holds for memory.
        const ClusterProfile cluster = seleneCluster();
        const ParallelConfig config{8, 8, 8, 1, 1, Recompute::Full, false, false};
        auto at = [&](int layers) {
            return estimate(makePerfProblem(gptJob(layers, 12288, 96, 51200, 2048, 1536), cluster), config);
        };
        const PerfEstimate even = at(96), uneven = at(97), evenMore = at(104);
        QVERIFY(uneven.feasible);
        QCOMPARE(uneven.stages.middle, 13);
        QVERIFY(!uneven.stages.even());
        QVERIFY(even.time.computeS < uneven.time.computeS);
        QVERIFY(uneven.time.computeS <= evenMore.time.computeS);
        QVERIFY(even.memory.totalBytes() < uneven.memory.totalBytes());
        QVERIFY(uneven.memory.totalBytes() <= evenMore.memory.totalBytes());
        // The bubble is (p - 1) average stages and the average grows by one layer in 97 / 8: the uneven
        // layout's step lies strictly between the two even ones.
        QVERIFY(even.stepTimeS < uneven.stepTimeS && uneven.stepTimeS < evenMore.stepTimeS);
    }

    void tensorParallelAcrossNodesPaysTheNetwork() {
        // Same model and micro-batch; t = 16 spans two 8-GPU nodes. Per layer the TP volume grows only by the
        // ring factor (2*15/16 vs 2*7/8, +7 %), so a >1.5x larger TP time can only come from the slower
        // network.
        PerfProblem problem = makePerfProblem(gptJob(40, 6144, 48, 51200, 2048, 1024), vtrainCluster());
        problem.crossNodeTp = true;
        ParallelConfig t8{32, 8, 1, 2, 1, Recompute::Full, false, false, 1};
        ParallelConfig t16{16, 16, 1, 2, 1, Recompute::Full, false, false, 1};
        const PerfEstimate e8 = estimate(problem, t8);
        const PerfEstimate e16 = estimate(problem, t16);
        // Per micro-batch and layer (t16 has twice the micro-batches per replica).
        const double perMb8 = e8.time.tpCommS / e8.microBatches;
        const double perMb16 = e16.time.tpCommS / e16.microBatches;
        QVERIFY2(perMb16 > 1.5 * perMb8, qPrintable(QStringLiteral("%1 vs %2").arg(perMb16).arg(perMb8)));
        QVERIFY(e16.stepTimeS > e8.stepTimeS);
    }

    void powerLimitDefaultFollowsZeus() {
        // No measured curve: a 400 W A100 capped at 300 W is at 0.75 TDP, the Zeus A40 point 225 W of 300 W:
        // throughput 3847/3909 = 0.984139, power 196.4/235.2 = 0.835034 (exact table values, 1e-6 rounding).
        const PowerLimitModel model(seleneCluster());
        const PowerLimitEffect effect = model.at(300.0);
        QVERIFY(!effect.measured);
        QVERIFY(near(effect.throughputFactor, 3847.0 / 3909.0, 1e-6));
        QVERIFY(near(effect.powerFactor, 196.4 / 235.2, 1e-6));
        QCOMPARE(model.at(0.0).throughputFactor, 1.0); // default limit = TDP: uncapped
    }

    void powerLimitMeasuredCurveInterpolates() {
        // Measured curve 200 W -> 0.8 at 180 W, 400 W -> 1.0 at 360 W. At 300 W (midway): throughput 0.9,
        // power (180+360)/2 / 360 = 0.75 (linear interpolation; 1e-12 rounding).
        ClusterProfile cluster = seleneCluster();
        cluster.powerLimitCurve = {{200.0, 0.8, 180.0}, {400.0, 1.0, 360.0}};
        const PowerLimitEffect effect = PowerLimitModel(cluster).at(300.0);
        QVERIFY(effect.measured);
        QVERIFY(near(effect.throughputFactor, 0.9, 1e-12));
        QVERIFY(near(effect.powerFactor, 0.75, 1e-12));
    }

    void powerCaseByHand() {
        // A100 TDP 400 W: the prototype's phase powers x 400/300: forward 280 -> 373.33 W, backward 320 ->
        // 426.67 W capped at the 400 W limit, communication 180 -> 240 W, optimizer 250 -> 333.33 W.
        const PerfProblem problem = makePerfProblem(gptJob(40, 6144, 48, 51200, 2048, 1024), seleneCluster());
        const ParallelConfig c{32, 8, 1, 2, 1, Recompute::Full, false, false, 1};
        const PerfEstimate e = estimate(problem, c);
        QVERIFY(near(e.power.forwardW, 280.0 * 4.0 / 3.0, 1e-12));
        QCOMPARE(e.power.backwardW, 400.0);
        QVERIFY(near(e.power.commW, 240.0, 1e-12));
        QVERIFY(near(e.power.optimizerW, 250.0 * 4.0 / 3.0, 1e-12));
        // Full recomputation: each layer runs forward twice and backward (2 forward times) once, so a
        // saturated compute phase would draw (373.33 + 400)/2 = 386.67 W; GEMMs below saturation and
        // memory-bound kernels draw the optimizer's 333.33 W, so the compute phase lies between the two.
        QVERIFY(e.power.computeW > e.power.optimizerW && e.power.computeW < (373.34 + 400.0) / 2.0);
        // The step-weighted average must lie between the communication and compute powers.
        QVERIFY(e.power.gpuAverageW > e.power.commW && e.power.gpuAverageW < e.power.backwardW);
        // Bookkeeping (rounding only): 256 GPUs on 32 nodes with 1,525 W overhead each, PUE 1.1.
        QVERIFY(near(e.power.itPowerW, 256 * e.power.gpuAverageW + 32 * 1525.0, 1e-12));
        QVERIFY(near(e.power.facilityPowerW, 1.1 * e.power.itPowerW, 1e-12));
        QVERIFY(near(e.energyPerTokenJ * e.tokensPerS, e.power.facilityPowerW, 1e-12));
        // A 250 W cap: slower compute, less power.
        const PerfEstimate capped = estimate(problem, c, 250.0);
        QVERIFY(capped.stepTimeS > e.stepTimeS);
        QVERIFY(capped.power.itPowerW < e.power.itPowerW);
        QVERIFY(capped.power.backwardW <= 250.0);
    }

    void gpuPowerFollowsUtilisation() {
        // The same 24-layer GPT on one DGX A100 at widths 1024 and 2560: the small GEMMs run far below the
        // matrix units' best efficiency, so the compute phase draws less. Each lies between the memory-bound
        // power (250 -> 333.33 W, the floor of a stalled GEMM) and the backward phase's 400 W.
        const ClusterProfile cluster = seleneCluster();
        const ParallelConfig c{8, 1, 1, 1, 1, Recompute::Selective, false, false, 1};
        auto at = [&](int hidden) {
            return estimate(makePerfProblem(gptJob(24, hidden, 16, 51200, 2048, 64), cluster), c);
        };
        const PerfEstimate narrow = at(1024), wide = at(2560);
        QVERIFY(narrow.feasible && wide.feasible);
        QVERIFY(narrow.mfu < wide.mfu);
        QVERIFY2(
            narrow.power.computeW < wide.power.computeW - 10.0, // 10 W: well clear of rounding
            qPrintable(QStringLiteral("%1 vs %2 W").arg(narrow.power.computeW).arg(wide.power.computeW)));
        for (const PerfEstimate* e : {&narrow, &wide}) {
            QVERIFY(e->power.computeW > e->power.optimizerW);
            QVERIFY(e->power.computeW < e->power.backwardW);
        }
    }

    void flopsConventions() {
        // Hardware FLOP/s count the recomputed forward, model FLOP/s do not: for full recomputation the ratio
        // is (4 F_layers + 3 F_logits)/(3 F_layers + 3 F_logits) (rounding only).
        const TrainingJob job = gptJob(40, 6144, 48, 51200, 2048, 1024);
        const PerfProblem problem = makePerfProblem(job, seleneCluster());
        const PerfEstimate e =
            estimate(problem, ParallelConfig{32, 8, 1, 2, 1, Recompute::Full, false, false});
        const double layers = problem.tokensPerIteration * 40 *
                              (problem.linearFlopsPerTokenLayer + problem.attentionFlopsPerTokenLayer);
        const double logits = problem.tokensPerIteration * problem.logitFlopsPerToken;
        QVERIFY(near(e.hardwareFlopsPerGpu / e.modelFlopsPerGpu,
                     (4 * layers + 3 * logits) / (3 * layers + 3 * logits), 1e-12));
        QVERIFY(near(e.mfu, e.modelFlopsPerGpu / 312e12, 1e-12));
    }

    void measuredMenu() {
        OperatingPointTable table;
        table.points.push_back({4, 1, 1, std::nullopt, std::nullopt, 1000.0, 1200.0, 2});
        table.points.push_back({8, 1, 1, std::nullopt, 300.0, 1800.0, 2000.0, 3});
        const ExecutionMenu menu = buildExecutionMenu(table, seleneCluster());
        QCOMPARE(menu.size(), size_t(2));
        QVERIFY(menu[0].measured && menu[1].measured);
        QCOMPARE(menu[0].gpusActive, 4);
        // One node's overhead (1,525 W) on top of the measured GPU power (exact sums).
        QCOMPARE(menu[0].activePowerW, 1200.0 + 1525.0);
        QCOMPARE(menu[1].powerLimitW, 300.0);
        // A row without degrees measures the job's allocation: the scenario's GPUs when given (one node's
        // overhead for 8 GPUs), else the whole cluster's.
        OperatingPointTable whole;
        whole.points.push_back(
            {std::nullopt, std::nullopt, std::nullopt, std::nullopt, 250.0, 0.01, 300.0, 2});
        QCOMPARE(buildExecutionMenu(whole, seleneCluster(), 8).front().gpusActive, 8);
        QCOMPARE(buildExecutionMenu(whole, seleneCluster(), 8).front().activePowerW, 300.0 + 1525.0);
        QCOMPARE(buildExecutionMenu(whole, seleneCluster()).front().gpusActive,
                 seleneCluster().gpusAvailable);
        // Issue 14: what the measurement covers decides what is added, so nothing is counted twice.
        OperatingPointTable wall = table;
        wall.points[0].powerScope = PowerScope::Node;     // whole servers at the wall: no node overhead
        wall.points[1].powerScope = PowerScope::Facility; // cooling included: PUE taken back out
        const ExecutionMenu scoped = buildExecutionMenu(wall, seleneCluster());
        QCOMPARE(scoped[0].activePowerW, 1200.0);
        QCOMPARE(scoped[0].gpuPowerW, 0.0); // the boards' share was not measured
        // x / PUE x PUE: one rounding each way, within 2 ulp.
        QVERIFY(std::abs(scoped[1].activePowerW * seleneCluster().pue - 2000.0) <= 2000.0 * 4e-16);
        QCOMPARE(menu[0].gpuPowerW, 1200.0);
    }

    // Memory per GPU of a mixture of experts, by hand (docs/MODEL.md#expert-parallel). Mixtral 8x7B on 128
    // H100s: d 8, t 4, p 4, ep 8, b 1, full recomputation, SP, distributed optimizer, B 256 (m = 32). An
    // MoE layer but its experts: attention 4096 x (4096 + 2 x 1024) + 4096^2 = 41,943,040, norms 8,192,
    // router 4096 x 8 = 32,768: 41,984,000; one expert 3 x 4096 x 14,336 = 176,160,768. The first stage:
    // 8 layers + the embedding (32,000 x 4096) = 466,944,000 over t = 4 -> 116,736,000 per GPU; its 64
    // experts over ep = 8 -> 8 x 176,160,768 x 8 / 8 = 1,409,286,144 per GPU, replicated over
    // d t / ep = 4 expert-data-parallel ranks. Weights 2 B, fp32 gradients 4 B, Adam 12 B sharded over
    // d = 8 (dense) and 4 (experts). Activations: 4 micro-batches in flight x 8 layers x 2 s b h / t x 1
    // (s = 32,768, h = 4096: 67,108,864 B), plus one MoE layer rebuilt: s b h / t x (8 + 5 + k (2 + 6 f/h))
    // = 33,554,432 x 59 and the flash kernel's log-sum-exp 4 a s / t = 1,048,576. Reserve 3 GiB.
    // Exact integers in doubles.
    void mixtureOfExpertsMemoryByHand() {
        TrainingJob job;
        job.model = *findModelPreset("mixtral-8x7b");
        job.globalBatch = 256;
        const PerfProblem problem = makePerfProblem(job, *findClusterPreset("dgx-h100"));
        ParallelConfig c;
        c.dp = 8;
        c.tp = 4;
        c.pp = 4;
        c.ep = 8;
        c.sequenceParallel = true;
        c.distributedOptimizer = true;
        const PerfEstimate e = estimate(problem, c);
        QVERIFY2(e.feasible, infeasibilityText(e.reason));
        const double dense = 116736000.0, experts = 1409286144.0;
        QVERIFY(near(e.memory.weightsBytes, 2.0 * (dense + experts), 1e-12));
        QVERIFY(near(e.memory.gradientsBytes, 4.0 * (dense + experts), 1e-12));
        QVERIFY(near(e.memory.optimizerBytes, 12.0 * dense / 8.0 + 12.0 * experts / 4.0, 1e-12));
        const double sbhOverT = 32768.0 * 4096.0 / 4.0;
        QVERIFY(
            near(e.memory.activationsBytes, 4.0 * 8.0 * 2.0 * sbhOverT + 59.0 * sbhOverT + 1048576.0, 1e-12));
        QVERIFY(near(e.memory.totalBytes(), 20908564480.0, 1e-12));
        QCOMPARE(c.label(), std::string("d8 t4 p4 e8 b1 full sp dopt"));
    }

    // DeepSeek-V3 on 2,048 GPUs as its report trained it (16 pipeline stages, 64-way expert parallelism, no
    // tensor parallelism, ZeRO-1): d 128, b 1, B 15,360 (m = 120), full recomputation (our choice). 61 layers
    // on 16 stages: 3, 4 x 14, 3; the first stage holds the three dense layers and the embedding:
    // attention (MLA) 7168 x 1536 + 1536 x 128 x 192 + 7168 x 576 + 512 x 128 x 256 + 128 x 128 x 7168 =
    // 187,105,280, latent norms 2,048, layer norms 14,336, dense MLP 3 x 7168 x 18,432 = 396,361,728:
    // 583,483,392 a layer; embedding 129,280 x 7168 = 926,679,040. Its activations: 16 micro-batches x 3
    // layers x 2 s b h (58,720,256 B), plus one dense layer rebuilt: s b h x (8 + (2,112 x 2 + 40,960 x 4 +
    // 110,592) / 7168 = 46.875) and the log-sum-exp 4 x 128 x 4096. With ep 8 instead, a middle stage of 4
    // MoE layers is the peak: its dense part 4 x (187,121,664 + 3 x 7168 x 2048 + 7168 x 256) = 931,987,456
    // and 4 x 256 x 44,040,192 / 8 = 5,637,144,576 expert parameters per GPU over 16 expert-data-parallel
    // ranks; 15 micro-batches in flight x 4 layers, and one MoE layer rebuilt: s b h x 62.875.
    void deepSeekV3MemoryByHand() {
        TrainingJob job;
        job.model = *findModelPreset("deepseek-v3");
        job.globalBatch = 15360;
        const PerfProblem problem = makePerfProblem(job, *findClusterPreset("dgx-h100"));
        ParallelConfig c;
        c.dp = 128;
        c.pp = 16;
        c.ep = 64;
        c.distributedOptimizer = true;
        PerfEstimate e = estimate(problem, c);
        QVERIFY2(e.feasible, infeasibilityText(e.reason));
        QCOMPARE(e.stages.firstMoe, 0);
        QCOMPARE(e.stages.middleMoe, 4);
        QCOMPARE(e.stages.lastMoe, 3);
        const double sbh = 4096.0 * 7168.0, logSumExp = 4.0 * 128.0 * 4096.0;
        const double first = 3.0 * 583483392.0 + 926679040.0;
        QVERIFY(near(e.memory.modelStatesBytes(), first * (2.0 + 4.0 + 12.0 / 128.0), 1e-12));
        QVERIFY(near(e.memory.activationsBytes, 16.0 * 3.0 * 2.0 * sbh + 46.875 * sbh + logSumExp, 1e-12));
        QVERIFY(near(e.memory.totalBytes(), 23731907072.0, 1e-12));
        c.ep = 8;
        e = estimate(problem, c);
        QVERIFY2(e.feasible, infeasibilityText(e.reason));
        const double dense = 931987456.0, experts = 5637144576.0;
        QVERIFY(near(e.memory.weightsBytes, 2.0 * (dense + experts), 1e-12));
        QVERIFY(near(e.memory.optimizerBytes, 12.0 * dense / 128.0 + 12.0 * experts / 16.0, 1e-12));
        QVERIFY(near(e.memory.activationsBytes, 15.0 * 4.0 * 2.0 * sbh + 62.875 * sbh + logSumExp, 1e-12));
        QVERIFY(near(e.memory.totalBytes(), 52322580480.0, 1e-12));
    }

    // The dispatch and combine by hand: Mixtral 8x7B on one DGX H100 node, d 8, ep 8 (t 1, p 1, b 1, B 64:
    // m 8). A GPU's 32,768 tokens x 4096 x 2 B go to 8 x (1 - 7/8 x 6/7) = 2 ranks each (its own counted,
    // as DeepEP counts), over NVLink at 450 GB/s x the calibration's all-to-all efficiency, plus the
    // per-call latency; forward a dispatch and a combine, backward their transposes, and the recomputed
    // forward two more: 6 calls per layer per micro-batch, 32 layers.
    void expertAllToAllByHand() {
        TrainingJob job;
        job.model = *findModelPreset("mixtral-8x7b");
        job.globalBatch = 64;
        const ClusterProfile cluster = *findClusterPreset("dgx-h100");
        const PerfProblem problem = makePerfProblem(job, cluster);
        ParallelConfig c;
        c.dp = 8;
        c.ep = 8;
        const PerfEstimate e = estimate(problem, c);
        const double call =
            32768.0 * 4096.0 * 2.0 * 2.0 / (450e9 * cluster.calibration.intraNodeAllToAllEfficiency) +
            cluster.calibration.collectiveLatencyS;
        QVERIFY(near(e.time.epCommExposedS, 8.0 * 32.0 * 6.0 * call, 1e-12));
        // Without expert parallelism nothing is dispatched, and the experts' gradients are reduced over
        // all 8 replicas instead of 1.
        c.ep = 1;
        QCOMPARE(estimate(problem, c).time.epCommExposedS, 0.0);
        QVERIFY(estimate(problem, c).time.dpCommExposedS > e.time.dpCommExposedS);
    }

    // Degrees typed by hand whose product no int holds (65,536 x 65,536 = 2^32) are refused, not overflowed
    // (UBSan watches this test).
    void hugeExpertDegreesAreRefused() {
        TrainingJob job;
        job.model = *findModelPreset("mixtral-8x7b");
        job.model.experts = 1 << 16;
        job.model.expertFfnHidden = 1 << 16;
        job.globalBatch = 64;
        ParallelConfig c;
        c.dp = 8;
        c.ep = 1 << 16;
        c.expertTp = 1 << 16;
        QCOMPARE(c.expertDataParallel(), 0);
        const PerfEstimate e = estimate(makePerfProblem(job, *findClusterPreset("dgx-h100")), c);
        QCOMPARE(e.reason, Infeasibility::ExpertsNotDivisible);
    }

    void expertLayoutsThatCannotRun_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("expertTp");
        QTest::addColumn<bool>("sequenceParallel");
        QTest::addColumn<int>("reason");
        const int notDivisible = static_cast<int>(Infeasibility::ExpertsNotDivisible);
        const int layout = static_cast<int>(Infeasibility::ExpertLayout);
        QTest::newRow("ep on a dense model") << "llama3-8b" << 1 << 2 << 1 << false << layout;
        QTest::newRow("ep not dividing the experts")
            << "mixtral-8x7b" << 1 << 16 << 1 << false << notDivisible;
        QTest::newRow("ep x etp beyond d x t") << "mixtral-8x7b" << 2 << 8 << 4 << true << notDivisible;
        QTest::newRow("MoE with t > 1 needs SP") << "mixtral-8x7b" << 2 << 8 << 1 << false << layout;
    }
    void expertLayoutsThatCannotRun() {
        QFETCH(QString, model);
        QFETCH(int, tp);
        QFETCH(int, ep);
        QFETCH(int, expertTp);
        QFETCH(bool, sequenceParallel);
        QFETCH(int, reason);
        TrainingJob job;
        job.model = *findModelPreset(model.toStdString());
        job.globalBatch = 64;
        ParallelConfig c;
        c.dp = 8;
        c.tp = tp;
        c.ep = ep;
        c.expertTp = expertTp;
        c.sequenceParallel = sequenceParallel;
        const PerfEstimate e = estimate(makePerfProblem(job, *findClusterPreset("dgx-h100")), c);
        QVERIFY(!e.feasible);
        QCOMPARE(static_cast<int>(e.reason), reason);
        QVERIFY(std::string(infeasibilityText(e.reason)).find("expert") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perfmodel.moc"
