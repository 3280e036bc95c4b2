// SPDX-License-Identifier: MIT
// Issue 45, item 2: every figure kind at every export preset keeps its text on the page, unclipped and
// apart. The figures are drawn from real runs of the sample scenario and from two small real studies
// (tests/data/studies/figures-*.json); every text item the figure paints is recorded where it lands.
#include "config/ScenarioJson.h"
#include "engine/PolicyRegistry.h"
#include "plots/FigurePresets.h"
#include "plots/FigureRendering.h"
#include "runner/ScenarioRunner.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"
#include "study/StudyFigures.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"

#include <QDir>
#include <QFontMetricsF>
#include <QPaintEngine>
#include <QTest>
#include <mutex>
#include <qcustomplot.h>

using namespace carbon3d;
using namespace carbon3d::ui;

namespace {

const std::string kRoot = CARBON3D_SOURCE_DIR;

// One text as painted: its box in the figure's layout coordinates, and the clip it was painted under.
struct PaintedText {
    QString text;
    QRectF box;
    std::optional<QRectF> clip;
};

// A paint engine that draws nothing and keeps every text item: what QPainter hands it is what a PNG, SVG
// or PDF export rasterises or embeds, so its boxes are the exported text's.
class TextRecordingEngine final : public QPaintEngine {
public:
    explicit TextRecordingEngine(const QPaintDevice* device)
        : QPaintEngine(QPaintEngine::AllFeatures)
        , m_device(device) {}
    std::vector<PaintedText> texts;

    bool begin(QPaintDevice* /*device*/) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState& /*state*/) override {}
    void drawPixmap(const QRectF& /*r*/, const QPixmap& /*pm*/, const QRectF& /*sr*/) override {}
    // The rest draws nothing either (QPaintEngine's defaults call one another in a loop).
    void drawPolygon(const QPointF* /*points*/, int /*count*/, PolygonDrawMode /*mode*/) override {}
    void drawPath(const QPainterPath& /*path*/) override {}
    void drawLines(const QLineF* /*lines*/, int /*count*/) override {}
    void drawRects(const QRectF* /*rects*/, int /*count*/) override {}
    void drawEllipse(const QRectF& /*rect*/) override {}
    void drawPoints(const QPointF* /*points*/, int /*count*/) override {}
    void drawImage(const QRectF& /*r*/, const QImage& /*image*/, const QRectF& /*sr*/,
                   Qt::ImageConversionFlags /*flags*/) override {}
    Type type() const override { return QPaintEngine::User; }

    void drawTextItem(const QPointF& origin, const QTextItem& item) override {
        if (item.text().trimmed().isEmpty())
            return;
        const QFontMetricsF metrics(item.font(), m_device);
        // Ascent to descent, origin to advance: the line the text occupies, as a layout would place it.
        const QRectF local(origin.x(), origin.y() - metrics.ascent(), metrics.horizontalAdvance(item.text()),
                           metrics.ascent() + metrics.descent());
        const QTransform transform = painter()->transform();
        PaintedText painted{item.text(), transform.mapRect(local), std::nullopt};
        if (painter()->hasClipping())
            painted.clip = transform.mapRect(painter()->clipBoundingRect());
        texts.push_back(painted);
    }

private:
    const QPaintDevice* m_device;
};

// A device of the figure's layout size at the 96 dpi every export lays out at (FigureSize::layoutSize()).
class TextRecordingDevice final : public QPaintDevice {
public:
    explicit TextRecordingDevice(QSize size)
        : m_size(size)
        , m_engine(this) {}
    QPaintEngine* paintEngine() const override { return &m_engine; }
    const std::vector<PaintedText>& texts() const { return m_engine.texts; }

protected:
    int metric(PaintDeviceMetric metric) const override {
        switch (metric) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return qRound(m_size.width() * 25.4 / 96.0);
        case PdmHeightMM:
            return qRound(m_size.height() * 25.4 / 96.0);
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(devicePixelRatioFScale());
        case PdmNumColors:
            return 256;
        case PdmDepth:
            return 32;
        default:
            return 0;
        }
    }

private:
    QSize m_size;
    mutable TextRecordingEngine m_engine;
};

// What is wrong with the painted texts: a box off the page, cut by its clip, or over another box. Boxes may
// touch: an overlap counts when it is over a pixel each way (a pixel at 96 dpi is 0.26 mm printed).
QStringList layoutProblems(const std::vector<PaintedText>& texts, QSize page) {
    constexpr double kTolerance = 1.0;
    QStringList problems;
    const QRectF sheet =
        QRectF(QPointF(0, 0), QSizeF(page)).adjusted(-kTolerance, -kTolerance, kTolerance, kTolerance);
    const auto describe = [](const PaintedText& t) {
        return QStringLiteral("'%1' at (%2, %3, %4 x %5)")
            .arg(t.text)
            .arg(t.box.x(), 0, 'f', 1)
            .arg(t.box.y(), 0, 'f', 1)
            .arg(t.box.width(), 0, 'f', 1)
            .arg(t.box.height(), 0, 'f', 1);
    };
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const PaintedText& a = texts[i];
        if (!sheet.contains(a.box))
            problems << QStringLiteral("off the page: ") + describe(a);
        if (a.clip && !a.clip->adjusted(-kTolerance, -kTolerance, kTolerance, kTolerance).contains(a.box))
            problems << QStringLiteral("clipped: ") + describe(a);
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF both = a.box.intersected(texts[j].box);
            if (both.width() > kTolerance && both.height() > kTolerance)
                problems << QStringLiteral("overlap: ") + describe(a) + QStringLiteral(" and ") +
                                describe(texts[j]);
        }
    }
    return problems;
}

// A study run here, in full, as the figures read it.
StudyTable runStudyTable(const std::string& file) {
    const StudyDefinition study =
        loadStudy(kRoot + "/tests/data/studies/" + file, kRoot + "/sample_data/traces");
    std::vector<StudyRow> rows(cellCount(study));
    std::mutex guard;
    StudyRunOptions options;
    options.onCell = [&](CellResult&& result) {
        const std::lock_guard lock(guard);
        rows[result.cell.index] = studyRowOf(study, result);
    };
    runStudy(study, options);
    return studyTable(axisColumns(study), std::move(rows), defaultBaselinePolicy().name);
}

} // namespace

class TestFigureLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        Scenario scenario = loadScenario(kRoot + "/sample_data/scenarios/default.json");
        for (const char* more : {"wait-awhile-interruptible", "carbonscaler"})
            scenario.policies.push_back(PolicySpec{more, {}});
        const PreparedScenario prepared = prepareScenario(scenario);
        RunId id = 0;
        for (RunResult& run : runAllPolicies(prepared, scenario.policies)) {
            RunSummary summary;
            summary.id = ++id;
            summary.policy = run.policy;
            summary.regionId = scenario.regions.front().regionId;
            summary.metrics = run.metrics;
            m_runs.summaries.push_back(summary);
            m_runs.runs.push_back(
                {QStringLiteral("#%1 %2").arg(id).arg(QString::fromStdString(run.policy)), std::move(run)});
            m_runs.metadata.runIds << QString::number(id);
        }
        m_runs.trace = scenario.regions.front().trace;
        m_runs.from = scenario.startUtc;
        m_runs.deadline = prepared.input.deadlineUtc;
        m_runs.to = m_runs.deadline + (m_runs.deadline - m_runs.from) / 20;
        m_runs.metadata.scenarioName = QString::fromStdString(scenario.name);
        m_runs.landscape =
            configurationLandscape(scenario.job, scenario.cluster, scenario.gpus, scenario.modelling);
        m_runs.memoryCapacityBytes = scenario.cluster.accelerator.memoryBytes;
        m_calendar = runStudyTable("figures-calendar.json");
        m_forecast = runStudyTable("figures-forecast.json");
    }

    void textStaysOnThePageApartAndUnclipped_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("preset");
        for (const FigureKindInfo& kind : figureKinds()) {
            for (const FigurePreset& preset : figurePresets())
                QTest::addRow("%s %s", kind.id, preset.id)
                    << static_cast<int>(kind.kind) << QString::fromLatin1(preset.id);
        }
    }

    void textStaysOnThePageApartAndUnclipped() {
        QFETCH(int, kind);
        QFETCH(QString, preset);
        FigureRequest request = requestFor(static_cast<FigureKind>(kind));
        const FigurePreset* chosen = findFigurePreset(preset);
        QVERIFY(chosen != nullptr);
        request.size = chosen->size();
        request.theme = QString::fromLatin1(chosen->theme);
        const std::unique_ptr<QCustomPlot> plot = buildFigure(request);
        const QSize page = request.size.layoutSize();
        TextRecordingDevice device(page);
        {
            QCPPainter painter(&device);
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            plot->toPainter(&painter, page.width(), page.height());
        }
        QVERIFY2(device.texts().size() > 5, "the figure paints its texts"); // ticks, titles: never blank
        // For a person to look at: CARBON3D_FIGURE_DIR=DIR writes every figure tested here.
        const QString lookAt = qEnvironmentVariable("CARBON3D_FIGURE_DIR");
        if (!lookAt.isEmpty())
            renderFigure(
                request,
                QDir(lookAt).filePath(
                    QStringLiteral("%1-%2.png").arg(QLatin1String(figureKindInfo(request.kind).id), preset)));
        const QStringList problems = layoutProblems(device.texts(), page);
        for (const QString& problem : problems) // each on its line: QTest cuts a long message short
            qWarning("%s", qPrintable(problem));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems").arg(problems.size())));
    }

    // The check itself fails where it should: two labels painted over each other, one past the page's edge
    // and one cut by its clip.
    void theCheckSeesOverlapsOffPageAndClippedText() {
        const QSize page(200, 100);
        TextRecordingDevice device(page);
        {
            QPainter painter(&device);
            painter.drawText(QPointF(10, 50), QStringLiteral("two hundred"));
            painter.drawText(QPointF(30, 52), QStringLiteral("three hundred"));
            painter.drawText(QPointF(180, 90), QStringLiteral("edge"));
            painter.setClipRect(QRectF(0, 0, 40, 30));
            painter.drawText(QPointF(20, 20), QStringLiteral("clipped"));
        }
        const QString problems = layoutProblems(device.texts(), page).join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("overlap: 'two hundred'")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("off the page: 'edge'")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("clipped: 'clipped'")), qPrintable(problems));
        QCOMPARE(layoutProblems({{QStringLiteral("alone"), QRectF(10, 10, 50, 12), std::nullopt}}, page),
                 QStringList());
    }

private:
    FigureRequest requestFor(FigureKind kind) const {
        FigureRequest request = m_runs;
        request.kind = kind;
        request.metadata.title = QString::fromUtf8(figureKindInfo(kind).title);
        if (isStudyFigure(kind)) {
            const bool forecast = kind == FigureKind::StudyForecastError;
            request.study = figureKindInfo(kind).makeStudyData(TableRows(forecast ? m_forecast : m_calendar),
                                                               focusedPolicy().name);
            request.metadata.scenarioName = QStringLiteral("Figures study");
        }
        return request;
    }

    FigureRequest m_runs;
    StudyTable m_calendar;
    StudyTable m_forecast;
};

QTEST_MAIN(TestFigureLayout)
#include "tst_figurelayout.moc"
