// SPDX-License-Identifier: MIT
#include "ConfigTestPaths.h"
#include "config/JsonObjectReader.h"
#include "config/ModelSpecJson.h"
#include "config/Presets.h"
#include "domain/InputError.h"
#include "domain/ModelShape.h"

#include <QFile>
#include <QTest>
#include <cmath>

using namespace carbon3d;

namespace {

void compareModels(const ModelSpec& a, const ModelSpec& b) {
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.layers, b.layers);
    QCOMPARE(a.hidden, b.hidden);
    QCOMPARE(a.heads, b.heads);
    QCOMPARE(a.kvHeads, b.kvHeads);
    QCOMPARE(a.ffnHidden, b.ffnHidden);
    QCOMPARE(a.gatedMlp, b.gatedMlp);
    QCOMPARE(a.vocab, b.vocab);
    QCOMPARE(a.seqLen, b.seqLen);
    for (const auto* table : {&attentionShapeFields(), &moeShapeFields()})
        for (const ModelShapeField& field : *table)
            QCOMPARE(a.*field.member, b.*field.member);
    QCOMPARE(a.capacityFactor, b.capacityFactor);
    QCOMPARE(a.source, b.source);
}

// A valid model file, one key per line: "layers" on line 3 ... "seq_len" on line 9.
const std::vector<std::pair<std::string, std::string>> kShapeLines{
    {"layers", "2"},       {"hidden", "64"}, {"heads", "4"},   {"kv_heads", "2"},
    {"ffn_hidden", "256"}, {"vocab", "100"}, {"seq_len", "16"}};

// The file with `key`'s value written as `value`.
std::string shapeFile(const std::string& key, const std::string& value) {
    std::string text = "{\n  \"schema\": 1";
    for (const auto& [k, v] : kShapeLines)
        text += ",\n  \"" + k + "\": " + (k == key ? value : v);
    return text + "\n}\n";
}

int shapeLine(const std::string& key) {
    for (std::size_t i = 0; i < kShapeLines.size(); ++i) {
        if (kShapeLines[i].first == key)
            return static_cast<int>(i) + 3;
    }
    return 0;
}

} // namespace

class TestModelSpecJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void presetIdsAreExactlyTheDocumentedOnes() {
        const std::vector<std::string> expected{
            "bloom-176b",     "deepseek-v3",     "gpt2-1.5b",       "gpt3-175b",       "llama2-13b",
            "llama2-70b",     "llama2-7b",       "llama3-405b",     "llama3-70b",      "llama3-8b",
            "llama4-scout",   "megatron-1.7b",   "megatron-145.6b", "megatron-18.4b",  "megatron-1t",
            "megatron-3.6b",  "megatron-310.1b", "megatron-39.1b",  "megatron-529.6b", "megatron-7.5b",
            "megatron-76.1b", "mixtral-8x22b",   "mixtral-8x7b",    "qwen3-235b-a22b"};
        QCOMPARE(modelPresetIds(), expected);
    }

    void everyPresetLoadsFromResourceAndFromSampleData_data() {
        QTest::addColumn<QString>("id");
        for (const std::string& id : modelPresetIds())
            QTest::newRow(id.c_str()) << QString::fromStdString(id);
    }

    void everyPresetLoadsFromResourceAndFromSampleData() {
        QFETCH(QString, id);
        const std::optional<ModelSpec> embedded = findModelPreset(id.toStdString());
        QVERIFY(embedded.has_value());
        const ModelSpec onDisk = loadModelSpec(sampleData("models/" + id.toStdString() + ".json"));
        compareModels(*embedded, onDisk);
        QCOMPARE(embedded->id, id.toStdString());
        QVERIFY(!embedded->name.empty());
        QVERIFY2(!embedded->source.empty(), "every preset names its source");
        compareModels(resolveModel(id.toStdString()), onDisk);
    }

    // Shapes as the assignment lists them from the papers and model cards.
    void namedShapes_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("ffn");
        QTest::addColumn<bool>("gated");
        QTest::addColumn<int>("vocab");
        QTest::addColumn<int>("seq");
        QTest::newRow("gpt3-175b") << QStringLiteral("gpt3-175b") << 96 << 12288 << 96 << 96 << 49152 << false
                                   << 50257 << 2048;
        QTest::newRow("bloom-176b") << QStringLiteral("bloom-176b") << 70 << 14336 << 112 << 112 << 57344
                                    << false << 250880 << 2048;
        QTest::newRow("llama2-7b") << QStringLiteral("llama2-7b") << 32 << 4096 << 32 << 32 << 11008 << true
                                   << 32000 << 4096;
        QTest::newRow("llama2-13b") << QStringLiteral("llama2-13b") << 40 << 5120 << 40 << 40 << 13824 << true
                                    << 32000 << 4096;
        QTest::newRow("llama2-70b") << QStringLiteral("llama2-70b") << 80 << 8192 << 64 << 8 << 28672 << true
                                    << 32000 << 4096;
        QTest::newRow("llama3-8b") << QStringLiteral("llama3-8b") << 32 << 4096 << 32 << 8 << 14336 << true
                                   << 128256 << 8192;
        QTest::newRow("llama3-70b") << QStringLiteral("llama3-70b") << 80 << 8192 << 64 << 8 << 28672 << true
                                    << 128256 << 8192;
        QTest::newRow("llama3-405b") << QStringLiteral("llama3-405b") << 126 << 16384 << 128 << 8 << 53248
                                     << true << 128256 << 8192;
        QTest::newRow("gpt2-1.5b") << QStringLiteral("gpt2-1.5b") << 48 << 1600 << 25 << 25 << 6400 << false
                                   << 50257 << 1024;
    }

    void namedShapes() {
        QFETCH(QString, id);
        QFETCH(int, layers);
        QFETCH(int, hidden);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, ffn);
        QFETCH(bool, gated);
        QFETCH(int, vocab);
        QFETCH(int, seq);
        const ModelSpec m = *findModelPreset(id.toStdString());
        QCOMPARE(m.layers, layers);
        QCOMPARE(m.hidden, hidden);
        QCOMPARE(m.heads, heads);
        QCOMPARE(m.kvHeads, kvHeads);
        QCOMPARE(m.ffnHidden, ffn);
        QCOMPARE(m.gatedMlp, gated);
        QCOMPARE(m.vocab, vocab);
        QCOMPARE(m.seqLen, seq);
    }

    // The Megatron presets must be the rows of SC21 Table 1, and their shapes must give the
    // parameter counts the table prints (SC21 Eq. 2).
    void megatronPresetsMatchSc21Table() {
        QFile file(QString::fromStdString(std::string(CARBON3D_SOURCE_DIR) +
                                          "/tests/data/validation/megatron_sc21_table1.csv"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 11); // header + 10 rows
        for (int i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> f = lines[i].trimmed().split(',');
            const double billions = f[0].toDouble();
            const std::string id = billions > 1000 ? "megatron-1t" : "megatron-" + f[0].toStdString() + "b";
            const std::optional<ModelSpec> m = findModelPreset(id);
            QVERIFY2(m.has_value(), id.c_str());
            QCOMPARE(m->heads, f[1].toInt());
            QCOMPARE(m->hidden, f[2].toInt());
            QCOMPARE(m->layers, f[3].toInt());
            QCOMPARE(m->seqLen, f[8].toInt());
            QCOMPARE(m->vocab, f[9].toInt());
            QCOMPARE(m->kvHeads, m->heads);
            QCOMPARE(m->ffnHidden, 4 * m->hidden);
            // N = 12 l h^2 (1 + 13/(12h) + (V+s)/(12 l h)). The table prints one decimal (in billions),
            // so the count may differ from the label by up to 0.05 billion.
            const double l = m->layers;
            const double h = m->hidden;
            const double n =
                12.0 * l * h * h * (1.0 + 13.0 / (12.0 * h) + (m->vocab + m->seqLen) / (12.0 * l * h));
            QVERIFY2(std::fabs(n / 1e9 - billions) <= 0.05 + 1e-9,
                     (id + ": " + std::to_string(n / 1e9) + " B parameters").c_str());
        }
    }

    void defaultsForOptionalFields() {
        const JsonValue doc = parseJson("{\"schema\": 1, \"layers\": 2, \"hidden\": 64, \"heads\": 4, "
                                        "\"vocab\": 100, \"seq_len\": 16}",
                                        "m.json");
        const ModelSpec m = parseModelSpec(doc, "m.json");
        QCOMPARE(m.kvHeads, 4);     // multi-head attention unless stated
        QCOMPARE(m.ffnHidden, 256); // 4 x 64
        QCOMPARE(m.gatedMlp, false);
        QVERIFY(m.id.empty());
    }

    void roundTripsThroughWriter_data() {
        QTest::addColumn<QString>("id");
        for (const std::string& id : modelPresetIds())
            QTest::newRow(id.c_str()) << QString::fromStdString(id);
    }

    void roundTripsThroughWriter() {
        QFETCH(QString, id);
        const ModelSpec original = *findModelPreset(id.toStdString());
        const std::string text = toJson(original).dump(2);
        const ModelSpec again = parseModelSpec(parseJson(text, "rt.json"), "rt.json");
        compareModels(again, original);
        QCOMPARE(toJson(again).dump(-1), toJson(original).dump(-1));
    }

    void customModelRoundTrips() {
        ModelSpec m;
        m.name = "custom";
        m.layers = 3;
        m.hidden = 96;
        m.heads = 6;
        m.kvHeads = 2;
        m.ffnHidden = 250;
        m.gatedMlp = true;
        m.vocab = 1000;
        m.seqLen = 128;
        const ModelSpec again = parseModelSpec(parseJson(toJson(m).dump(), "c.json"), "c.json");
        compareModels(again, m);
    }

    // A mixture of experts with latent attention, as DeepSeek-V3's file gives it.
    void readsTheAttentionAndMoeObjects() {
        const ModelSpec m = *findModelPreset("deepseek-v3");
        QVERIFY(m.mixtureOfExperts() && m.latentAttention());
        const std::vector<std::pair<std::string_view, int>> attention{
            {"head_dim", 0},           {"q_lora_rank", 1536},    {"kv_lora_rank", 512},
            {"qk_nope_head_dim", 128}, {"qk_rope_head_dim", 64}, {"v_head_dim", 128}};
        for (const auto& [key, value] : attention)
            QCOMPARE(m.*findShapeField(attentionShapeFields(), key)->member, value);
        const std::vector<std::pair<std::string_view, int>> moe{
            {"experts", 256},          {"experts_per_token", 8},
            {"shared_experts", 1},     {"expert_ffn_hidden", 2048},
            {"first_dense_layers", 3}, {"layer_interval", 1}};
        for (const auto& [key, value] : moe)
            QCOMPARE(m.*findShapeField(moeShapeFields(), key)->member, value);
        QCOMPARE(m.capacityFactor, 0.0);
        const ModelSpec qwen = *findModelPreset("qwen3-235b-a22b");
        QCOMPARE(qwen.headDim, 128);
        QVERIFY(!qwen.latentAttention());
    }

    // Each mixture-of-experts or attention rule broken in a file: reported at the value inside its object,
    // named with the object ("'moe.experts_per_token'").
    void moeAndAttentionRulesAtTheirKeys_data() {
        QTest::addColumn<QString>("objects");
        QTest::addColumn<QString>("message");
        QTest::newRow("more experts per token than experts")
            << QStringLiteral(
                   "\"moe\": {\"experts\": 4, \"experts_per_token\": 8, \"expert_ffn_hidden\": 32}")
            << QStringLiteral("'moe.experts_per_token' = 8 is more than 'moe.experts' = 4");
        QTest::newRow("no MoE layer left")
            << QStringLiteral(
                   "\"moe\": {\"experts\": 4, \"experts_per_token\": 1, \"expert_ffn_hidden\": 32, "
                   "\"first_dense_layers\": 2}")
            << QStringLiteral("'moe.first_dense_layers' = 2 and 'moe.layer_interval' = 1 leave no MoE layer "
                              "among 'layers' = 2");
        QTest::newRow("capacity below an even share")
            << QStringLiteral(
                   "\"moe\": {\"experts\": 4, \"experts_per_token\": 1, \"expert_ffn_hidden\": 32, "
                   "\"capacity_factor\": 0.5}")
            << QStringLiteral(
                   "'moe.capacity_factor' = 0.5 is out of range; expected 0 (dropless) or 1 to 16");
        QTest::newRow("latent attention without its head sizes")
            << QStringLiteral(
                   "\"attention\": {\"kv_lora_rank\": 16, \"qk_rope_head_dim\": 8, \"v_head_dim\": 16}")
            << QStringLiteral("multi-head latent attention ('attention.kv_lora_rank') needs "
                              "'attention.qk_nope_head_dim', the per-head dimension it names");
        QTest::newRow("a latent rank without kv_lora_rank")
            << QStringLiteral("\"attention\": {\"q_lora_rank\": 16}")
            << QStringLiteral(
                   "'attention.q_lora_rank' = 16 needs 'attention.kv_lora_rank' (it is a multi-head "
                   "latent attention size)");
    }

    void moeAndAttentionRulesAtTheirKeys() {
        QFETCH(QString, objects);
        QFETCH(QString, message);
        const std::string text =
            "{\"schema\": 1, \"layers\": 2, \"hidden\": 64, \"heads\": 4, \"vocab\": 100, "
            "\"seq_len\": 16, \"gated_mlp\": true,\n " +
            objects.toStdString() + "}";
        try {
            parseModelSpec(parseJson(text, "m.json"), "m.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(QString::fromStdString(error.problem()), message);
            QCOMPARE(error.line(), 2); // inside the object, on the second line
        }
    }

    // The moe object's required keys and a typo in it keep the reader's messages, with the object's path.
    void moeObjectKeepsTheReadersMessages() {
        const auto problem = [](const std::string& moe) {
            try {
                parseModelSpec(parseJson("{\"schema\": 1, \"layers\": 2, \"hidden\": 64, \"heads\": 4, "
                                         "\"vocab\": 100, \"seq_len\": 16, \"moe\": " +
                                             moe + "}",
                                         "m.json"),
                               "m.json");
            } catch (const InputError& error) {
                return error.problem();
            }
            return std::string("no error");
        };
        QCOMPARE(problem("{\"experts\": 8, \"experts_per_token\": 2}"),
                 std::string(
                     "missing key 'moe.expert_ffn_hidden' (expected an integer in 1 to 8388608 elements)"));
        QVERIFY(
            problem("{\"experts\": 8, \"experts_per_token\": 2, \"expert_ffn_hidden\": 64, \"expert\": 1}")
                .find("'moe.expert'") != std::string::npos);
    }

    void everyPresetKeepsTheShapeRules() {
        for (const std::string& id : modelPresetIds())
            QVERIFY2(checkModelShape(*findModelPreset(id)).empty(), id.c_str());
    }

    // Each shape rule broken in a file: the loader reports checkModelShape's first problem, in its words, at
    // the value of the key the problem names (the heads when hidden is not divisible by them).
    void loaderReportsTheShapeRuleAtItsKey_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("offending");
        const auto row = [](const char* key, const char* value, const char* offending) {
            QTest::newRow((std::string(key) + " " + value).c_str())
                << QString::fromUtf8(key) << QString::fromUtf8(value) << QString::fromUtf8(offending);
        };
        for (const auto& [key, value] : kShapeLines) {
            row(key.c_str(), "0", key.c_str());
            row(key.c_str(), "-3", key.c_str());
            row(key.c_str(), "99999999", key.c_str());
        }
        row("hidden", "66", "heads");
        row("heads", "3", "heads"); // 64 % 3 (and 3 % 2, reported second)
        row("kv_heads", "3", "kv_heads");
        row("kv_heads", "8", "kv_heads");
    }

    void loaderReportsTheShapeRuleAtItsKey() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, offending);
        ModelSpec shape;
        const std::string text = shapeFile(key.toStdString(), value.toStdString());
        for (const ModelShapeField& field : modelShapeFields())
            shape.*field.member = static_cast<int>(parseJson(text, "m.json").find(field.key)->toNumber());
        const std::vector<ModelShapeProblem> problems = checkModelShape(shape);
        QVERIFY(!problems.empty());
        QCOMPARE(QString::fromStdString(problems.front().field), offending);
        try {
            parseModelSpec(parseJson(text, "m.json"), "m.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.problem(), problems.front().message);
            QCOMPARE(error.line(), shapeLine(offending.toStdString()));
            // '  "key": ' -> the value starts 7 characters after the key's length.
            QCOMPARE(error.column(), static_cast<int>(offending.size()) + 7);
        }
    }

    // A number no int holds is reported as written, by the same range rule.
    void loaderReportsAValueBeyondIntAsWritten() {
        try {
            parseModelSpec(parseJson(shapeFile("vocab", "1e12"), "m.json"), "m.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.problem(), checkModelShapeRange(*findModelShapeField("vocab"), 1e12)->message);
            QCOMPARE(error.line(), shapeLine("vocab"));
        }
    }

    // Missing keys and non-integers keep the reader's messages.
    void loaderKeepsTheReadersTypeAndPresenceErrors() {
        try {
            parseModelSpec(parseJson(shapeFile("layers", "2.5"), "m.json"), "m.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.problem(), std::string("'layers' must be an integer (layers), found 2.5"));
        }
        try {
            parseModelSpec(parseJson("{\"schema\": 1, \"layers\": 2, \"hidden\": 64, \"heads\": 4, "
                                     "\"vocab\": 100}",
                                     "m.json"),
                           "m.json");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.problem(),
                     std::string("missing key 'seq_len' (expected an integer in 1 to 67108864 tokens)"));
        }
    }

    // A model object inside a scenario names its keys with their path, as every other scenario message does.
    void embeddedModelNamesQualifiedKeys() {
        const JsonValue doc = parseJson(shapeFile("hidden", "66"), "s.json");
        JsonObjectReader reader(doc, "s.json", "job.model");
        try {
            readModelSpec(reader);
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.problem(),
                     std::string("'job.model.hidden' = 66 is not divisible by 'job.model.heads' "
                                 "= 4 (each head needs hidden/heads dimensions)"));
            QCOMPARE(error.line(), shapeLine("heads"));
        }
    }

    void resolveModelRejectsUnknownName() {
        try {
            resolveModel("gpt-5");
            QFAIL("expected an InputError");
        } catch (const InputError& error) {
            QCOMPARE(error.file(), std::string("gpt-5"));
            QVERIFY2(error.problem().find("neither a model preset") != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestModelSpecJson)
#include "tst_model_spec_json.moc"
