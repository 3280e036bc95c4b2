// SPDX-License-Identifier: MIT
// Drives the studio as a person would, offscreen: load, press Run, read the results, cancel, import.
#include "ExportDialog.h"
#include "FrozenColumnTable.h"
#include "MainWindow.h"
#include "PolicyOptionsDialog.h"
#include "RecentFilesMenu.h"
#include "Settings.h"
#include "WindowGeometry.h"
#include "config/Presets.h"
#include "config/ScenarioJson.h"
#include "domain/ModelShape.h"
#include "engine/PolicyRegistry.h"
#include "models/MetricsTableModel.h"
#include "models/RunsTableModel.h"
#include "pages/AnswerBar.h"
#include "pages/ComparePage.h"
#include "pages/ConfigurationsPage.h"
#include "pages/LearnPage.h"
#include "pages/ModellingForm.h"
#include "pages/PolicyVariantsBox.h"
#include "pages/ResultsPage.h"
#include "pages/ScenarioPage.h"
#include "pages/StudyPage.h"
#include "perf/ModelMath.h"
#include "plots/ConfigurationsPlot.h"
#include "plots/TimelinePlot.h"
#include "plots/TradeoffPlot.h"
#include "storage/ResultsStore.h"
#include "study/StudyRunner.h"
#include "traces/TraceLoader.h"
#include "traces/TraceSummary.h"
#include "workers/BackgroundLoads.h"
#include "workers/FileTasks.h"
#include "workers/LatestRequest.h"
#include "workers/ResultsStoreWorker.h"
#include "workers/SimulationController.h"
#include "workers/StudyController.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QWheelEvent>
#include <functional>
#include <set>
#include <sqlite3.h>
#include <thread>

using namespace carbon3d;
using namespace carbon3d::ui;

namespace {

const QString kData = QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data");

// Seconds the sanitizer build may need for a batch of policies on a laptop-class core.
constexpr int kRunTimeoutMs = 300000;

// Ticks one policy's box on the form and clears every other policy's.
void tickOnly(ScenarioPage* page, const QString& policy) {
    for (QCheckBox* box : page->findChildren<QCheckBox*>())
        if (page->policyBox(box->objectName()) == box)
            box->setChecked(box->objectName() == policy);
}

// Answers the next modal file dialog as a person would, once it is up (polled, so that a slow dialog is
// not missed and left waiting): `fill` chooses in it, then it is accepted as by its Choose/Open button.
// Start it before the click that opens the dialog (the click returns once the dialog is closed).
class FileDialogAnswer {
public:
    explicit FileDialogAnswer(std::function<void(QFileDialog*)> fill) {
        m_poll.setInterval(50);
        QObject::connect(&m_poll, &QTimer::timeout, [this, fill = std::move(fill)] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (dialog == nullptr)
                return;
            // Polled until the dialog is gone: an accept the dialog refuses (its file model had not listed
            // the folder yet) is answered again on the next tick, as a person would press the button again.
            m_seen = true;
            fill(dialog);
            static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept
        });
        m_poll.start();
    }
    bool seen() const { return m_seen; }

private:
    QTimer m_poll;
    bool m_seen = false;
};

} // namespace

class TestStudio : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // settings and data go to a throw-away location
        QSettings().clear();
    }

    void init() {
        m_window = std::make_unique<MainWindow>(kData, QStringLiteral(CARBON3D_SOURCE_DIR "/docs"),
                                                m_dir.filePath(QStringLiteral("results.sqlite")));
        // The spy first: show() may deliver the window's posted events, and with them the (fast) load's
        // result, before a spy made after it could see the signal.
        QSignalSpy loaded(m_window.get(), &MainWindow::scenarioLoaded);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(!loaded.isEmpty() || loaded.wait(30000));
        QVERIFY2(loaded.first().at(0).toBool(), qPrintable(loaded.first().at(1).toString()));
    }

    void cleanup() { m_window.reset(); }

    void defaultScenarioLoadsWithAStatusMessage() {
        ScenarioPage* page = m_window->scenarioPage();
        QCOMPARE(page->regionBox()->currentText(), QStringLiteral("US-CAL-CISO California (2022)"));
        // The UTC start in the region's own time, the time the plots are read in (issue 15, item 11).
        QCOMPARE(page->localStartLabel()->text(), QStringLiteral("= 2022-05-31 17:00 PDT in US-CAL-CISO"));
        // Before any run the plots show the scenario's grid from its start (issue 15, item 11), not empty
        // axes labelled "Jan 1 00:00".
        TimelinePlot* plot = m_window->resultsPage()->timeline();
        QVERIFY(plot->graphCountOn(TimelinePlot::CarbonPanel) >= 1);
        plot->replot();
        const QCPAxis* time = plot->panel(TimelinePlot::EmissionsPanel)->axis(QCPAxis::atBottom);
        QVERIFY2(time->range().lower >= static_cast<double>(page->scenario().startUtc) - 86400.0,
                 qPrintable(QString::number(time->range().lower)));
        for (const QString& label : time->tickVectorLabels())
            QVERIFY2(!label.startsWith(QStringLiteral("Jan 1")), qPrintable(label));
        QVERIFY(page->validationErrors().isEmpty());
        QVERIFY(page->policyBox(QStringLiteral("dynamic-3d"))->isChecked());
        QVERIFY(QFile::exists(QStringLiteral(":/carbon3d/icons/carbon3d.svg"))); // compiled into the studio
        QVERIFY(!m_window->windowIcon().isNull());
    }

    // The wheel scrolls the form; it edits a field only once the field has focus (users saw GPUs go from 64
    // to 61 and slack from 50 % to 80 % while scrolling, and live what-if re-ran silently).
    void wheelOverAnUnfocusedFieldDoesNotEditIt() {
        ScenarioPage* page = m_window->scenarioPage();
        QSpinBox* gpus = page->gpusBox();
        gpus->clearFocus();
        const int before = gpus->value();
        const QPointF at(gpus->width() / 2.0, gpus->height() / 2.0);
        QWheelEvent wheel(at, gpus->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(gpus, &wheel);
        QCOMPARE(gpus->value(), before);
        QCOMPARE(gpus->focusPolicy(), Qt::StrongFocus);
        // The wheel over the form's text scrolls the form. Qt carries a real wheel event from the text up to
        // the scroll area's viewport, which hands it on to its scroll bar as a synthesized event; that last
        // step is the one the guard once swallowed (the form did not scroll under Xvfb). A synthesized event
        // does not propagate, so it is sent where propagation would have taken it.
        auto* scroll = page->findChild<QScrollArea*>();
        QVERIFY(scroll != nullptr);
        m_window->resize(1200, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QScrollBar* bar = scroll->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        bar->setValue(0);
        QWheelEvent down(QPointF(2, 2), scroll->viewport()->mapToGlobal(QPointF(2, 2)), QPoint(),
                         QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(scroll->viewport(), &down);
        QVERIFY(bar->value() > 0);
    }

    // The custom shape's fields take the shared rules' ranges (so no shape a file holds is clamped), and a
    // broken rule marks the field it names with the words the model loader uses.
    void customShapeMarksTheOffendingFieldInTheLoadersWords() {
        ScenarioPage* page = m_window->scenarioPage();
        page->modelBox()->setCurrentIndex(page->modelBox()->count() - 1); // "Custom shape..."
        for (const ModelShapeField& field : modelShapeFields()) {
            const QSpinBox* box = page->shapeBox(std::string(field.key));
            QVERIFY(box != nullptr);
            QCOMPARE(box->minimum(), field.min);
            QCOMPARE(box->maximum(), field.max);
        }
        QSpinBox* heads = page->shapeBox("heads");
        const QString normalTip = heads->toolTip();
        page->shapeBox("kv_heads")->setValue(heads->value());
        page->hiddenBox()->setValue(heads->value() * 64 + 2);
        const std::vector<ModelShapeProblem> problems = checkModelShape(page->scenario().job.model);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems.front().field, std::string("heads"));
        const QString words = QString::fromStdString(problems.front().message);
        QVERIFY2(words.contains(QStringLiteral("is not divisible by 'heads'")), qPrintable(words));
        QVERIFY(heads->property("invalid").toBool());
        QCOMPARE(heads->toolTip(), words);
        QVERIFY(!page->hiddenBox()->property("invalid").toBool());
        QVERIFY(page->validationErrors().contains(QStringLiteral("Model: ") + words));
        QVERIFY(!page->runButton()->isEnabled());

        page->hiddenBox()->setValue(heads->value() * 64);
        QVERIFY(!heads->property("invalid").toBool());
        QCOMPARE(heads->toolTip(), normalTip);
        QVERIFY(page->validationErrors().isEmpty());
        QVERIFY(page->runButton()->isEnabled());
    }

    // Issue 17: the job's context parallelism is a field of the form, typed as a person would, checked in
    // the scenario reader's words, and what the run's job gets.
    void contextParallelIsTypedAndChecked() {
        ScenarioPage* page = m_window->scenarioPage();
        QSpinBox* cp = page->contextParallelBox();
        QCOMPARE(cp->value(), 1); // the default scenario states none
        QCOMPARE(page->scenario().job.model.seqLen, 2048);
        cp->selectAll();
        QTest::keyClicks(cp, QStringLiteral("3"));
        QCOMPARE(cp->value(), 3);
        const QString words = QStringLiteral(
            "Context parallel: 3 does not split the sequence: its length 2048 must be a multiple of 2 x 3");
        QVERIFY2(page->validationErrors().contains(words),
                 qPrintable(page->validationErrors().join(QLatin1Char('\n'))));
        QVERIFY(cp->property("invalid").toBool());
        QVERIFY(!page->runButton()->isEnabled());
        cp->selectAll();
        QTest::keyClicks(cp, QStringLiteral("4"));
        QVERIFY(page->validationErrors().isEmpty());
        QVERIFY(!cp->property("invalid").toBool());
        QVERIFY(page->runButton()->isEnabled());
        QCOMPARE(page->scenario().job.contextParallel, 4);
        // The configurations page searches the new job, every shape holding cp, and says so once.
        ConfigurationsPage* configurations = m_window->configurationsPage();
        QTRY_VERIFY_WITH_TIMEOUT(!configurations->landscape().shapes.empty() &&
                                     configurations->landscape().shapes.front().config.cp == 4,
                                 60000);
        for (const RankedConfig& shape : configurations->landscape().shapes)
            QCOMPARE(shape.config.cp, 4);
        m_window->showPage(QStringLiteral("configurations"));
        const QLabel* summary = configurations->findChild<QLabel*>(QStringLiteral("configurationsSummary"));
        QVERIFY(summary != nullptr);
        QVERIFY2(summary->text().contains(QStringLiteral("each sequence split over cp = 4 GPUs")),
                 qPrintable(summary->text()));
    }

    // Found driving the real window: picking V100 for the default BF16 job showed "0 feasible shapes" and an
    // empty plot without a reason. The form now says V100 has no BF16 (and offers the precisions it has),
    // the Configurations page names what refused every shape, and FP16 runs.
    void aClusterWithoutTheJobsPrecisionSaysSo() {
        ScenarioPage* page = m_window->scenarioPage();
        QComboBox* cluster = page->clusterBox();
        QComboBox* precision = page->precisionBox();
        QCOMPARE(precision->currentText(), QStringLiteral("BF16")); // the default scenario's
        cluster->setCurrentIndex(cluster->findData(QStringLiteral("dgx-v100-32gb")));
        const QString words =
            QStringLiteral("Precision: bf16 is not supported by NVIDIA Tesla V100 SXM2 32GB "
                           "(its profile has fp32, fp16); choose one it has, or another cluster");
        QVERIFY2(page->validationErrors().contains(words),
                 qPrintable(page->validationErrors().join(QLatin1Char('\n'))));
        QVERIFY(precision->property("invalid").toBool());
        QVERIFY(!page->runButton()->isEnabled());

        ConfigurationsPage* configurations = m_window->configurationsPage();
        m_window->showPage(QStringLiteral("configurations"));
        const QLabel* summary = configurations->findChild<QLabel*>(QStringLiteral("configurationsSummary"));
        QVERIFY(summary != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("no feasible configuration")),
                                 60000);
        QVERIFY2(summary->text().contains(
                     QStringLiteral("The commonest reason: the accelerator has no peak FLOP/s for this "
                                    "precision (all ")),
                 qPrintable(summary->text()));

        precision->setCurrentIndex(precision->findText(QStringLiteral("FP16")));
        QVERIFY(page->validationErrors().isEmpty());
        QVERIFY(!precision->property("invalid").toBool());
        QVERIFY(page->runButton()->isEnabled());
        QCOMPARE(page->scenario().job.precision, Precision::FP16);
        QTRY_VERIFY_WITH_TIMEOUT(!configurations->landscape().shapes.empty(), 60000);
        QVERIFY2(summary->text().contains(QStringLiteral("feasible (d, t, p) shapes")),
                 qPrintable(summary->text()));
    }

    // Ticking "Offer FSDP" reaches the job, and the Configurations page then searches FSDP too.
    void fsdpIsOfferedWhenTicked() {
        ScenarioPage* page = m_window->scenarioPage();
        QCheckBox* fsdp = page->stackSwitchBox("fsdp");
        QVERIFY(!fsdp->isChecked()); // the default scenario runs Megatron's distributed optimizer only
        ConfigurationsPage* configurations = m_window->configurationsPage();
        const auto anyFsdp = [configurations] {
            const auto& shapes = configurations->landscape().shapes;
            return std::any_of(shapes.begin(), shapes.end(),
                               [](const RankedConfig& shape) { return shape.config.fullySharded; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(!configurations->landscape().shapes.empty(), 60000);
        QVERIFY(!anyFsdp());
        QTest::mouseClick(fsdp, Qt::LeftButton, Qt::NoModifier, QPoint(8, fsdp->height() / 2));
        QVERIFY(fsdp->isChecked());
        QVERIFY(page->scenario().job.fsdp);
        QTRY_VERIFY_WITH_TIMEOUT(anyFsdp(), 60000);
    }

    // Unticking "Offer interleaved pipeline stages" reaches the job, and the Configurations page then keeps
    // only plain-1F1B shapes (the default GPT-3 175B job pipelines, so interleaved ones were there before).
    void interleavingIsWithdrawnWhenUnticked() {
        ScenarioPage* page = m_window->scenarioPage();
        QCheckBox* interleave = page->stackSwitchBox("interleave");
        QVERIFY(interleave->isChecked()); // the default: Megatron-LM's interleaved schedule is offered
        ConfigurationsPage* configurations = m_window->configurationsPage();
        const auto anyInterleaved = [configurations] {
            const auto& shapes = configurations->landscape().shapes;
            return std::any_of(shapes.begin(), shapes.end(),
                               [](const RankedConfig& shape) { return shape.config.interleave > 1; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(anyInterleaved(), 60000);
        QTest::mouseClick(interleave, Qt::LeftButton, Qt::NoModifier, QPoint(8, interleave->height() / 2));
        QVERIFY(!interleave->isChecked());
        QVERIFY(!page->scenario().job.interleave);
        QTRY_VERIFY_WITH_TIMEOUT(!configurations->landscape().shapes.empty() && !anyInterleaved(), 60000);
    }

    // A 16-bit gradient buffer is off by default (Megatron-LM's fp32 gradients) and the job's once ticked;
    // 32-bit training greys the box out (it keeps 32-bit gradients) and the scenario file leaves it out.
    void bf16GradientsAreTheJobsWhenTicked() {
        ScenarioPage* page = m_window->scenarioPage();
        QCheckBox* gradients = page->stackSwitchBox("bf16_gradients");
        QVERIFY(!gradients->isChecked()); // the default: Megatron-LM's fp32 gradients
        QVERIFY(!page->scenario().job.bf16Gradients);
        QTest::mouseClick(gradients, Qt::LeftButton, Qt::NoModifier, QPoint(8, gradients->height() / 2));
        QVERIFY(gradients->isChecked());
        QVERIFY(page->scenario().job.bf16Gradients);

        QComboBox* precision = page->precisionBox();
        precision->setCurrentIndex(precision->findText(QStringLiteral("TF32")));
        QVERIFY(!gradients->isEnabled());
        QVERIFY(toJson(page->scenario()).find("job")->find("bf16_gradients") == nullptr);
        precision->setCurrentIndex(precision->findText(QStringLiteral("BF16")));
        QVERIFY(gradients->isEnabled() && gradients->isChecked()); // the choice survives the detour
        QCOMPARE(toJson(page->scenario()).find("job")->find("bf16_gradients")->toBool(), true);
    }

    // A custom shape starts from the preset picked before, dropout included (Llama trains without), and the
    // check box is what the run's model gets.
    void customShapeCarriesDropout() {
        ScenarioPage* page = m_window->scenarioPage();
        QComboBox* models = page->modelBox();
        models->setCurrentIndex(models->findData(QStringLiteral("llama2-7b")));
        models->setCurrentIndex(models->count() - 1); // "Custom shape..."
        QCheckBox* dropout = page->dropoutBox();
        QVERIFY(dropout->isVisible());
        QVERIFY(!dropout->isChecked());
        QVERIFY(!page->scenario().job.model.dropout);
        QTest::mouseClick(dropout, Qt::LeftButton, Qt::NoModifier, QPoint(5, dropout->height() / 2));
        QVERIFY(dropout->isChecked());
        QVERIFY(page->scenario().job.model.dropout);
    }

    // A mixture of experts' custom shape: starting from DeepSeek-V3 the form holds its latent attention and
    // its experts (the run's model is the preset's shape, counted the same), a broken MoE rule marks its
    // field with the loader's words, and unchecking the group is a dense model of the same dense fields.
    void customShapeCarriesExperts() {
        ScenarioPage* page = m_window->scenarioPage();
        QComboBox* models = page->modelBox();
        models->setCurrentIndex(models->findData(QStringLiteral("deepseek-v3")));
        models->setCurrentIndex(models->count() - 1); // "Custom shape..."
        const ModelSpec preset = *findModelPreset("deepseek-v3");
        QGroupBox* experts = page->expertsGroup();
        QVERIFY(experts->isVisible());
        QVERIFY(experts->isChecked());
        QCOMPARE(page->shapeBox("moe.experts")->value(), 256);
        QCOMPARE(page->shapeBox("attention.kv_lora_rank")->value(), 512);
        const ModelSpec custom = page->scenario().job.model;
        QCOMPARE(parameterCount(custom), parameterCount(preset)); // integer counts: exact in doubles
        QCOMPARE(activeParameterCount(custom), activeParameterCount(preset));
        QVERIFY(page->validationErrors().isEmpty());

        QSpinBox* perToken = page->shapeBox("moe.experts_per_token");
        perToken->setValue(300);
        const std::vector<ModelShapeProblem> problems = checkModelShape(page->scenario().job.model);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems.front().field, std::string("moe.experts_per_token"));
        QVERIFY(perToken->property("invalid").toBool());
        QCOMPARE(perToken->toolTip(), QString::fromStdString(problems.front().message));
        QVERIFY(!page->runButton()->isEnabled());
        perToken->setValue(8);
        QVERIFY(page->validationErrors().isEmpty());

        experts->setChecked(false);
        QVERIFY(!page->scenario().job.model.mixtureOfExperts());
        QCOMPARE(page->scenario().job.model.layers, preset.layers);
        experts->setChecked(true);
        QVERIFY(page->scenario().job.model.mixtureOfExperts());
    }

    void runShowsMetricsAndPlots() {
        ScenarioPage* page = m_window->scenarioPage();
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(page->cancelButton()->isEnabled());
        QVERIFY(shown.wait(kRunTimeoutMs));
        const int runs = shown.first().at(0).toInt();
        const int ticked = static_cast<int>(page->scenario().policies.size());
        QCOMPARE(runs, ticked);

        MetricsTableModel* metrics = m_window->resultsPage()->metrics();
        QCOMPARE(metrics->rowCount(), runs);
        for (int row = 0; row < runs; ++row) {
            QVERIFY(metrics->rows()[static_cast<std::size_t>(row)].metrics.finished);
            QVERIFY(metrics->numericValue(row, MetricsTableModel::TotalEmissions) > 0.0);
        }
        // static-max is the default baseline: its own savings are zero (up to rounding of an exact identity).
        int staticMax = -1;
        for (int row = 0; row < runs; ++row) {
            if (metrics->rows()[static_cast<std::size_t>(row)].name == QLatin1String("static-max"))
                staticMax = row;
        }
        QVERIFY(staticMax >= 0);
        QCOMPARE(metrics->baselineRow(), staticMax);
        QCOMPARE(metrics->numericValue(staticMax, MetricsTableModel::Savings), 0.0);
        // Issue 39: every other run says where its saving came from (the three parts add up to it), and the
        // page answers "does reshaping pay?" for the job with the dynamic-3d run's split.
        for (int row = 0; row < runs; ++row) {
            const QString split =
                metrics->data(metrics->index(row, MetricsTableModel::SavingSource)).toString();
            QVERIFY2(row == staticMax ? split == QStringLiteral("\u2013")
                                      : split.count(QLatin1Char('+')) == 2,
                     qPrintable(split));
        }
        QLabel* outlook = m_window->resultsPage()->outlook();
        QToolButton* unfold = m_window->resultsPage()->outlookToggle();
        QVERIFY(unfold->isVisible() && !outlook->isVisible()); // folded: the table keeps its rows at 800 px
        QTest::mouseClick(unfold, Qt::LeftButton);
        QVERIFY(outlook->isVisible());
        QVERIFY2(outlook->text().contains(QStringLiteral("Energy per token")) &&
                     outlook->text().contains(QStringLiteral("This run of dynamic-3d saved")),
                 qPrintable(outlook->text()));

        TimelinePlot* plot = m_window->resultsPage()->timeline();
        QCOMPARE(plot->graphCountOn(TimelinePlot::CarbonPanel), 2);
        QCOMPARE(plot->graphCountOn(TimelinePlot::ConfigurationPanel), runs);
        QCOMPARE(plot->graphCountOn(TimelinePlot::PowerPanel), runs);
        QCOMPARE(plot->graphCountOn(TimelinePlot::EmissionsPanel), runs);
        QVERIFY(!page->cancelButton()->isEnabled());
        QVERIFY(page->runButton()->isEnabled());
        m_window->grab().save(QStringLiteral(CARBON3D_BINARY_DIR "/tst_studio_results.png"));
    }

    // Issue 43, item 4: the answer comes first. Above the plots, the policy in focus against the baseline at
    // both ends of who pays for parked GPUs, each end run on its own (here checked against runs made apart
    // from the studio, on a job where dynamic-3d decides otherwise once parked GPUs are free); the table's
    // first columns are the answer's, its emissions in the unit its largest total reads best in.
    void theAnswerComesFirst() {
        ScenarioPage* page = m_window->scenarioPage();
        tickOnly(page, QStringLiteral("dynamic-3d"));
        page->policyBox(QStringLiteral("static-max"))->setChecked(true);
        page->tokensBox()->setValue(5.0);   // 5 B tokens: about a tonne
        page->slackSlider()->setValue(100); // a day or so to pause in
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        ResultsPage* results = m_window->resultsPage();
        AnswerBar* answer = results->answer();
        QVERIFY(answer->isVisible());
        QCOMPARE(results->focusBox()->currentText(), QStringLiteral("dynamic-3d"));
        QTRY_VERIFY_WITH_TIMEOUT(!answer->text().contains(QStringLiteral("running")), kRunTimeoutMs);

        // The same two ends, run here without the studio.
        const PreparedScenario prepared = prepareScenario(page->scenario());
        AnswerAtBothEnds expected;
        for (AttributionEnd* end : {&expected.charged, &expected.released}) {
            const double backfill = end == &expected.charged ? 0.0 : 1.0;
            const PreparedScenario there = atBackfill(prepared, backfill);
            *end = {backfill, runPolicy(there, {"static-max", {}}).metrics,
                    runPolicy(there, {"dynamic-3d", {}}).metrics};
        }
        const QString text = answer->text();
        QVERIFY2(text.startsWith(QStringLiteral("dynamic-3d against static-max")), qPrintable(text));
        for (const AttributionEnd& end : {expected.charged, expected.released})
            QVERIFY2(text.contains(QString::fromStdString(answerText(end))), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Parked GPUs charged to you (this scenario)")),
                 qPrintable(text));
        // Parked GPUs decide what dynamic-3d does: the released end is not the charged run re-priced.
        QVERIFY(expected.released.run.totalG != results->metrics()->rows()[1].metrics.sharedG);

        MetricsTableModel* metrics = results->metrics();
        const auto header = [&](int column) {
            return metrics->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        };
        QCOMPARE(header(1), QStringLiteral("Savings"));
        QCOMPARE(header(2), QStringLiteral("Cost change"));
        QCOMPARE(header(3), QStringLiteral("Completion (h)"));
        const double largest = std::max(metrics->rows()[0].metrics.totalG, metrics->rows()[1].metrics.totalG);
        QCOMPARE(header(MetricsTableModel::TotalEmissions), largest < 1e6
                                                                ? QStringLiteral("Total (kgCO\u2082e)")
                                                                : QStringLiteral("Total (tCO\u2082e)"));

        // Focusing the baseline has nothing to answer, and says so.
        results->focusBox()->setCurrentIndex(0);
        QVERIFY2(answer->text().contains(QStringLiteral("is the baseline")), qPrintable(answer->text()));
    }

    // Issue 18: the prices typed on the Scenario page reach every run and its Cost column.
    void pricesReachTheRun() {
        ScenarioPage* page = m_window->scenarioPage();
        auto* gpuPrice =
            qobject_cast<QDoubleSpinBox*>(page->modellingForm()->editor("gpu_price_usd_per_hour"));
        auto* capacity = qobject_cast<QComboBox*>(page->modellingForm()->editor("gpu_capacity"));
        auto* carbonPrice =
            qobject_cast<QDoubleSpinBox*>(page->modellingForm()->editor("carbon_price_usd_per_t"));
        QVERIFY(gpuPrice && capacity && carbonPrice);
        QCOMPARE(gpuPrice->text(), QStringLiteral("cluster list price")); // the preset's, unset
        QVERIFY(std::isnan(page->scenario().modelling.gpuPriceUsdPerHour));
        capacity->setFocus();
        QTest::keyClick(capacity, Qt::Key_Down); // on demand -> reserved
        carbonPrice->setFocus();
        carbonPrice->selectAll();
        QTest::keyClicks(carbonPrice, QStringLiteral("100"));
        QTest::keyClick(carbonPrice, Qt::Key_Tab);
        const Scenario scenario = page->scenario();
        QCOMPARE(scenario.modelling.gpuCapacity, ModellingOptions::GpuCapacity::Reserved);
        QCOMPARE(scenario.modelling.carbonPriceUsdPerT, 100.0);
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        MetricsTableModel* metrics = m_window->resultsPage()->metrics();
        for (int row = 0; row < metrics->rowCount(); ++row) {
            const RunMetrics& m = metrics->rows()[static_cast<std::size_t>(row)].metrics;
            // 1e-9 relative: the carbon cost is the total's grams at 100 USD per tonne, summed per interval.
            QVERIFY(std::abs(m.carbonCostUsd - m.totalG / 1e6 * 100.0) <= 1e-9 * m.carbonCostUsd);
            QVERIFY(m.gpuCostUsd > 0.0); // the cluster's list price
            QCOMPARE(metrics->numericValue(row, MetricsTableModel::Cost), m.costUsd / 1e3);
        }
    }

    // Issue 15, item 7: the "why" panel explains the moment under the mouse in each policy's own terms,
    // keeps it when the mouse leaves, and forgets it on the next run. Issue 15, item 11: the metrics
    // table keeps its Run column in view while the numbers scroll sideways.
    void whyPanelExplainsTheMomentUnderTheMouse() {
        ScenarioPage* page = m_window->scenarioPage();
        tickOnly(page, QStringLiteral("suspend-resume"));
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        ResultsPage* results = m_window->resultsPage();
        QVERIFY(m_window->showPage(QStringLiteral("results")));
        QPlainTextEdit* why = results->whyPanel();
        QVERIFY(why->toPlainText().isEmpty());
        TimelinePlot* plot = results->timeline();
        QCPAxisRect* carbon = plot->panel(TimelinePlot::CarbonPanel);
        const QPoint inside = carbon->rect().center();
        QTest::mouseMove(plot, inside);
        const QString text = why->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("suspend-resume:")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("why: forecast")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("threshold")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Alternatives at this intensity")), qPrintable(text));
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        QCOMPARE(why->toPlainText(), text);

        FrozenColumnTable* table = results->metricsView();
        table->resize(420, table->height()); // narrower than its columns, as at 1280 px with the panel
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        QVERIFY(table->horizontalScrollBar()->maximum() > 0);
        QTableView* frozen = table->frozenView();
        QVERIFY(frozen->isVisible());
        QCOMPARE(frozen->width(), table->columnWidth(0));
        QVERIFY(frozen->model()
                    ->data(frozen->model()->index(0, 0))
                    .toString()
                    .startsWith(QStringLiteral("suspend-resume")));
        for (int column = 1; column < frozen->model()->columnCount(); ++column)
            QVERIFY(frozen->isColumnHidden(column));

        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        QVERIFY(why->toPlainText().isEmpty()); // a new run: the old moment no longer applies
    }

    // Issue 41: what runs warn is shown with them, each warning once with the runs that gave it.
    void runWarningsAreShownOnceEach() {
        ResultsPage* results = m_window->resultsPage();
        RunResult first;
        first.policy = "static-max";
        first.warnings = {"region westus: its time zone is not known"};
        RunResult second = first;
        second.policy = "oracle";
        second.warnings.push_back("oracle: the best schedule found, not proven optimal");
        results->showWarnings({}, {first, second});
        auto* label = results->findChild<QLabel*>(QStringLiteral("runWarnings"));
        QVERIFY(label != nullptr && !label->isHidden());
        QCOMPARE(label->text(), QStringLiteral("every run: region westus: its time zone is not known\n"
                                               "oracle: the best schedule found, not proven optimal"));
        results->showWarnings({}, {});
        QVERIFY(label->isHidden());
    }

    // Issue 15, item 11: before the first run the preview follows the region (a bundled trace is read in
    // the background when first picked) and the start; the local-time line under the start names the zone.
    void previewFollowsRegionAndStart() {
        ScenarioPage* page = m_window->scenarioPage();
        TimelinePlot* plot = m_window->resultsPage()->timeline();
        QCOMPARE(QString::fromStdString(plot->trace().regionId), QStringLiteral("US-CAL-CISO"));
        QComboBox* regions = page->regionBox();
        const int germany = regions->findText(QStringLiteral("DE"), Qt::MatchStartsWith);
        QVERIFY(germany >= 0);
        regions->setFocus();
        while (regions->currentIndex() != germany)
            QTest::keyClick(regions, regions->currentIndex() < germany ? Qt::Key_Down : Qt::Key_Up);
        QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(plot->trace().regionId), QStringLiteral("DE"),
                                  30000);
        QVERIFY(!m_window->resultsPage()->hasResults());
        const QCPRange shown = plot->panel(TimelinePlot::CarbonPanel)->axis(QCPAxis::atBottom)->range();
        QVERIFY(std::abs(shown.lower - static_cast<double>(page->scenario().startUtc)) < 86400.0);
        auto* local = page->findChild<QLabel*>(QStringLiteral("startLocal"));
        QVERIFY(local != nullptr);
        QVERIFY2(local->text().contains(QStringLiteral("CET")) ||
                     local->text().contains(QStringLiteral("CEST")) ||
                     local->text().contains(QStringLiteral("GMT+")),
                 qPrintable(local->text()));
    }

    // Issue 15, item 1: every entry of the region list runs (before, any bundled region but the scenario's
    // own failed with "expected a non-empty carbon trace for region 'DE'"). Chosen with the keyboard, as a
    // person would, one policy each so that seven runs stay quick under the sanitizers.
    void everyBundledRegionRuns() {
        ScenarioPage* page = m_window->scenarioPage();
        for (const PolicyInfo& info : policyCatalog())
            if (QCheckBox* box = page->policyBox(QString::fromStdString(info.name)))
                box->setChecked(info.name == "static-max");
        QComboBox* regions = page->regionBox();
        QVERIFY(regions->count() >= 7);
        const QString own = regions->currentText(); // the scenario file's region keeps the file's name
        regions->setFocus();
        while (regions->currentIndex() > 0)
            QTest::keyClick(regions, Qt::Key_Up);
        for (int entry = 0; entry < regions->count(); ++entry) {
            if (entry > 0)
                QTest::keyClick(regions, Qt::Key_Down);
            QCOMPARE(regions->currentIndex(), entry);
            const QString region = regions->currentText().section(QLatin1Char(' '), 0, 0);
            QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
            QSignalSpy failed(m_window.get(), &MainWindow::runFailed);
            QTest::mouseClick(page->runButton(), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() || !failed.isEmpty(), kRunTimeoutMs);
            const QString failure = failed.isEmpty() ? QString() : failed.first().at(0).toString();
            QVERIFY2(failed.isEmpty(), qPrintable(region + QStringLiteral(": ") + failure));
            const MetricsTableModel* metrics = m_window->resultsPage()->metrics();
            QCOMPARE(metrics->rowCount(), 1);
            const RunMetrics& run = metrics->rows().front().metrics;
            QVERIFY2(run.finished, qPrintable(region));
            QVERIFY(run.totalG > 0.0);
            // The scenario's name follows the region (it was "... in California" for every one).
            const QString name = QString::fromStdString(page->scenario().name);
            QVERIFY2(regions->currentText() == own || name.contains(region),
                     qPrintable(name + QStringLiteral(" for ") + region));
        }
    }

    // Issue 15, item 6: "Export series CSV..." asks for a folder and writes a series and a metrics CSV per
    // run there (before, the button was connected to nothing: no dialog, message or file).
    void exportSeriesWritesOneCsvPerRun() {
        ScenarioPage* page = m_window->scenarioPage();
        for (const PolicyInfo& info : policyCatalog())
            if (QCheckBox* box = page->policyBox(QString::fromStdString(info.name)))
                box->setChecked(info.name == "static-max" || info.name == "best-static");
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        QTemporaryDir target;
        // As a person chooses a folder: open it and press Choose with nothing typed. (Typing its path as well
        // raced the dialog's file model, which had not listed the new folder yet, and chose its parent.)
        const FileDialogAnswer answer(
            [&target](QFileDialog* dialog) { dialog->setDirectory(target.path()); });
        QTest::mouseClick(m_window->resultsPage()->exportSeriesButton(), Qt::LeftButton);
        QVERIFY(answer.seen());
        // Two runs, a series and a metrics file each; written in the background.
        QTRY_VERIFY_WITH_TIMEOUT(
            QDir(target.path()).entryList({QStringLiteral("*.csv")}, QDir::Files).size() >= 4, 30000);
        const QStringList files = QDir(target.path()).entryList({QStringLiteral("*.csv")}, QDir::Files);
        QVERIFY2(files.join(QLatin1Char(' ')).contains(QStringLiteral("static-max")),
                 qPrintable(files.join(QLatin1Char(' '))));
        QVERIFY2(files.join(QLatin1Char(' ')).contains(QStringLiteral("best-static")),
                 qPrintable(files.join(QLatin1Char(' '))));
    }

    // Issue 15, item 11: Open Recent listed default.json twice (two spellings of one path).
    // Issue 15, item 5: exports start in the documents folder, then wherever the last one went; opening a
    // scenario from the sample data does not move them there.
    void exportsStartInTheDocumentsFolderThenRemember() {
        settings::exportDirectory.set(QString());
        const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const QString start = documents.isEmpty() || !QDir(documents).exists() ? QDir::homePath() : documents;
        QCOMPARE(MainWindow::exportDirectory(), start);
        settings::lastDirectory.set(QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data/scenarios"));
        QCOMPARE(MainWindow::exportDirectory(), start);

        QTemporaryDir figures;
        const QString path = figures.filePath(QStringLiteral("timeline.png"));
        QTimer::singleShot(0, this, [path] {
            auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog != nullptr);
            QVERIFY(dialog->pathEdit()->text().startsWith(MainWindow::exportDirectory()));
            dialog->pathEdit()->setText(path);
            dialog->accept();
        });
        QTest::mouseClick(m_window->resultsPage()->exportFigureButton(), Qt::LeftButton);
        QVERIFY(QFile::exists(path));
        QCOMPARE(MainWindow::exportDirectory(), figures.path());
        settings::exportDirectory.set(QString());
    }

    // Issue 43, item 7: "Save scenario as" proposed writing over the bundled default.json. It proposes the
    // same name in the user's folder, even when the last file was opened from the sample data.
    void savingABundledScenarioProposesTheUsersFolder() {
        settings::exportDirectory.set(QString());
        settings::lastDirectory.set(QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data/scenarios"));
        QAction* save = nullptr;
        for (QAction* action : m_window->findChildren<QAction*>())
            if (action->text().startsWith(QStringLiteral("&Save scenario as")))
                save = action;
        QVERIFY(save != nullptr);
        QTemporaryDir mine;
        const QString path = mine.filePath(QStringLiteral("my-default.json"));
        QString proposedFolder;
        QString proposedName;
        const FileDialogAnswer answer([&](QFileDialog* dialog) {
            auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            QVERIFY(name != nullptr);
            if (proposedFolder.isEmpty()) {
                proposedFolder = dialog->directory().absolutePath();
                proposedName = name->text();
            }
            name->setText(path);
        });
        save->trigger();
        QVERIFY(answer.seen());
        QCOMPARE(proposedName, QStringLiteral("default.json"));
        QCOMPARE(QDir(proposedFolder).canonicalPath(), QDir(MainWindow::exportDirectory()).canonicalPath());
        QVERIFY2(!proposedFolder.contains(QStringLiteral("sample_data")), qPrintable(proposedFolder));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), 10000);
        settings::lastDirectory.set(QString());
    }

    // Issue 15, item 8: Tab reaches every policy check box, every Options button and Run.
    void tabReachesEveryPolicyAndRun() {
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QApplication::setActiveWindow(m_window.get()); // no window manager under Xvfb activates it
        ScenarioPage* page = m_window->scenarioPage();
        page->startEdit()->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(page->startEdit()->hasFocus());
        QSet<QWidget*> reached;
        for (int press = 0; press < 400; ++press) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            reached.insert(QApplication::focusWidget());
        }
        for (QCheckBox* box : page->findChildren<QCheckBox*>()) {
            if (page->policyBox(box->objectName()) == box)
                QVERIFY2(reached.contains(box), qPrintable(box->objectName()));
        }
        for (QToolButton* options : page->findChildren<QToolButton*>()) {
            if (options->objectName().startsWith(QStringLiteral("options:")))
                QVERIFY2(reached.contains(options), qPrintable(options->objectName()));
        }
        QVERIFY(reached.contains(page->runButton()));
    }

    // Issue 15, item 1: results from before an edit say so, and a failed run says why, whole, above the
    // plots (the status bar cut it off and left the old results unmarked).
    void staleResultsAndErrorsAreMarked() {
        QAction* live = nullptr;
        for (QAction* action : m_window->findChildren<QAction*>())
            if (action->text().contains(QStringLiteral("what-if"), Qt::CaseInsensitive))
                live = action;
        QVERIFY(live != nullptr);
        live->setChecked(false); // the banner is what this test watches, not the re-run
        ScenarioPage* page = m_window->scenarioPage();
        ResultsPage* results = m_window->resultsPage();
        tickOnly(page, QStringLiteral("static-max"));
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        QVERIFY(!results->notice()->isVisible());
        page->startEdit()->setDateTime(page->startEdit()->dateTime().addDays(1));
        QVERIFY(results->notice()->isVisible());
        QVERIFY(results->notice()->text().contains(QStringLiteral("previous settings")));
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        QVERIFY(!results->notice()->isVisible());

        const QString longMessage =
            QStringLiteral("static-max: /some/long/path/to/a/scenario/file/default.json: expected a "
                           "non-empty carbon trace for region 'DE' (the whole of this must be shown)");
        Q_EMIT m_window->controller()->failed(longMessage);
        QVERIFY(results->notice()->isVisible());
        QVERIFY(results->notice()->text().contains(longMessage));
        QVERIFY(results->notice()->text().contains(QStringLiteral("from the run before")));
        live->setChecked(true);
    }

    // Issue 43, item 7: presets sort by family, then size (their files sorted as text: Megatron 1.7B,
    // 145.6B, 18.4B, 1T), and a token budget shows no trailing zeros ("1000.000 B tokens").
    void modelPresetsSortBySizeAndBudgetsReadPlainly() {
        ScenarioPage* page = m_window->scenarioPage();
        QStringList megatron;
        for (int i = 0; i < page->modelBox()->count(); ++i)
            if (page->modelBox()->itemText(i).startsWith(QStringLiteral("Megatron GPT")))
                megatron << page->modelBox()->itemText(i).section(QLatin1Char(' '), 2, 2);
        QCOMPARE(megatron,
                 QStringList({QStringLiteral("1.7B"), QStringLiteral("3.6B"), QStringLiteral("7.5B"),
                              QStringLiteral("18.4B"), QStringLiteral("39.1B"), QStringLiteral("76.1B"),
                              QStringLiteral("145.6B"), QStringLiteral("310.1B"), QStringLiteral("529.6B"),
                              QStringLiteral("1T")}));
        page->tokensBox()->setValue(1000.0);
        QCOMPARE(page->tokensBox()->text(), QStringLiteral("1000 B tokens"));
        page->tokensBox()->setValue(0.012);
        QCOMPARE(page->tokensBox()->text(), QStringLiteral("0.012 B tokens"));
    }

    // Issue 43, item 1: while the first scenario loads the form takes no edit (one made then was overwritten
    // by the loaded scenario, and Ctrl+R ran California on a loaded machine); a Run asked for meanwhile
    // runs the loaded scenario once it is in the form.
    void aRunAskedForWhileLoadingRunsTheLoadedScenario() {
        MainWindow window(kData, {}, m_dir.filePath(QStringLiteral("loading.sqlite")));
        QVERIFY(!window.scenarioPage()->isEnabled()); // nothing loaded yet: the scan has not even run
        QSignalSpy loaded(&window, &MainWindow::scenarioLoaded);
        QSignalSpy shown(&window, &MainWindow::runsShown);
        window.runCurrentScenario();
        QVERIFY(!window.controller()->isRunning());
        QVERIFY(loaded.wait(30000));
        QVERIFY(window.scenarioPage()->isEnabled());
        QVERIFY(shown.wait(kRunTimeoutMs));
        QCOMPARE(window.resultsPage()->scenarioName(),
                 QStringLiteral("GPT-3 175B on 1,024 A100s in California, June 2022"));
    }

    // Issue 43, item 1: an edit made while a batch runs is never lost. The region changes mid-run (a job
    // of months, so the run is still going): the banner says so at once and the plots grey out; the batch
    // that comes back (California's) stays marked, and live what-if runs the edited scenario (Germany's)
    // as soon as it ends. A policy unticked mid-run is an edit like any other; a cancel after an edit
    // promises no re-run, and neither does a form with an error.
    void anEditDuringARunIsNeverLost() {
        ScenarioPage* page = m_window->scenarioPage();
        ResultsPage* results = m_window->resultsPage();
        // The oracle makes the batch last (seconds even in a release build), so the edits land mid-run.
        tickOnly(page, QStringLiteral("static-max"));
        page->policyBox(QStringLiteral("suspend-resume"))->setChecked(true);
        page->policyBox(QStringLiteral("oracle"))->setChecked(true);
        page->tokensBox()->setValue(page->tokensBox()->value() * 10);
        page->startEdit()->setDateTime(QDateTime(QDate(2022, 1, 1), QTime(0, 0), Qt::UTC));
        double progress = 0.0;
        connect(m_window->controller(), &SimulationController::progressChanged, this,
                [&progress](double fraction, const QString&) { progress = fraction; });
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(progress > 0.0, kRunTimeoutMs);
        QVERIFY(m_window->controller()->isRunning());
        const QString ranName = QString::fromStdString(page->scenario().name);
        QComboBox* regions = page->regionBox();
        regions->setCurrentIndex(regions->findText(QStringLiteral("DE"), Qt::MatchStartsWith));
        page->policyBox(QStringLiteral("suspend-resume"))->setChecked(false);
        const QString editedName = QString::fromStdString(page->scenario().name);
        QVERIFY(editedName != ranName);
        QVERIFY(results->notice()->isVisible());
        QVERIFY2(results->notice()->text().contains(QStringLiteral("while it ran")),
                 qPrintable(results->notice()->text()));
        QVERIFY2(results->notice()->text().contains(QStringLiteral("when this run ends")),
                 qPrintable(results->notice()->text()));
        QVERIFY(results->showsStale());
        // The batch that started: shown, named for what it ran, and still marked stale.
        QVERIFY(shown.wait(kRunTimeoutMs));
        QCOMPARE(results->scenarioName(), ranName);
        QCOMPARE(shown.first().at(0).toInt(), 3);
        QVERIFY(results->notice()->isVisible());
        QVERIFY(results->showsStale());
        // Then the edited scenario, with the form's one policy, at once and unmarked.
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2, kRunTimeoutMs);
        QCOMPARE(results->scenarioName(), editedName);
        QCOMPARE(shown.at(1).at(0).toInt(), 2);
        QVERIFY(!results->notice()->isVisible());
        QVERIFY(!results->showsStale());

        // Edited again mid-run, then cancelled: the banner stays and promises nothing.
        progress = 0.0;
        page->startEdit()->setDateTime(page->startEdit()->dateTime().addDays(7)); // live what-if re-runs it
        QTRY_VERIFY_WITH_TIMEOUT(progress > 0.0 && m_window->controller()->isRunning(), kRunTimeoutMs);
        page->slackSlider()->setValue(page->slackSlider()->value() + 5);
        QSignalSpy cancelled(m_window->controller(), &SimulationController::cancelled);
        QTest::mouseClick(page->cancelButton(), Qt::LeftButton);
        QVERIFY(cancelled.wait(kRunTimeoutMs));
        QVERIFY(results->notice()->isVisible());
        QVERIFY2(results->notice()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(results->notice()->text()));
        QVERIFY(!results->notice()->text().contains(QStringLiteral("re-runs")));
        QTest::qWait(1500); // twice live what-if's delay: nothing starts
        QVERIFY(!m_window->controller()->isRunning());
        QCOMPARE(shown.count(), 2);

        // An edit that leaves the form invalid says what to fix, and runs nothing.
        QSpinBox* cp = page->contextParallelBox();
        cp->selectAll();
        QTest::keyClicks(cp, QStringLiteral("3"));
        QVERIFY(!page->validationErrors().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(results->notice()->text().contains(QStringLiteral("Fix the form")), 5000);
        QVERIFY(!results->notice()->text().contains(QStringLiteral("re-runs")));
        QTest::qWait(1500);
        QVERIFY(!m_window->controller()->isRunning());
    }

    // Issue 15, item 11: 61 GPUs of the default job run as at most 32; the form says the rest stay idle.
    void gpusNoConfigurationCanUseAreNamed() {
        ScenarioPage* page = m_window->scenarioPage();
        QSpinBox* gpus = nullptr;
        for (QSpinBox* box : page->findChildren<QSpinBox*>())
            if (box->suffix() == QStringLiteral(" GPUs"))
                gpus = box;
        QVERIFY(gpus != nullptr);
        gpus->setValue(61);
        QTRY_VERIFY_WITH_TIMEOUT(page->gpuNote()->isVisibleTo(page), 30000);
        QVERIFY2(page->gpuNote()->text().contains(QStringLiteral("of the 61 GPUs")),
                 qPrintable(page->gpuNote()->text()));
        gpus->setValue(64);
        QTRY_VERIFY_WITH_TIMEOUT(!page->gpuNote()->isVisibleTo(page), 30000);
    }

    void openRecentListsAFileOnce() {
        // From an empty list: earlier tests (and earlier runs, in the shared test-mode settings) open files
        // too.
        settings::recentScenarios.set({});
        RecentFilesMenu menu(QStringLiteral("Open recent"));
        const QString direct = kData + QStringLiteral("/scenarios/default.json");
        const QString roundabout = kData + QStringLiteral("/scenarios/../scenarios/./default.json");
        menu.add(direct);
        menu.add(roundabout);
        menu.add(kData + QStringLiteral("/scenarios/learn-windy-germany.json"));
        menu.add(direct);
        QCOMPARE(menu.actions().size(), 2);
        QCOMPARE(menu.actions().first()->text(), QStringLiteral("default.json"));
    }

    void cancelStopsALongRun() {
        ScenarioPage* page = m_window->scenarioPage();
        // A job ten times the default (months long): the run lasts long enough to be cancelled mid-way.
        page->tokensBox()->setValue(page->tokensBox()->value() * 10);
        page->startEdit()->setDateTime(QDateTime(QDate(2022, 1, 1), QTime(0, 0), Qt::UTC));
        QSignalSpy cancelled(m_window->controller(), &SimulationController::cancelled);
        QSignalSpy finished(m_window->controller(), &SimulationController::finished);
        double progress = 0.0;
        QString said;
        connect(m_window->controller(), &SimulationController::progressChanged, this,
                [&progress, &said](double fraction, const QString& text) {
                    progress = fraction;
                    said = text;
                });
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(m_window->controller()->isRunning());
        // Cancel in the middle of the simulation proper (the policies are stepping through the trace).
        QTRY_VERIFY_WITH_TIMEOUT(progress > 0.0, kRunTimeoutMs);
        // Issue 43, item 7: what is still running is named (a year's ILP plan said only "Running..." for
        // minutes).
        QTRY_VERIFY_WITH_TIMEOUT(said.startsWith(QStringLiteral("Running ")) &&
                                     said.contains(QStringLiteral(" done)")),
                                 kRunTimeoutMs);
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(page->cancelButton(), Qt::LeftButton);
        QVERIFY(cancelled.wait(kRunTimeoutMs));
        // The issue's bar is 100 ms in a release build (docs/PERFORMANCE.md); this build has sanitizers
        // (several times slower) and a loaded two-core machine, so the test allows 2 s.
        qInfo("cancel took %lld ms from the click to the cancelled signal",
              static_cast<long long>(clock.elapsed()));
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(finished.count(), 0);
        QVERIFY(page->runButton()->isEnabled());
    }

    // Issue 43, item 7: a job that outgrows its trace fails once, not once per policy, and says what would
    // fit.
    void aJobLongerThanItsTraceFailsOnceWithAHint() {
        ScenarioPage* page = m_window->scenarioPage();
        page->tokensBox()->setValue(3000.0); // months past the end of 2022 from June
        QSignalSpy failed(m_window.get(), &MainWindow::runFailed);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(failed.wait(kRunTimeoutMs));
        const QString message = failed.first().at(0).toString();
        QCOMPARE(message.count(QStringLiteral("to cover the job")), 1);
        QVERIFY2(message.contains(QStringLiteral("start earlier")), qPrintable(message));
        // Named as what ran (the edited form), not as the file it was loaded from.
        QVERIFY2(message.startsWith(QStringLiteral("the edited scenario \u201cGPT-3 175B, 3000 B tokens")),
                 qPrintable(message));
        QVERIFY(!failed.wait(500)); // and nothing more
    }

    void droppingAMalformedTraceShowsTheErrorInline() {
        ScenarioPage* page = m_window->scenarioPage();
        const QString path = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/ui/negative_value.csv");
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(path)});
        QSignalSpy requested(page, &ScenarioPage::importTraceRequested);
        // A drag enters the form first (Qt delivers a drop only to a widget that accepted the drag).
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(page, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(page, &drop);
        QCOMPARE(requested.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(page->importErrorLabel()->isVisible(), 30000);
        const QString text = page->importErrorLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("negative_value.csv:3")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("negative")), qPrintable(text));
        QCOMPARE(page->regionBox()->currentText(),
                 QStringLiteral("US-CAL-CISO California (2022)")); // nothing replaced
        delete mime;
    }

    // Issue 43, item 7: an import says what reading it assumed (format, column, unit, time zone, grid) under
    // the region, and the line stays through later edits while the import is chosen.
    void anImportSaysWhatItAssumed() {
        ScenarioPage* page = m_window->scenarioPage();
        const QString path =
            QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/traces/US-CAL-CISO_plain_lbs.csv");
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(page, &enter);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(page, &drop);
        QTRY_VERIFY_WITH_TIMEOUT(page->regionBox()->currentText().endsWith(QStringLiteral("(imported)")),
                                 30000);
        QLabel* note = page->traceNoteLabel();
        QVERIFY(note->isVisible());
        const CarbonTrace read = loadCarbonTrace(path.toStdString());
        QCOMPARE(note->text(),
                 QStringLiteral("Read as: ") + QString::fromStdString(traceAssumptionsText(read)));
        for (const char* said : {"lbs", "time zone America/Los_Angeles", "slots of 60 min"})
            QVERIFY2(note->text().contains(QLatin1String(said)), qPrintable(note->text()));
        page->tokensBox()->setValue(page->tokensBox()->value() + 1.0); // an edit elsewhere
        QVERIFY(note->isVisible());
        page->regionBox()->setCurrentIndex(0); // a bundled region: the line goes, the tooltip stays
        QVERIFY(!note->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT( // once its trace is read (off the GUI thread, for the preview)
            page->regionBox()->itemData(0, Qt::ToolTipRole).toString().contains(QStringLiteral("time zone")),
            30000);
        delete mime;
    }

    void guiStaysResponsiveDuringAYearLongRun() {
        ScenarioPage* page = m_window->scenarioPage();
        // ~8 months of training from January 1st: a year-scale run over the full hourly trace.
        page->startEdit()->setDateTime(QDateTime(QDate(2022, 1, 1), QTime(0, 0), Qt::UTC));
        page->tokensBox()->setValue(page->tokensBox()->value() * 20);
        page->slackSlider()->setValue(10);
        QElapsedTimer sinceLastTick;
        qint64 worstGapMs = 0;
        // Measured while the policies step through the trace: from the first progress report above 0 to
        // progress 1.0 (the click, the preparation and the drawing of the results come before and after).
        enum class Phase { Waiting, Simulating, Done } phase = Phase::Waiting;
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, this, [&] {
            if (phase == Phase::Simulating)
                worstGapMs = std::max(worstGapMs, sinceLastTick.restart());
        });
        connect(m_window->controller(), &SimulationController::progressChanged, this,
                [&](double fraction, const QString&) {
                    if (phase == Phase::Waiting && fraction > 0.0 && fraction < 1.0) {
                        phase = Phase::Simulating;
                        sinceLastTick.restart();
                    } else if (fraction >= 1.0) {
                        phase = Phase::Done;
                    }
                });
        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QSignalSpy failed(m_window.get(), &MainWindow::runFailed);
        sinceLastTick.start();
        probe.start();
        QTest::qWait(500); // let the edits' background work (runtime estimate, configuration search) land
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() + failed.count() > 0, kRunTimeoutMs);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QVERIFY(phase == Phase::Done); // the measurement window opened and closed
        qInfo("worst event-loop gap while simulating: %lld ms", static_cast<long long>(worstGapMs));
        // The issue's bar: the event loop never stalls for more than 50 ms while the scenario runs.
        QVERIFY2(worstGapMs <= 50, qPrintable(QStringLiteral("worst gap %1 ms").arg(worstGapMs)));
    }

    void comparingTwoStoredRunsShowsTheirDeltas() {
        ScenarioPage* page = m_window->scenarioPage();
        QSignalSpy saved(m_window.get(), &MainWindow::runsSaved);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(saved.wait(kRunTimeoutMs));
        ComparePage* compare = m_window->comparePage();
        QTRY_VERIFY_WITH_TIMEOUT(compare->runsModel()->rowCount() >= 2, 30000);
        QVERIFY(compare->tradeoffPlot()->pointCount() >= 2);
        // Issue 18: the same runs against their cost, beside emissions against completion.
        QCOMPARE(compare->costTradeoffPlot()->pointCount(), compare->tradeoffPlot()->pointCount());

        // Select the first two listed runs with the mouse (click, then ctrl-click) and press Compare.
        QTableView* view = compare->runsView();
        m_window->showPage(QStringLiteral("compare"));
        const QRect first = view->visualRect(view->model()->index(0, 1));
        const QRect second = view->visualRect(view->model()->index(1, 1));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, first.center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, second.center());
        QVERIFY(compare->compareButton()->isEnabled());
        QTest::mouseClick(compare->compareButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(compare->deltaModel()->rowCount(), 2, 30000);

        // The store computes the deltas; check them against the two runs' own metrics.
        const auto& rows = compare->deltaModel()->rows();
        const RunComparison& baseline = rows[0].runId == rows[0].baselineId ? rows[0] : rows[1];
        const RunComparison& other = rows[0].runId == rows[0].baselineId ? rows[1] : rows[0];
        QCOMPARE(baseline.savedG, 0.0); // a run against itself: exactly zero
        // Same doubles subtracted in the same order: equal to the last bit.
        QCOMPARE(other.savedG, baseline.metrics.totalG - other.metrics.totalG);
        QVERIFY(other.sameScenario);
        // Issue 18: the cost delta beside the carbon one, in thousand USD.
        const int otherRow = rows[0].runId == other.runId ? 0 : 1;
        const QString extraCost =
            compare->deltaModel()->index(otherRow, DeltaTableModel::ExtraCost).data().toString();
        QCOMPARE(extraCost,
                 QString::number((other.metrics.costUsd - baseline.metrics.costUsd) / 1e3, 'f', 2));
        QCOMPARE(compare->overlayPlot()->graphCountOn(TimelinePlot::EmissionsPanel), 2);

        // The scatter shows what the filter lets through (it used to show every run, and so did its
        // exports).
        const int everyPoint = compare->tradeoffPlot()->pointCount();
        QTest::keyClicks(compare->filterEdit(), QStringLiteral("oracle"));
        QVERIFY(compare->tradeoffPlot()->pointCount() < everyPoint);
        QVERIFY(compare->tradeoffPlot()->pointCount() <= compare->runsView()->model()->rowCount());
        compare->filterEdit()->clear();
        QCOMPARE(compare->tradeoffPlot()->pointCount(), everyPoint);
    }

    // Runs that started a month apart overlay by date side by side, and on one clock when aligned.
    void aligningRunsThatStartedOnDifferentDays() {
        ScenarioPage* page = m_window->scenarioPage();
        tickOnly(page, QStringLiteral("static-max"));
        QSignalSpy saved(m_window.get(), &MainWindow::runsSaved);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(saved.wait(kRunTimeoutMs));
        const UtcSeconds firstStart = page->scenario().startUtc;
        page->startEdit()->setDateTime(page->startEdit()->dateTime().addDays(30));
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(saved.wait(kRunTimeoutMs));

        // The static-max runs of the two starts (earlier tests of this class saved runs in the same
        // database, and an identical run is stored once, under its first id), once the page lists them.
        std::vector<RunId> newest(2, 0);
        for (const RunSummary& run :
             ResultsStore(m_dir.filePath(QStringLiteral("results.sqlite")).toStdString()).listRuns()) {
            if (run.policy != "static-max")
                continue;
            if (run.startUtc == firstStart)
                newest[0] = std::max(newest[0], run.id);
            else if (run.startUtc == firstStart + 30 * kSecondsPerDay)
                newest[1] = std::max(newest[1], run.id);
        }
        QVERIFY(newest[0] > 0 && newest[1] > 0);
        ComparePage* compare = m_window->comparePage();
        auto listed = [compare](RunId id) {
            for (int row = 0; row < compare->runsModel()->rowCount(); ++row)
                if (compare->runsModel()->runAt(row)->id == id)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(listed(newest[0]) && listed(newest[1]), 30000);
        m_window->showPage(QStringLiteral("compare"));
        compare->selectRuns(newest);
        // Two starts are two scenarios: each run is measured against its own scenario's static-max (here
        // itself), not one start against the other (issue 15, item 9).
        QVERIFY(compare->baselineBox()->currentText().contains(QStringLiteral("each run's scenario")));
        QCOMPARE(compare->tradeoffPlot()->highlightedCount(), 2);
        QTest::mouseClick(compare->compareButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(compare->deltaModel()->rowCount(), 2, 30000);
        for (const RunComparison& row : compare->deltaModel()->rows()) {
            QCOMPARE(row.baselineId, row.runId);
            QVERIFY(row.sameScenario);
            QCOMPARE(row.savedG, 0.0);
        }
        QCOMPARE(compare->deltaModel()->headerData(DeltaTableModel::Region, Qt::Horizontal).toString(),
                 QStringLiteral("Region"));
        TimelinePlot* overlay = compare->overlayPlot();
        auto firstKeys = [overlay] {
            std::vector<double> keys;
            for (int i = 0; i < overlay->graphCount(); ++i)
                if (overlay->graph(i)->keyAxis() ==
                    overlay->panel(TimelinePlot::EmissionsPanel)->axis(QCPAxis::atBottom))
                    keys.push_back(overlay->graph(i)->data()->constBegin()->key);
            return keys;
        };
        std::vector<double> byDate = firstKeys();
        QCOMPARE(byDate.size(), std::size_t(2));
        // 30 days apart to the second (whole-second times).
        QCOMPARE(std::abs(byDate[1] - byDate[0]), 30.0 * 86400.0);
        compare->alignAtStartBox()->setChecked(true);
        const std::vector<double> aligned = firstKeys();
        QCOMPARE(aligned, (std::vector<double>{0.0, 0.0}));
        QVERIFY(overlay->elapsedTime());
        // Constant power (static-max): the axis still spans 0 to 1.15 x the largest value drawn (the same
        // product, so QCOMPARE's relative 1e-12 fuzz is ample).
        double power = 0.0;
        for (int i = 0; i < overlay->graphCount(); ++i) {
            bool found = false;
            if (overlay->graph(i)->valueAxis() ==
                overlay->panel(TimelinePlot::PowerPanel)->axis(QCPAxis::atLeft))
                power = std::max(power, overlay->graph(i)->getValueRange(found).upper);
        }
        QVERIFY(power > 0.0);
        QCOMPARE(overlay->panel(TimelinePlot::PowerPanel)->axis(QCPAxis::atLeft)->range().upper,
                 power * 1.15);
        QVERIFY(overlay->describeMoment(3600.0).contains(QStringLiteral("day 0, 01:00")));
        // Aligned ticks fall on whole days and say so: "day 3", not "day 2 12:00". Drawn at a page's size:
        // hidden, the tab is 100 x 30 px, where its ticks thin out to one (FittedPlot).
        overlay->toPixmap(1000, 600);
        QCPAxis* time = overlay->panel(TimelinePlot::EmissionsPanel)->axis(QCPAxis::atBottom);
        QVERIFY(time->tickVector().size() >= 2);
        for (const double tick : time->tickVector())
            QCOMPARE(std::fmod(tick, 86400.0), 0.0);
        for (const QString& label : time->tickVectorLabels())
            QVERIFY2(label.startsWith(QStringLiteral("day ")) && !label.contains(QLatin1Char(':')),
                     qPrintable(label));
        compare->findChild<QTabWidget*>()->setCurrentWidget(overlay);
        QTest::qWait(100);
        overlay->grab().save(QStringLiteral(CARBON3D_BINARY_DIR "/tst_studio_aligned_overlay.png"));
    }

    // Issue 15, item 11: a true/false option is picked from a list (default, true, false), not typed.
    void flagOptionsArePickedNotTyped() {
        ScenarioPage* page = m_window->scenarioPage();
        QPointer<PolicyOptionsDialog> dialog = page->editPolicyOptions(QStringLiteral("dynamic-3d"));
        QVERIFY(dialog);
        auto* hysteresis = dialog->findChild<QComboBox*>(QStringLiteral("hysteresis:choice"));
        QVERIFY(hysteresis != nullptr);
        QVERIFY(!dialog->field(QStringLiteral("hysteresis"))->isVisibleTo(dialog));
        QCOMPARE(hysteresis->currentText(), QStringLiteral("default (true)"));
        dialog->grab().save(QStringLiteral(CARBON3D_BINARY_DIR "/tst_studio_flag_options.png"));
        QVERIFY(!dialog->options().contains("hysteresis")); // the default: nothing set
        hysteresis->setCurrentIndex(hysteresis->findText(QStringLiteral("false")));
        QCOMPARE(dialog->options().at("hysteresis"), std::string("false"));
        dialog->accept();
        QTRY_VERIFY(dialog.isNull());
        bool found = false;
        for (const PolicySpec& spec : page->scenario().policies)
            if (spec.name == "dynamic-3d")
                found = spec.options.at("hysteresis") == "false";
        QVERIFY(found);
    }

    // A policy's options are set by point and click: a wrong value is refused in the dialog with the
    // engine's message, a right one reaches the run (read back from the results database).
    void policyOptionsReachTheRun() {
        ScenarioPage* page = m_window->scenarioPage();
        for (const char* name : {"best-static", "tertile", "dynamic-3d", "oracle"})
            if (QCheckBox* box = page->policyBox(QString::fromLatin1(name)))
                box->setChecked(false);
        page->policyBox(QStringLiteral("suspend-resume"))->setChecked(true);
        QVERIFY(page->editPolicyOptions(QStringLiteral("static-max")) == nullptr); // it has no options
        QPointer<PolicyOptionsDialog> dialog = page->editPolicyOptions(QStringLiteral("suspend-resume"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QLineEdit* percentile = dialog->field(QStringLiteral("percentile"));
        QVERIFY(percentile != nullptr);
        QCOMPARE(percentile->placeholderText(), QStringLiteral("50")); // the catalogue's default
        QTest::keyClicks(percentile, QStringLiteral("abc"));
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->error().contains(QStringLiteral("percentile")), qPrintable(dialog->error()));
        dialog->grab().save(QStringLiteral(CARBON3D_BINARY_DIR "/tst_studio_policy_options.png"));
        percentile->clear();
        QTest::keyClicks(percentile, QStringLiteral("10"));
        dialog->accept();
        QTRY_VERIFY(dialog.isNull()); // closed and deleted
        bool found = false;
        for (const PolicySpec& spec : page->scenario().policies)
            if (spec.name == "suspend-resume")
                found = spec.options.at("percentile") == "10";
        QVERIFY(found);

        QSignalSpy saved(m_window.get(), &MainWindow::runsSaved);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(saved.wait(kRunTimeoutMs));
        const ResultsStore store(m_dir.filePath(QStringLiteral("results.sqlite")).toStdString());
        // The newest suspend-resume run (earlier tests of this class saved theirs in the same database).
        RunId newest = 0;
        for (const RunSummary& run : store.listRuns())
            if (run.policy == "suspend-resume")
                newest = std::max(newest, run.id);
        QVERIFY(newest > 0);
        const std::string recorded = store.loadRun(newest).result.options.at("percentile");
        QCOMPARE(recorded, std::string("10"));
    }

    // Issue 43, item 3: a policy listed several times with different options is several runs. The
    // follow-the-wind lesson's three multi-region variants each get a row on the form, a run, a table row
    // and a saved run named by its options, and the lesson's "look at the migrations column" has a column:
    // hysteresis=false moves more often than the default. A variant added by "+" runs too; one that would
    // repeat another is refused, saying which.
    void policyVariantsAreRunsOfTheirOwn() {
        QSignalSpy loaded(m_window.get(), &MainWindow::scenarioLoaded);
        m_window->openScenario(kData + QStringLiteral("/scenarios/learn-follow-the-wind-multi-region.json"));
        QVERIFY(loaded.wait(30000));
        ScenarioPage* page = m_window->scenarioPage();
        PolicyVariantsBox* variants = page->variantsBox(QStringLiteral("multi-region"));
        QVERIFY(variants != nullptr);
        QCOMPARE(variants->variants().size(), std::size_t{3});
        QVERIFY(variants->isVisible());
        std::vector<std::string> labels;
        for (const PolicySpec& spec : page->scenario().policies)
            labels.push_back(policyRunLabel(spec.name, spec.options));
        QCOMPARE(labels.size(), std::size_t{6}); // all of the file's policies, none dropped
        QCOMPARE(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
        auto* second = variants->findChild<QLabel*>(QStringLiteral("variant:1"));
        QVERIFY(second != nullptr && second->text().contains(QStringLiteral("hysteresis=false")));

        QSignalSpy shown(m_window.get(), &MainWindow::runsShown);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(kRunTimeoutMs));
        QCOMPARE(shown.first().at(0).toInt(), 6);
        const MetricsTableModel* table = m_window->resultsPage()->metrics();
        int plain = -1;   // the file's first multi-region: its defaults but for checkpoint-sized moves
        int chasing = -1; // its second: hysteresis=false
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString name = table->rows()[static_cast<std::size_t>(row)].name;
            if (name == variants->runLabel(0))
                plain = row;
            if (name == variants->runLabel(1))
                chasing = row;
        }
        QVERIFY(plain >= 0 && chasing >= 0);
        const QString header =
            table->headerData(MetricsTableModel::Migrations, Qt::Horizontal, Qt::DisplayRole).toString();
        QCOMPARE(header, QStringLiteral("Migrations"));
        // The long names leave the numbers room: the frozen Run column takes at most two fifths of the view.
        FrozenColumnTable* view = m_window->resultsPage()->metricsView();
        QVERIFY2(view->columnWidth(0) <= std::max(120, view->viewport()->width() * 2 / 5),
                 qPrintable(QString::number(view->columnWidth(0))));
        QVERIFY2(table->numericValue(chasing, MetricsTableModel::Migrations) >
                     table->numericValue(plain, MetricsTableModel::Migrations),
                 "hysteresis=false moves more often than the default, as the lesson says");

        // A fourth variant by "+", then the same options again: refused, and said.
        QPointer<PolicyOptionsDialog> dialog = page->addPolicyVariant(QStringLiteral("multi-region"));
        QVERIFY(dialog);
        QLineEdit* horizon = dialog->field(QStringLiteral("window_hours"));
        QVERIFY(horizon != nullptr);
        horizon->clear();
        QTest::keyClicks(horizon, QStringLiteral("3"));
        dialog->accept();
        QTRY_VERIFY(dialog.isNull());
        QCOMPARE(variants->variants().size(), std::size_t{4});
        dialog = page->addPolicyVariant(QStringLiteral("multi-region"));
        horizon = dialog->field(QStringLiteral("window_hours"));
        horizon->clear();
        QTest::keyClicks(horizon, QStringLiteral("3"));
        dialog->accept();
        QTRY_VERIFY(dialog.isNull());
        QCOMPARE(variants->variants().size(), std::size_t{4});
        const QList<QLabel*> notes = variants->findChildren<QLabel*>();
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const QLabel* note) {
            return note->isVisible() && note->text().startsWith(QStringLiteral("Already listed"));
        }));
        // Removed again by its row's button: three runs of multi-region, as the file has.
        auto* remove = variants->findChild<QToolButton*>(QStringLiteral("variantRemove:3"));
        QVERIFY(remove != nullptr);
        QTest::mouseClick(remove, Qt::LeftButton);
        QCOMPARE(variants->variants().size(), std::size_t{3});
    }

    // eadt and multi-region show their inner policy's options, following the inner policy chosen.
    void innerPolicyOptionsInTheDialog() {
        ScenarioPage* page = m_window->scenarioPage();
        page->policyBox(QStringLiteral("eadt"))->setChecked(true);
        QPointer<PolicyOptionsDialog> dialog = page->editPolicyOptions(QStringLiteral("eadt"));
        QVERIFY(dialog);
        QVERIFY(dialog->field(QStringLiteral("inner.hysteresis_hours")) !=
                nullptr); // default inner: dynamic-3d
        QTest::keyClicks(dialog->field(QStringLiteral("inner")), QStringLiteral("suspend-resume"));
        QVERIFY(dialog->field(QStringLiteral("inner.hysteresis_hours")) == nullptr);
        QLineEdit* percentile = dialog->field(QStringLiteral("inner.percentile"));
        QVERIFY(percentile != nullptr);
        QTest::keyClicks(percentile, QStringLiteral("300"));
        dialog->accept();
        dialog->grab().save(QStringLiteral(CARBON3D_BINARY_DIR "/tst_studio_inner_options.png"));
        QVERIFY2(dialog->error().contains(QStringLiteral("percentile")), qPrintable(dialog->error()));
        percentile->clear();
        QTest::keyClicks(percentile, QStringLiteral("30"));
        dialog->accept();
        QTRY_VERIFY(dialog.isNull());
        std::map<std::string, std::string> options;
        for (const PolicySpec& spec : page->scenario().policies)
            if (spec.name == "eadt")
                options = spec.options;
        QCOMPARE(options, (std::map<std::string, std::string>{{"inner", "suspend-resume"},
                                                              {"inner.percentile", "30"}}));
    }

    void configurationsPageShowsTheSearch() {
        ConfigurationsPage* page = m_window->configurationsPage();
        QTRY_VERIFY_WITH_TIMEOUT(!page->landscape().shapes.empty(), 60000);
        m_window->showPage(QStringLiteral("configurations")); // a hidden page draws when it is shown
        const ConfigurationLandscape& landscape = page->scatter()->landscape();
        QVERIFY(!landscape.frontier.empty());
        QVERIFY(!landscape.menu.empty());
        // Every shape fits the job's 1,024 GPUs.
        for (const RankedConfig& shape : landscape.shapes)
            QVERIFY(shape.config.gpus() <= 1024);

        // Issue 15, item 10: the summary names the least energy per token shape, a click on a point marks
        // it and its breakdown gives power and energy per token.
        ConfigurationsPlot* scatter = page->scatter();
        std::size_t leanest = 0;
        for (std::size_t i = 0; i < landscape.shapes.size(); ++i)
            if (landscape.shapes[i].estimate.energyPerTokenJ <
                landscape.shapes[leanest].estimate.energyPerTokenJ)
                leanest = i;
        const QLabel* summary = page->findChild<QLabel*>(QStringLiteral("configurationsSummary"));
        QVERIFY(summary != nullptr);
        QVERIFY(summary->text().contains(QStringLiteral("Least energy per token (starred): ") +
                                         scatter->describeShape(static_cast<int>(leanest))));
        QVERIFY2(summary->text().contains(QStringLiteral("more per token, the most reshaping can save")),
                 qPrintable(summary->text()));
        // Every number rests on the cluster's calibration, and the page says which (the sample's A100).
        QVERIFY2(summary->text().contains(QStringLiteral("Performance model: the A100 fit")),
                 qPrintable(summary->text()));
        scatter->replot();
        const PerfEstimate& e = landscape.shapes[leanest].estimate;
        const QPoint at(qRound(scatter->xAxis->coordToPixel(e.power.facilityPowerW / 1e3)),
                        qRound(scatter->yAxis->coordToPixel(e.tokensPerS / 1e3)));
        QTest::mouseClick(scatter, Qt::LeftButton, Qt::NoModifier, at);
        QTRY_VERIFY(scatter->selected() >= 0);
        // The click lands on that point or one within 12 px of it; whichever it is, it is the one marked.
        const PerfEstimate& picked = landscape.shapes[static_cast<std::size_t>(scatter->selected())].estimate;
        QVERIFY(std::hypot(scatter->xAxis->coordToPixel(picked.power.facilityPowerW / 1e3) - at.x(),
                           scatter->yAxis->coordToPixel(picked.tokensPerS / 1e3) - at.y()) < 12.0);
    }

    // Issue 16, item 6: the Study page sweeps the open scenario by point and click, says how many cells and
    // how long before it starts, fills its heatmap and CDF as cells finish, saves the study (listed, and
    // reopened without running), and a click on a heatmap cell opens that cell in Results with its series.
    void studyPageRunsAStudyAndOpensACell() {
        QSignalSpy loaded(m_window.get(), &MainWindow::scenarioLoaded);
        m_window->openScenario(kData + QStringLiteral("/scenarios/learn-windy-germany.json"));
        QVERIFY(loaded.wait(30000));
        QVERIFY(m_window->showPage(QStringLiteral("study")));
        StudyPage* page = m_window->studyPage();
        page->toEdit()->setDateTime(page->fromEdit()->dateTime().addDays(1)); // two daily starts
        page->slackEdit()->setText(QStringLiteral("100"));
        QListWidget* policies = page->policyList();
        for (int i = 0; i < policies->count(); ++i) {
            const PolicyInfo* info = findPolicy(policies->item(i)->text().toStdString());
            // The baseline and the central idea; the oracle's exact plan is slow under the sanitizers.
            const bool keep = info->traits.defaultBaseline || info->traits.focusedByDefault;
            policies->item(i)->setCheckState(keep ? Qt::Checked : Qt::Unchecked);
        }
        QListWidget* regions = page->regionList();
        int checked = 0;
        for (int i = 0; i < regions->count(); ++i)
            checked += regions->item(i)->checkState() == Qt::Checked ? 1 : 0;
        QCOMPARE(checked, 1); // the scenario's own region, Germany
        // Two starts x one region x one slack x two policies x one side of who pays for parked GPUs.
        QCOMPARE(plannedCellCount(page->plan()), std::uint64_t{2} * 2);
        QVERIFY(!page->runButton()->isEnabled()); // not before the estimate

        QTest::mouseClick(page->estimateButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(page->runButton()->isEnabled(), kRunTimeoutMs);
        QVERIFY2(page->estimateLabel()->text().contains(QStringLiteral("about")),
                 qPrintable(page->estimateLabel()->text()));
        QSignalSpy finished(m_window->studies(), &StudyController::finished);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QTRY_COMPARE(page->view().rows, std::size_t(4));
        QTRY_VERIFY(!page->heatmap()->data().heatmap.regions.empty());
        QCOMPARE(page->cdf()->data().lines.size(), std::size_t(2));
        QTRY_COMPARE(page->studiesBox()->count(), 1); // saved, and listed from the database

        // A click on the first start's cell opens it in Results beside its baseline, simulated again with
        // their series, and puts its scenario in the form (issue 43): the saving the table shows is the one
        // the heatmap's colour stands for.
        StudyPlot* heatmap = page->heatmap();
        QCOMPARE(page->heatmapPolicyBox()->currentText(), QStringLiteral("dynamic-3d"));
        heatmap->replot(QCustomPlot::rpImmediateRefresh);
        QCPAxisRect* rect = heatmap->axisRects().front();
        const StudyHeatmap& map = heatmap->data().heatmap;
        const double inFirst = static_cast<double>(map.starts.front() + map.spacing / 2);
        const QPoint cell(static_cast<int>(rect->axis(QCPAxis::atBottom)->coordToPixel(inFirst)),
                          static_cast<int>(rect->axis(QCPAxis::atLeft)->coordToPixel(0)));
        QTest::mouseClick(heatmap, Qt::LeftButton, Qt::NoModifier, cell);
        TimelinePlot* timeline = m_window->resultsPage()->timeline();
        QTRY_VERIFY_WITH_TIMEOUT(
            timeline->runs().size() == 2 && !timeline->runs().back().result.series.empty(), kRunTimeoutMs);
        QCOMPARE(timeline->runs().front().result.policy, std::string("static-max"));
        MetricsTableModel* metrics = m_window->resultsPage()->metrics();
        // 1e-12: the same two totals divided in the study's table and in the Results table.
        QVERIFY(std::abs(metrics->numericValue(1, MetricsTableModel::Savings) - map.savings.front()) < 1e-12);
        const Scenario inForm = m_window->scenarioPage()->scenario();
        QVERIFY2(inForm.name.find("start=") != std::string::npos, inForm.name.c_str());
        QCOMPARE(inForm.startUtc, map.starts.front());
        QCOMPARE(inForm.policies.size(), std::size_t(2));
        QVERIFY(!m_window->resultsPage()->showsStale()); // what is shown is what the form says

        // Reopened from the database: the same table, nothing run.
        m_window->showPage(QStringLiteral("study"));
        QSignalSpy reopened(m_window->store(), &ResultsStoreWorker::studyViewLoaded);
        page->studiesBox()->setCurrentIndex(0);
        Q_EMIT page->studiesBox()->activated(0);
        QVERIFY(reopened.wait(30000));
        QCOMPARE(page->view().rows, std::size_t(4));
        QVERIFY(!m_window->studies()->isRunning());
        // Issue 44 item 4: the page holds none of a saved study's cells; another policy is read by the
        // store's thread (its values and CDF kept from the first view) and drawn when it comes: the baseline
        // against itself saves nothing anywhere.
        QCOMPARE(page->view().policy, std::string("dynamic-3d"));
        page->heatmapPolicyBox()->setCurrentText(QStringLiteral("static-max"));
        QVERIFY(reopened.wait(30000));
        QTRY_COMPARE(page->view().policy, std::string("static-max"));
        QCOMPARE(page->view().rows, std::size_t(4));
        for (const double saving : page->heatmap()->data().heatmap.savings)
            QVERIFY(saving == 0.0 || std::isnan(saving));
        QCOMPARE(page->cdf()->data().lines.size(), std::size_t(2));
    }

    void studyPageRunsAStudyFile() {
        QVERIFY(m_window->showPage(QStringLiteral("study")));
        StudyPage* page = m_window->studyPage();
        const QString file = QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/studies/small.json");
        // As a person does: types the file's path into the dialog's name field. (selectFile() left the
        // field empty once an earlier dialog had been used, and the dialog then only opened the folder.)
        QString startedIn;
        const FileDialogAnswer answer([&file, &startedIn](QFileDialog* dialog) {
            startedIn = dialog->directory().absolutePath();
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                name->setText(file);
        });
        QTest::mouseClick(page->openFileButton(), Qt::LeftButton);
        QVERIFY(answer.seen());
        // Issue 43, item 5: the dialog opens on the bundled studies, not on the scenarios (lessons).
        QVERIFY2(startedIn.endsWith(QStringLiteral("sample_data/studies")), qPrintable(startedIn));
        // The file's own axes (two starts, two grids, two slacks, three policies), not the form's.
        QTRY_VERIFY_WITH_TIMEOUT(page->estimateLabel()->text().startsWith(QStringLiteral("24 cell")),
                                 kRunTimeoutMs);
        QVERIFY(page->runButton()->isEnabled());
        QSignalSpy finished(m_window->studies(), &StudyController::finished);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QTRY_COMPARE(page->view().rows, std::size_t(24));

        // Issue 43, item 5: the heatmap's policies are the file's (the form ticks others), and the slack
        // the file sweeps is held at a value, or pooled with the figure saying so.
        QComboBox* policies = page->heatmapPolicyBox();
        QCOMPARE(policies->count(), 3);
        QCOMPARE(policies->itemText(2), QStringLiteral("oracle"));
        QComboBox* slack = page->facetBox("slack");
        QVERIFY(slack != nullptr && page->facetBox("start") == nullptr);
        QCOMPARE(slack->currentText(), QStringLiteral("0.25"));
        QVERIFY2(page->heatmap()->data().note == "slack 0.25", page->heatmap()->data().note.c_str());
        const double heldAt025 = page->heatmap()->data().heatmap.savings.front();
        slack->setCurrentIndex(slack->findText(QStringLiteral("all (mean)")));
        QVERIFY2(page->heatmap()->data().note == "mean over slack (0.25, 1)",
                 page->heatmap()->data().note.c_str());
        QVERIFY(page->heatmap()->data().heatmap.savings.front() != heldAt025 ||
                heldAt025 == 0.0); // pooled with slack 1's cell
        slack->setCurrentIndex(0);

        // Issue 43, item 5: the heatmap exports like the other pages' figures, with its numbers beside it
        // when asked, named after the study.
        QTemporaryDir figures;
        const QString path = figures.filePath(QStringLiteral("heatmap.pdf"));
        QTimer::singleShot(0, this, [path] {
            auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog != nullptr);
            dialog->pathEdit()->setText(path);
            dialog->dataBox()->setChecked(true);
            dialog->accept();
        });
        QVERIFY2(page->exportHeatmapButton()->isEnabled(), page->heatmap()->data().note.c_str());
        QTest::mouseClick(page->exportHeatmapButton(), Qt::LeftButton);
        QVERIFY(QFile::exists(path));
        QFile data(figures.filePath(QStringLiteral("heatmap.csv")));
        QVERIFY(data.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(data.readAll());
        QVERIFY2(csv.contains(QStringLiteral("Scenario: Small: two starts")), qPrintable(csv.left(300)));
        QVERIFY2(csv.count(QLatin1Char('\n')) > 3, qPrintable(csv.left(300))); // cells, not a bare header
        settings::exportData.set(false);
    }

    // Issue 40, item 4, in the studio: a study whose saves fail stops at the first failure and says what is
    // saved and how to resume; the cells computed meanwhile stay within the bound of unsaved cells (it used
    // to compute every remaining cell, each save failing in the status bar). The database refuses every
    // cell with a trigger, as a full disk or a stuck writer would make it fail.
    void aStudyStopsAtItsFirstFailedSave() {
        m_window.reset();
        const std::string db = m_dir.filePath(QStringLiteral("refusing.sqlite")).toStdString();
        { const ResultsStore created(db); }
        sqlite3* handle = nullptr;
        QCOMPARE(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
        QCOMPARE(sqlite3_exec(handle,
                              "CREATE TRIGGER refuse_cells BEFORE INSERT ON study_cells BEGIN SELECT "
                              "RAISE(ABORT, 'no space left on device (the test''s trigger)'); END;",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(handle);
        m_window = std::make_unique<MainWindow>(kData, QStringLiteral(CARBON3D_SOURCE_DIR "/docs"),
                                                QString::fromStdString(db));
        QSignalSpy loaded(m_window.get(), &MainWindow::scenarioLoaded);
        m_window->show();
        QVERIFY(!loaded.isEmpty() || loaded.wait(30000));

        // 2,913 cells (every 3 hours of 2022 to its last midnight), far more than may wait unsaved.
        const QString file = m_dir.filePath(QStringLiteral("many.json"));
        QFile study(file);
        QVERIFY(study.open(QIODevice::WriteOnly));
        study.write(QStringLiteral("{\"schema\": 1, \"name\": \"many starts\", \"base\": \"%1/scenarios/"
                                   "learn-clean-hydro-sweden.json\", \"axes\": {\"start\": {\"from\": "
                                   "\"2022-01-01T00:00:00Z\", \"to\": \"2022-12-31T00:00:00Z\", "
                                   "\"every_hours\": 3}, \"policy\": [\"static-max\"]}}")
                        .arg(kData)
                        .toUtf8());
        study.close();
        QVERIFY(m_window->showPage(QStringLiteral("study")));
        StudyPage* page = m_window->studyPage();
        QString startedIn;
        const FileDialogAnswer answer([&file, &startedIn](QFileDialog* dialog) {
            startedIn = dialog->directory().absolutePath();
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                name->setText(file);
        });
        QTest::mouseClick(page->openFileButton(), Qt::LeftButton);
        QVERIFY(answer.seen());
        // Issue 43, item 5: the dialog opens on the bundled studies, not on the scenarios (lessons).
        QVERIFY2(startedIn.endsWith(QStringLiteral("sample_data/studies")), qPrintable(startedIn));
        QTRY_VERIFY_WITH_TIMEOUT(page->runButton()->isEnabled(), kRunTimeoutMs);

        QSignalSpy progress(m_window->studies(), &StudyController::progressChanged);
        QSignalSpy finished(m_window->studies(), &StudyController::finished);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(kRunTimeoutMs));
        // What redraws after the stop (this study has no region axis, so the heatmap cannot be drawn) says
        // so in the figure and leaves the message alone: it once overwrote the stop's reason at once.
        QTRY_VERIFY(
            QString::fromStdString(page->heatmap()->data().note).contains(QStringLiteral("'region' axis")));
        QTest::qWait(500);
        const QString message = page->messageLabel()->text();
        for (const QString& part :
             {QStringLiteral("Saving the study's cells failed"), QStringLiteral("no space left on device"),
              QStringLiteral("0 of 2913 cells are saved"), QStringLiteral("resume")})
            QVERIFY2(message.contains(part), qPrintable(message));
        // Computed before the stop: at most the unsaved bound and a cell per thread, not the 2,913.
        QVERIFY(!progress.isEmpty());
        const int computed = progress.last().at(0).toInt();
        QVERIFY2(computed <= static_cast<int>(kMostUnsavedStudyCells +
                                              std::max(1U, std::thread::hardware_concurrency())),
                 qPrintable(QString::number(computed)));
    }

    void aLessonOpensItsScenario() {
        m_window->showPage(QStringLiteral("learn"));
        LearnPage* page = m_window->learnPage();
        auto* list = page->findChild<QListWidget*>();
        auto* text = page->findChild<QTextBrowser*>();
        QVERIFY(list && text);
        // The seven bundled lessons (one written from a study, one on a mixture of experts) and the model
        // page, every title shown whole.
        QTRY_COMPARE(list->count(), 8);
        QVERIFY(list->width() >= list->sizeHintForColumn(0));
        const int hydro = static_cast<int>(
            list->row(list->findItems(QStringLiteral("a clean hydro grid"), Qt::MatchStartsWith).value(0)));
        QVERIFY(hydro >= 0);
        list->setCurrentRow(hydro);
        QVERIFY(text->toPlainText().contains(QStringLiteral("Stockholm")));

        QSignalSpy loaded(m_window.get(), &MainWindow::scenarioLoaded);
        QPushButton* open = nullptr;
        for (QPushButton* button : page->findChildren<QPushButton*>())
            if (button->text() == QStringLiteral("Open this scenario"))
                open = button;
        QVERIFY(open);
        QTest::mouseClick(open, Qt::LeftButton);
        QVERIFY(loaded.count() > 0 || loaded.wait(30000));
        QVERIFY2(loaded.first().at(0).toBool(), qPrintable(loaded.first().at(1).toString()));
        QCOMPARE(m_window->scenarioPage()->regionBox()->currentText(),
                 QStringLiteral("SE-SE3 Central Sweden (2022)"));

        // The model page links the validation report and says how far the ranking can be trusted.
        list->setCurrentRow(list->count() - 1);
        QVERIFY(text->toHtml().contains(QStringLiteral("VALIDATION.md")));
        QVERIFY(text->toPlainText().contains(QStringLiteral("effectively tied")));
        // "About the model" is no scenario: its Open button is off (it used to do nothing when clicked).
        QVERIFY(!open->isEnabled());
        // Its links open the docs in the page (on a desktop without a handler for file links they did
        // nothing).
        // Issue 43, item 6: read and parsed off the GUI thread, so the window keeps answering (it froze for
        // 17.5 s of CPU while QTextBrowser parsed the report into its laid-out view), then a Back to the
        // page.
        QSignalSpy documentShown(page, &LearnPage::documentShown);
        QElapsedTimer sinceLastTick;
        qint64 worstGapMs = 0;
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, this,
                [&] { worstGapMs = std::max(worstGapMs, sinceLastTick.restart()); });
        sinceLastTick.start();
        probe.start();
        Q_EMIT text->anchorClicked(
            QUrl::fromLocalFile(QStringLiteral(CARBON3D_SOURCE_DIR "/docs/VALIDATION.md")));
        QVERIFY(documentShown.wait(30000));
        QTest::qWait(20); // the layout's paint, after the signal
        probe.stop();
        qInfo("worst event-loop gap while VALIDATION.md opened: %lld ms", static_cast<long long>(worstGapMs));
        // The GUI thread lays the parsed report out once: ~0.1 s in a release build, several times that under
        // the sanitizers on a loaded two-core machine; 28 s before (docs/PERFORMANCE.md, "Studio").
        QVERIFY2(worstGapMs < 2000, qPrintable(QString::number(worstGapMs)));
        QVERIFY(text->toPlainText().contains(QStringLiteral("Megatron SC21 Table 1")));
        QVERIFY(page->backButton()->isVisible());
        QTest::mouseClick(page->backButton(), Qt::LeftButton);
        QVERIFY(text->toHtml().contains(QStringLiteral("VALIDATION.md"))); // the model page again
        QVERIFY(!text->toPlainText().contains(QStringLiteral("Megatron SC21 Table 1")));
        QVERIFY(!page->backButton()->isVisible());
        list->setCurrentRow(hydro);
        QVERIFY(open->isEnabled());
    }

    // `carbon3d --scenario F` opens F, not the default: the default scenario is loaded when the data
    // folder's scan finishes, which used to be after F had loaded, and replaced it.
    void aScenarioAskedForAtStartStays() {
        MainWindow window(kData, QStringLiteral(CARBON3D_SOURCE_DIR "/docs"),
                          m_dir.filePath(QStringLiteral("start.sqlite")));
        auto* files = window.findChild<FileTasks*>();
        QVERIFY(files);
        QSignalSpy scanned(files, &FileTasks::dataDirectoryScanned);
        QSignalSpy loads(files, &FileTasks::scenarioLoaded);
        window.openScenario(kData + QStringLiteral("/scenarios/learn-clean-hydro-sweden.json")); // as main()
        QVERIFY(!scanned.isEmpty() || scanned.wait(30000));
        QVERIFY(!loads.isEmpty() || loads.wait(30000));
        // Had the scan asked for the default, its load would arrive now (5 s: loads take well under 1 s).
        QVERIFY(!loads.wait(5000));
        QCOMPARE(loads.count(), 1);
        QCOMPARE(window.scenarioPage()->regionBox()->currentText(),
                 QStringLiteral("SE-SE3 Central Sweden (2022)"));
    }

    // The data folder's scan finishing after a scenario is in the form (it did under load: the scenario
    // asked for at start showed Germany, the list's rebuilt choice) leaves the form's region, and its
    // trace, as they were.
    void aLateScanKeepsTheScenariosRegion() {
        MainWindow window(kData, QStringLiteral(CARBON3D_SOURCE_DIR "/docs"),
                          m_dir.filePath(QStringLiteral("late.sqlite")));
        auto* files = window.findChild<FileTasks*>();
        QVERIFY(files);
        QSignalSpy loads(files, &FileTasks::scenarioLoaded);
        window.openScenario(kData + QStringLiteral("/scenarios/learn-clean-hydro-sweden.json"));
        QVERIFY(!loads.isEmpty() || loads.wait(30000));
        QTRY_COMPARE(window.scenarioPage()->regionBox()->currentText(),
                     QStringLiteral("SE-SE3 Central Sweden (2022)"));
        window.scenarioPage()->setTraceChoices(scanDataDirectory(kData).traces); // the scan, late
        QCOMPARE(window.scenarioPage()->regionBox()->currentText(),
                 QStringLiteral("SE-SE3 Central Sweden (2022)"));
        const Scenario inForm = window.scenarioPage()->scenario();
        QCOMPARE(inForm.regions.front().regionId, std::string("SE-SE3"));
        QVERIFY(!inForm.regions.front().trace.empty());
    }

    // Issue 41: a scenario on another file of a bundled region (GB's May 2023 archive beside the 2022 year)
    // shows and keeps that file, replays its forecasts, and another forecast kind drops the file. Before, the
    // region list matched the id alone: it showed "GB Great Britain (2022)" over the 2023 data and saved the
    // 2022 file's path with it.
    void aForecastsAsIssuedScenarioKeepsItsFiles() {
        auto* files = m_window->findChild<FileTasks*>();
        QSignalSpy loads(files, &FileTasks::scenarioLoaded);
        m_window->openScenario(kData + QStringLiteral("/scenarios/gb-may-2023-forecasts-as-issued.json"));
        QVERIFY(loads.wait(30000));
        ScenarioPage* page = m_window->scenarioPage();
        QCOMPARE(page->regionBox()->currentText(), QStringLiteral("GB (GB_actual_2023-05.csv)"));
        const Scenario replayed = page->scenario();
        QCOMPARE(replayed.regions.front().trace.size(),
                 std::size_t(288)); // the archive's six days, half-hourly
        QVERIFY(replayed.forecast.archive != nullptr);
        QCOMPARE(replayed.forecast.kind, std::string("replay"));
        auto* kinds = page->findChild<QComboBox*>(QStringLiteral("forecastKind"));
        QVERIFY(kinds != nullptr);
        kinds->setFocus();
        const int ridge = kinds->findData(QStringLiteral("ridge"));
        while (kinds->currentIndex() != ridge)
            QTest::keyClick(kinds, kinds->currentIndex() < ridge ? Qt::Key_Down : Qt::Key_Up);
        QVERIFY(page->scenario().forecast.archive == nullptr);
        QCOMPARE(page->scenario().regions.front().trace.size(), std::size_t(288));
    }

    // Only the answer to the newest request is applied; older tickets stay stale.
    // Issue 43, item 2: the window fits the screen it opens on, however large it was asked or restored.
    void theWindowFitsTheScreen() {
        const QRect laptop(0, 0, 1280, 800);
        const QRect first = fittedWindowGeometry(QRect(QPoint(100, 50), kPreferredWindowSize), laptop);
        QVERIFY(laptop.contains(first));
        QCOMPARE(first.size(), QSize(1280, 800));
        // A session restored from a larger monitor to the right of this one comes back onto this one.
        const QRect restored = fittedWindowGeometry(QRect(2400, 300, 1000, 700), laptop);
        QVERIFY(laptop.contains(restored));
        QCOMPARE(restored.size(), QSize(1000, 700));
        // What fits stays where it was.
        QCOMPARE(fittedWindowGeometry(QRect(10, 20, 800, 600), laptop), QRect(10, 20, 800, 600));
        // A window as the studio opens it (the fixture's is resized after), on this screen.
        MainWindow window(kData, QStringLiteral(CARBON3D_SOURCE_DIR "/docs"),
                          m_dir.filePath(QStringLiteral("fits.sqlite")));
        QVERIFY2(window.screen()->availableGeometry().contains(window.geometry()),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(window.width())
                                .arg(window.height())
                                .arg(window.screen()->availableGeometry().width())
                                .arg(window.screen()->availableGeometry().height())));
        // Nor can the window's layout ask for more than that screen: every page's controls (the Study
        // page's bars, the Results page's buttons) fit a 1280 x 800 laptop without widening the window.
        const QSize least = window.minimumSizeHint();
        QVERIFY2(
            least.width() <= laptop.width() && least.height() <= laptop.height(),
            qPrintable(
                QStringLiteral("the window needs at least %1x%2").arg(least.width()).arg(least.height())));
    }

    void newestRequestWins() {
        LatestRequest latest;
        const LatestRequest::Ticket first = latest.begin();
        QVERIFY(latest.isCurrent(first));
        const LatestRequest::Ticket second = latest.begin();
        QVERIFY(!latest.isCurrent(first));
        QVERIFY(latest.isCurrent(second));
    }

    // The file tasks write a scenario and read it back off the GUI thread, and report a bad file by message.
    void fileTasksSaveAndReopenAScenario() {
        FileTasks files;
        const QString path = m_dir.filePath(QStringLiteral("saved.json"));
        QSignalSpy saved(&files, &FileTasks::scenarioSaved);
        files.saveScenario(m_window->scenarioPage()->scenario(), path);
        // count() first: a task that ends before then() attaches its continuation emits during the call
        // itself (Qt runs it at once on the context's thread), and wait() only waits for a later signal.
        QVERIFY(saved.count() > 0 || saved.wait(30000));
        QSignalSpy loaded(&files, &FileTasks::scenarioLoaded);
        files.loadScenario(path);
        QVERIFY(loaded.count() > 0 || loaded.wait(30000));
        QCOMPARE(loaded.first().at(0).toString(), path);
        QSignalSpy failed(&files, &FileTasks::traceImportFailed);
        files.importTrace(QStringLiteral(CARBON3D_SOURCE_DIR "/tests/data/ui/negative_value.csv"));
        QVERIFY(failed.count() > 0 || failed.wait(30000));
        QVERIFY2(failed.first().at(1).toString().contains(QStringLiteral("negative")),
                 qPrintable(failed.first().at(1).toString()));
    }

    // Scenario loads: the newest request wins. A load superseded before it ends reports nothing, not even
    // its error (a missing file fails at once, long before the real scenario has loaded its trace).
    void newestScenarioLoadWins() {
        FileTasks files;
        QSignalSpy loaded(&files, &FileTasks::scenarioLoaded);
        QSignalSpy failed(&files, &FileTasks::scenarioLoadFailed);
        files.loadScenario(m_dir.filePath(QStringLiteral("missing.json")));
        const qsizetype failedBeforeTheNextRequest = failed.count(); // a task may end within the call
        const QString wanted = kData + QStringLiteral("/scenarios/learn-clean-hydro-sweden.json");
        files.loadScenario(wanted);
        QVERIFY(loaded.count() > 0 || loaded.wait(30000));
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.first().at(0).toString(), wanted);
        QCOMPARE(failed.count(), failedBeforeTheNextRequest);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestStudio)
#include "tst_studio.moc"
