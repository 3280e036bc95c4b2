// SPDX-License-Identifier: MIT
#include "config/Presets.h"
#include "perf/ModelMath.h"
#include "validation/ValidationSet.h"

#include <QTest>
#include <cmath>

using namespace carbon3d;

class TestModelMath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tinyGptByHand() {
        // l=1, h=4, a=2, V=10, s=8. Counting matrices: attention 4*12 + 16 = 64, MLP 2*4*16 = 128,
        // biases and norms 13*4 = 52, embeddings (10+8)*4 = 72 -> 316.
        // SC21 Eq. 2: 12*1*16*(1 + 13/48 + 18/48) = 192*79/48 = 316.
        const ModelSpec m = gptModel(1, 4, 2, 8, 10);
        QCOMPARE(parameterCount(m), 316.0); // integers in doubles: exact
        QCOMPARE(sc21ParameterCount(m), 316.0);
    }

    void tinyLlamaByHand() {
        // l=1, h=8, a=4, g=2 (KV hidden 4), f=16, gated, V=10: attention 8*(8+2*4) + 64 = 192,
        // MLP 3*8*16 = 384, two RMSNorm 16, untied embeddings 2*10*8 = 160 -> 752.
        ModelSpec m = gptModel(1, 8, 4, 8, 10);
        m.kvHeads = 2;
        m.ffnHidden = 16;
        m.gatedMlp = true;
        QCOMPARE(parameterCount(m), 752.0); // exact integer arithmetic
    }

    void flopsByHand() {
        // l=1, h=4, s=8, V=10, f=16, B=1. Forward per sequence: linear 8*(2*4*12 + 2*16 + 2*2*4*16) = 3072,
        // attention 4*64*4 = 1024, logits 2*8*4*10 = 640 -> 4736; model FLOPs 3x = 14208.
        // Eq. 3 without recomputation: 72*8*16*(1 + 8/24 + 10/48) = 9216*1.5416667 = 14208.
        const ModelSpec m = gptModel(1, 4, 2, 8, 10);
        QCOMPARE(forwardFlopsPerSequence(m).total(1), 4736.0); // exact
        QCOMPARE(modelFlopsPerIteration(m, 1), 14208.0);
        // With full recomputation (Eq. 3): 96*8*16*(1 + 1/3 + 10/64) = 12288*1.4895833 = 18304
        // = 4 * (3072 + 1024) + 3 * 640 (logits are not recomputed).
        QCOMPARE(sc21FlopsPerIteration(m, 1), 18304.0);
    }

    void sc21TableParameterCounts_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addColumn<double>("published");
        const auto rows =
            loadValidationRows(QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/validation").toStdString());
        for (const ValidationRow& row : rows) {
            if (row.source != ValidationSource::Sc21)
                continue;
            QTest::newRow(row.group.c_str()) << row.job.model.layers << row.job.model.hidden
                                             << row.job.model.heads << row.publishedParamsBillion;
        }
    }
    void sc21TableParameterCounts() {
        QFETCH(int, layers);
        QFETCH(int, hidden);
        QFETCH(int, heads);
        QFETCH(double, published);
        const ModelSpec m = gptModel(layers, hidden, heads, 2048, 51200);
        // The table prints billions with one decimal: the count must round to it (0.05 B half-unit + 1e-9
        // slack).
        QVERIFY2(std::abs(sc21ParameterCount(m) / 1e9 - published) <= 0.05 + 1e-9,
                 qPrintable(QString::number(sc21ParameterCount(m) / 1e9)));
        // The generalised count is the same formula for GPT shapes (relative 1e-12: rounding only).
        QVERIFY(std::abs(parameterCount(m) / sc21ParameterCount(m) - 1.0) < 1e-12);
    }

    // Mixtral 8x7B (its preset: Jiang et al. 2024, Table 1), counted by hand. Per layer: attention
    // 4096 x (4096 + 2 x 1024) + 4096^2 = 41,943,040; each SwiGLU expert 3 x 4096 x 14336 = 176,160,768;
    // router 4096 x 8 = 32,768; two RMSNorms 8,192. Total: 32 x (41,943,040 + 8 x 176,160,768 + 32,768 +
    // 8,192) + untied embeddings 2 x 32000 x 4096 = 46,702,788,608. Active (2 experts): 32 x 394,305,536 +
    // 262,144,000 = 12,879,921,152. Forward FLOPs per token: per layer 2 x (41,943,040 + 2 x 176,160,768 +
    // 32,768) = 788,594,688 for the GEMMs and 2 x 32768 x (4096 + 4096) = 536,870,912 for the scores,
    // x 32, plus logits 2 x 4096 x 32000: 42,677,043,200.
    void mixtralByHand() {
        const ModelSpec m = *findModelPreset("mixtral-8x7b");
        QCOMPARE(moeLayerCount(m), 32);
        QCOMPARE(parameterCount(m), 46702788608.0); // integers below 2^53 in doubles: exact
        QCOMPARE(activeParameterCount(m), 12879921152.0);
        QCOMPARE(forwardFlopsPerSequence(m).total(m.layers) / m.seqLen, 42677043200.0); // powers of 2: exact
        // Mistral AI publishes 46.7 B total and 12.9 B active: one decimal, so within 0.05 B.
        QVERIFY(std::fabs(parameterCount(m) / 1e9 - 46.7) <= 0.05);
        QVERIFY(std::fabs(activeParameterCount(m) / 1e9 - 12.9) <= 0.05);
    }

    // DeepSeek-V3 (its preset: the technical report, section 4.2), counted by hand. Latent attention per
    // layer: 7168 x 1536 + 1536 x 128 x 192 + 7168 x (512 + 64) + 512 x 128 x 256 + 128 x 128 x 7168 =
    // 187,105,280 weights, plus its two latent RMSNorms (1536 + 512) and the layer's two (2 x 7168). A dense
    // layer's SwiGLU: 3 x 7168 x 18432 = 396,361,728; an MoE layer: 257 experts of 3 x 7168 x 2048 =
    // 44,040,192 and a 7168 x 256 router. 3 dense + 58 MoE layers + 2 x 129280 x 7168 embeddings =
    // 671,026,397,184; active (8 routed + 1 shared): 37,552,275,456.
    void deepSeekV3ByHand() {
        const ModelSpec m = *findModelPreset("deepseek-v3");
        QCOMPARE(moeLayerCount(m), 58);
        QVERIFY(!isMoeLayer(m, 2) && isMoeLayer(m, 3) && isMoeLayer(m, 60));
        QCOMPARE(parameterCount(m), 671026397184.0); // exact
        QCOMPARE(activeParameterCount(m), 37552275456.0);
        // Forward FLOPs per token: dense layers 2 x (187,105,280 + 396,361,728) = 1,166,934,016 and MoE
        // layers 2 x (187,105,280 + 9 x 44,040,192 + 1,835,008) = 1,170,604,032 for the GEMMs; scores
        // 2 x 4096 x 128 x (192 + 128) = 335,544,320 per layer; logits 2 x 7168 x 129280. Total
        // 93,717,397,504. The per-layer mean divides by 61 layers: 1e-12 relative for its rounding.
        const double perToken = forwardFlopsPerSequence(m).total(m.layers) / m.seqLen;
        QVERIFY2(std::fabs(perToken - 93717397504.0) <= 1e-12 * 93717397504.0,
                 std::to_string(perToken).c_str());
        // The report gives 671 B total (to the billion: within 0.5 B) and 37 B activated. Our 37.55 B counts
        // the input embedding table, which a token reads but does not multiply by (36.63 B without it);
        // DeepSeek does not say which it rounds, so the check is 1.5 %, the larger of the two readings'
        // distance.
        QVERIFY(std::fabs(parameterCount(m) / 1e9 - 671.0) <= 0.5);
        QVERIFY(std::fabs(activeParameterCount(m) / 37e9 - 1.0) <= 0.015);
    }

    // The other mixture-of-experts presets against their publishers' totals and active counts, each to the
    // precision published (Mixtral 8x22B: 141 B and 39 B; Qwen3: 235 B and 22 B in its name; Llama 4 Scout:
    // 17 B active; its 109 B total includes the vision encoder, which the text model leaves out).
    void moePresetsMatchTheirPublishedCounts_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("active");
        QTest::newRow("mixtral-8x22b") << QStringLiteral("mixtral-8x22b") << 141.0 << 39.0;
        QTest::newRow("qwen3-235b-a22b") << QStringLiteral("qwen3-235b-a22b") << 235.0 << 22.0;
        QTest::newRow("llama4-scout") << QStringLiteral("llama4-scout") << 0.0 << 17.0;
    }
    void moePresetsMatchTheirPublishedCounts() {
        QFETCH(QString, id);
        QFETCH(double, total);
        QFETCH(double, active);
        const ModelSpec m = *findModelPreset(id.toStdString());
        if (total > 0.0)
            QVERIFY2(std::fabs(parameterCount(m) / 1e9 - total) <= 0.5,
                     std::to_string(parameterCount(m)).c_str());
        QVERIFY2(std::fabs(activeParameterCount(m) / 1e9 - active) <= 0.5,
                 std::to_string(activeParameterCount(m)).c_str());
    }

    // A dense model is its own active count, and its FLOPs are as before the MoE terms.
    void denseModelsAreAllActive() {
        const ModelSpec m = *findModelPreset("llama3-70b");
        QCOMPARE(activeParameterCount(m), parameterCount(m));
        QCOMPARE(moeLayerCount(m), 0);
    }
};

QTEST_GUILESS_MAIN(TestModelMath)
#include "tst_modelmath.moc"
