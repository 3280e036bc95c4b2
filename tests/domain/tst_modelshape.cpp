// SPDX-License-Identifier: MIT
#include "domain/ModelShape.h"

#include <QTest>
#include <functional>

using namespace carbon3d;

Q_DECLARE_METATYPE(std::function<void(carbon3d::ModelSpec&)>)

namespace {

using Edit = std::function<void(ModelSpec&)>;

// A small shape that keeps every rule: 64 / 4 heads = 16 dimensions per head, 2 heads per key/value head.
ModelSpec validShape() {
    ModelSpec m;
    m.layers = 2;
    m.hidden = 64;
    m.heads = 4;
    m.kvHeads = 2;
    m.ffnHidden = 256;
    m.vocab = 100;
    m.seqLen = 16;
    return m;
}

} // namespace

class TestModelShape : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validShapeHasNoProblem() { QVERIFY(checkModelShape(validShape()).empty()); }

    void fieldsAreTheModelFilesIntegers() {
        std::vector<std::string> keys;
        for (const ModelShapeField& field : modelShapeFields())
            keys.emplace_back(field.key);
        QCOMPARE(keys, (std::vector<std::string>{"layers", "hidden", "heads", "kv_heads", "ffn_hidden",
                                                 "vocab", "seq_len"}));
        QCOMPARE(findModelShapeField("kv_heads")->member, &ModelSpec::kvHeads);
        QCOMPARE(findModelShapeField("ffn"), nullptr); // the CLI's spelling is not a key
    }

    // One row per rule and bound: the edit breaks exactly that rule, and the problem names the field a form
    // marks and says what was expected.
    void eachRule_data() {
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const Edit& edit, const char* field, const char* message) {
            QTest::newRow(name) << edit << QString::fromUtf8(field) << QString::fromUtf8(message);
        };
        row(
            "layers 0", [](ModelSpec& m) { m.layers = 0; }, "layers",
            "'layers' = 0 layers is out of range; expected 1 to 4096 layers");
        row(
            "layers 4097", [](ModelSpec& m) { m.layers = 4097; }, "layers",
            "'layers' = 4097 layers is out of range; expected 1 to 4096 layers");
        row(
            "hidden negative", [](ModelSpec& m) { m.hidden = -64; }, "hidden",
            "'hidden' = -64 elements is out of range; expected 1 to 1048576 elements");
        row(
            "hidden 2^20 + 4", [](ModelSpec& m) { m.hidden = (1 << 20) + 4; }, "hidden",
            "'hidden' = 1048580 elements is out of range; expected 1 to 1048576 elements");
        // heads 0 breaks its range only: hidden % 0 is not asked.
        row(
            "heads 0", [](ModelSpec& m) { m.heads = 0; }, "heads",
            "'heads' = 0 attention heads is out of range; expected 1 to 8192 attention heads");
        row(
            "heads 8194",
            [](ModelSpec& m) {
                m.heads = 8194;
                m.hidden = 8194;
            },
            "heads", "'heads' = 8194 attention heads is out of range; expected 1 to 8192 attention heads");
        row(
            "kv_heads 0", [](ModelSpec& m) { m.kvHeads = 0; }, "kv_heads",
            "'kv_heads' = 0 key/value heads is out of range; expected 1 to 8192 key/value heads");
        row(
            "ffn_hidden 0", [](ModelSpec& m) { m.ffnHidden = 0; }, "ffn_hidden",
            "'ffn_hidden' = 0 elements is out of range; expected 1 to 8388608 elements");
        row(
            "ffn_hidden 2^23 + 1", [](ModelSpec& m) { m.ffnHidden = (1 << 23) + 1; }, "ffn_hidden",
            "'ffn_hidden' = 8388609 elements is out of range; expected 1 to 8388608 elements");
        // Round bounds and values in full, not as 1.6e+07 or 1e+08.
        row(
            "vocab 1e8", [](ModelSpec& m) { m.vocab = 100000000; }, "vocab",
            "'vocab' = 100000000 tokens is out of range; expected 1 to 16000000 tokens");
        row(
            "vocab 0", [](ModelSpec& m) { m.vocab = 0; }, "vocab",
            "'vocab' = 0 tokens is out of range; expected 1 to 16000000 tokens");
        row(
            "seq_len 0", [](ModelSpec& m) { m.seqLen = 0; }, "seq_len",
            "'seq_len' = 0 tokens is out of range; expected 1 to 67108864 tokens");
        row(
            "seq_len 2^26 + 1", [](ModelSpec& m) { m.seqLen = (1 << 26) + 1; }, "seq_len",
            "'seq_len' = 67108865 tokens is out of range; expected 1 to 67108864 tokens");
        row(
            "hidden % heads", [](ModelSpec& m) { m.hidden = 66; }, "heads",
            "'hidden' = 66 is not divisible by 'heads' = 4 (each head needs hidden/heads dimensions)");
        row(
            "heads % kv_heads", [](ModelSpec& m) { m.kvHeads = 3; }, "kv_heads",
            "'heads' = 4 is not a multiple of 'kv_heads' = 3 (grouped-query attention shares each key/value "
            "head among heads/kv_heads query heads)");
        // More key/value heads than heads is the same rule: 4 is not a multiple of 8.
        row(
            "kv_heads > heads", [](ModelSpec& m) { m.kvHeads = 8; }, "kv_heads",
            "'heads' = 4 is not a multiple of 'kv_heads' = 8 (grouped-query attention shares each key/value "
            "head among heads/kv_heads query heads)");
    }

    void eachRule() {
        QFETCH(Edit, edit);
        QFETCH(QString, field);
        QFETCH(QString, message);
        ModelSpec m = validShape();
        edit(m);
        const std::vector<ModelShapeProblem> problems = checkModelShape(m);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(problems.front().field), field);
        QCOMPARE(QString::fromStdString(problems.front().message), message);
    }

    void everyProblemInFieldOrderThenRelations() {
        ModelSpec m = validShape();
        m.seqLen = 0;
        m.layers = 0;
        m.hidden = 66;
        m.kvHeads = 3;
        std::vector<std::string> fields;
        for (const ModelShapeProblem& problem : checkModelShape(m))
            fields.push_back(problem.field);
        QCOMPARE(fields, (std::vector<std::string>{"layers", "seq_len", "heads", "kv_heads"}));
    }

    // Inside a scenario the model is the object "job.model": messages name the qualified keys, while the
    // field stays the bare key the loader looks up.
    void prefixQualifiesTheKeysMessagesName() {
        ModelSpec m = validShape();
        m.hidden = 66;
        const std::vector<ModelShapeProblem> problems = checkModelShape(m, "job.model.");
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems.front().field, std::string("heads"));
        QCOMPARE(problems.front().message, std::string("'job.model.hidden' = 66 is not divisible by "
                                                       "'job.model.heads' = 4 (each head needs hidden/heads "
                                                       "dimensions)"));
    }

    // A loader checks the number as written, before it becomes an int.
    void rangeOfAValueBeyondInt() {
        const ModelShapeField& vocab = *findModelShapeField("vocab");
        QVERIFY(!checkModelShapeRange(vocab, 32000).has_value());
        const auto huge = checkModelShapeRange(vocab, 1e12);
        QVERIFY(huge.has_value());
        QCOMPARE(huge->message, std::string("'vocab' = 1000000000000 tokens is out of range; expected 1 to "
                                            "16000000 tokens"));
        QCOMPARE(checkModelShapeRange(vocab, 1e300)->message,
                 std::string("'vocab' = 1e+300 tokens is out of range; expected 1 to 16000000 tokens"));
        QCOMPARE(checkModelShapeRange(*findModelShapeField("layers"), 4096.5)->message,
                 std::string("'layers' = 4096.5 layers is out of range; expected 1 to 4096 layers"));
    }
};

QTEST_GUILESS_MAIN(TestModelShape)
#include "tst_modelshape.moc"
