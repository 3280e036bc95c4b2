// SPDX-License-Identifier: MIT
#include "ExportDialog.h"
#include "plots/FigureData.h"
#include "plots/FigureExporter.h"
#include "plots/FigureRendering.h"
#include "plots/StudyPlot.h"
#include "plots/TimeAxisTicker.h"
#include "plots/TimelinePlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace carbon3d;
using namespace carbon3d::ui;

namespace {

// A 48-hour synthetic trace and a run that pauses through the dirty half of each day.
CarbonTrace syntheticTrace() {
    CarbonTrace trace;
    trace.regionId = "TEST";
    trace.timeZone = "Europe/Berlin";
    trace.startUtc = 1654041600; // 2022-06-01T00:00Z
    for (int h = 0; h < 48; ++h)
        trace.gPerKwh.push_back(h % 24 < 12 ? 400.0 : 100.0);
    return trace;
}

RunResult syntheticRun(const CarbonTrace& trace) {
    RunResult run;
    run.policy = "dynamic-3d";
    run.forecastKind = "oracle";
    for (int h = 0; h < 40; ++h) {
        IntervalRecord r;
        r.start = trace.slotStart(static_cast<std::size_t>(h));
        r.end = r.start + 3600;
        const bool clean = h % 24 >= 12;
        r.activity = IntervalActivity::Training;
        r.config = ParallelConfig{clean ? 8 : 2, 8, 4, 1, 1, Recompute::Full, false, false};
        r.gpusActive = r.config.gpus();
        r.gpusHeld = 256;
        r.facilityPowerW = r.gpusActive * 500.0;
        r.ciGPerKwh = trace.gPerKwh[static_cast<std::size_t>(h)];
        r.forecastCiGPerKwh = r.ciGPerKwh;
        r.emissionsG = r.facilityPowerW * 3600 / 3.6e6 * r.ciGPerKwh;
        run.series.push_back(r);
    }
    run.metrics.finished = true;
    return run;
}

// The oracle's savings over three days in two regions, one cell missing (NaN).
StudyFigureData sampleHeatmap() {
    StudyFigureData heat;
    heat.heatmap.policy = "oracle";
    heat.heatmap.scaleLabel = "oracle: savings against static-max (%)";
    heat.heatmap.regions = {"DE", "FR"};
    heat.heatmap.starts = {1646092800, 1646179200, 1646265600}; // 2022-03-01, 02, 03
    heat.heatmap.spacing = 86400;
    heat.heatmap.endUtc = 1646352000;
    heat.heatmap.savings = {0.1, -0.05, NAN, 0.0, 0.2, 0.3};
    return heat;
}

// The data rows of a figure's CSV (ui/plots/FigureData.h), each split into its fields; the comment lines and
// the header are checked by the caller. No field here holds a comma, a quote or a newline.
struct DataCsv {
    QStringList comments;
    QStringList header;
    std::vector<QStringList> rows;
};

DataCsv parseDataCsv(const QString& text) {
    DataCsv csv;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1String("# ")))
            csv.comments << line;
        else if (csv.header.isEmpty())
            csv.header = line.split(QLatin1Char(','));
        else
            csv.rows.push_back(line.split(QLatin1Char(',')));
    }
    return csv;
}

} // namespace

class TestFigureExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        const CarbonTrace trace = syntheticTrace();
        m_plot = std::make_unique<TimelinePlot>();
        m_plot->resize(1200, 800);
        m_plot->setData(trace, trace.startUtc, trace.endUtc(),
                        {{QStringLiteral("dynamic-3d"), syntheticRun(trace)}},
                        trace.startUtc + 44 * kSecondsPerHour);
        m_metadata.title = QStringLiteral("Timeline");
        m_metadata.scenarioName = QStringLiteral("synthetic day/night");
        m_metadata.runIds = {QStringLiteral("42")};
    }
    void cleanup() { m_plot.reset(); }

    void plotHoldsTheExpectedSeries() {
        QCOMPARE(m_plot->graphCountOn(TimelinePlot::CarbonPanel), 2); // truth + forecast
        QCOMPARE(m_plot->graphCountOn(TimelinePlot::ConfigurationPanel), 1);
        QCOMPARE(m_plot->graphCountOn(TimelinePlot::PowerPanel), 1);
        QCOMPARE(m_plot->graphCountOn(TimelinePlot::EmissionsPanel), 1);
        const QString moment =
            m_plot->describeMoment(static_cast<double>(syntheticTrace().startUtc + 13 * kSecondsPerHour));
        QVERIFY2(moment.contains(QStringLiteral("d8 t8 p4")), qPrintable(moment));
        QVERIFY2(moment.contains(QStringLiteral("100 gCO")), qPrintable(moment));

        // With the menu known, the crosshair prices the alternatives at the moment's intensity:
        // 40 kW x PUE 1.25 x 100 g/kWh = 5 kg/h for the fast option.
        ExecutionOption fast;
        fast.config = ParallelConfig{8, 8, 4, 1, 1, Recompute::Full, false, false};
        fast.workPerSecond = 20000;
        fast.activePowerW = 40000;
        ExecutionOption lean = fast;
        lean.config.dp = 2;
        lean.workPerSecond = 6000;
        lean.activePowerW = 10000; // 1.67 W per token/s against the fast option's 2
        m_plot->setMenu({fast, lean}, 1.25);
        const QString priced =
            m_plot->describeMoment(static_cast<double>(syntheticTrace().startUtc + 13 * kSecondsPerHour));
        QVERIFY2(priced.contains(QStringLiteral("fastest d8 t8 p4 b1 full: 20.0 k tokens/s, 5.0 kgCO")),
                 qPrintable(priced));
        QVERIFY2(priced.contains(QStringLiteral("least energy per token d2 t8 p4")), qPrintable(priced));
    }

    // Issue 15, item 7: a paused job's power reads in kW (it read "0.00 MW" beside a power panel at ~5 kW).
    void crosshairShowsSmallPowersInTheirUnit() {
        const CarbonTrace trace = syntheticTrace();
        RunResult run = syntheticRun(trace);
        IntervalRecord& paused = run.series[13];
        paused.activity = IntervalActivity::Paused;
        paused.gpusActive = 0;
        paused.facilityPowerW = 5200.0; // 256 held GPUs' idle power
        TimelinePlot plot;
        plot.setData(trace, trace.startUtc, trace.endUtc(), {{QStringLiteral("dynamic-3d"), run}},
                     trace.startUtc + 44 * kSecondsPerHour);
        const QString moment =
            plot.describeMoment(static_cast<double>(trace.startUtc + 13 * kSecondsPerHour + 60));
        QVERIFY2(moment.contains(QStringLiteral("5.2 kW")), qPrintable(moment));
        QVERIFY2(!moment.contains(QStringLiteral("0.00 MW")), qPrintable(moment));
        const QString running =
            plot.describeMoment(static_cast<double>(trace.startUtc + 14 * kSecondsPerHour + 60));
        QVERIFY2(running.contains(QStringLiteral("128.0 kW")) || running.contains(QStringLiteral("128 kW")),
                 qPrintable(running)); // 256 GPUs x 500 W
    }

    // Issue 15, item 11: date ticks sit at midnight of the clock they are labelled in, not at UTC
    // midnight (which read "Jun 1 17:00" in California), and a month-long axis ticks on whole days.
    void dateTicksFallOnLocalMidnight() {
        QCustomPlot plot;
        auto ticker = QSharedPointer<TimeAxisTicker>::create();
        const QTimeZone california("America/Los_Angeles");
        QVERIFY(california.isValid());
        ticker->setTimeZone(california);
        plot.xAxis->setTicker(ticker);
        plot.resize(800, 400);
        const double june1 = 1654041600.0; // 2022-06-01 00:00 UTC
        for (const double days : {2.0, 10.0, 30.0}) {
            plot.xAxis->setRange(june1, june1 + days * 86400.0);
            plot.replot();
            const QVector<double> ticks = plot.xAxis->tickVector();
            QVERIFY(ticks.size() >= 2);
            for (const double tick : ticks) {
                const QDateTime at = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(tick), california);
                QVERIFY2(at.time().minute() == 0 && (days < 5 || at.time().hour() == 0),
                         qPrintable(at.toString(Qt::ISODate)));
            }
        }
        // A year ticks on the first of the months.
        plot.xAxis->setRange(june1, june1 + 365.0 * 86400.0);
        plot.replot();
        for (const double tick : plot.xAxis->tickVector()) {
            const QDateTime at = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(tick), california);
            QCOMPARE(at.date().day(), 1);
            QCOMPARE(at.time(), QTime(0, 0));
        }
    }

    void exportsPngWithMetadata() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("timeline.png"));
        QCOMPARE(exportFigure(*m_plot, path, FigureSize{1600, 1000, 150}, m_metadata), QString());
        QImage image(path);
        QCOMPARE(image.size(), QSize(1600, 1000));
        QVERIFY(image.text(QStringLiteral("Description")).contains(QStringLiteral("synthetic day/night")));
        QVERIFY(image.text(QStringLiteral("Description")).contains(QStringLiteral("42")));
        // Non-trivial: a rendered plot has many distinct colours (lines, bands, text anti-aliasing).
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void exportsSvgAndPdf() {
        QTemporaryDir dir;
        const QString svgPath = dir.filePath(QStringLiteral("timeline.svg"));
        QCOMPARE(exportFigure(*m_plot, svgPath, FigureSize{1600, 1000, 150}, m_metadata), QString());
        QFile svg(svgPath);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("<title>Timeline</title>"));
        QVERIFY(svgText.contains("synthetic day/night"));
        QVERIFY2(svgText.count("<path") + svgText.count("<polyline") > 20, "too few vector elements");

        const QString pdfPath = dir.filePath(QStringLiteral("timeline.pdf"));
        QCOMPARE(exportFigure(*m_plot, pdfPath, FigureSize{1600, 1000, 150}, m_metadata), QString());
        QFile pdf(pdfPath);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdf.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF-"));
        QVERIFY2(pdfBytes.size() > 5000, qPrintable(QString::number(pdfBytes.size())));
    }

    // Issue 15, item 5: the crosshair follows the mouse and is not part of the figure. An export after the
    // mouse crossed the plot is pixel for pixel the export before.
    void exportsLeaveTheCrosshairOut() {
        QTemporaryDir dir;
        const QString before = dir.filePath(QStringLiteral("before.png"));
        const QString after = dir.filePath(QStringLiteral("after.png"));
        QCOMPARE(exportFigure(*m_plot, before, FigureSize{800, 500, 96}, m_metadata), QString());
        m_plot->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_plot.get()));
        QTest::mouseMove(m_plot.get(), QPoint(600, 300));
        QMouseEvent move(QEvent::MouseMove, QPointF(600, 300), m_plot->mapToGlobal(QPointF(600, 300)),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_plot.get(), &move);
        const QCPAxis* time = m_plot->panel(TimelinePlot::CarbonPanel)->axis(QCPAxis::atBottom);
        const QString moment = m_plot->describeMoment(time->pixelToCoord(600));
        // The compact configuration labels are spelled out (issue 15, item 7).
        QVERIFY2(moment.contains(QStringLiteral("sp: sequence parallelism")), qPrintable(moment));
        QCPLayer* hover = m_plot->layer(QString::fromLatin1(kHoverLayer));
        QVERIFY(hover != nullptr && hover->visible());
        // On screen the crosshair is drawn: a plain render differs from the export before the hover.
        const auto argb = [](const QImage& image) { return image.convertToFormat(QImage::Format_ARGB32); };
        QVERIFY(argb(m_plot->toPixmap(800, 500, 1.0).toImage()) != argb(QImage(before)));
        QCOMPARE(exportFigure(*m_plot, after, FigureSize{800, 500, 96}, m_metadata), QString());
        QVERIFY(hover->visible()); // the screen keeps its crosshair
        QCOMPARE(argb(QImage(after)), argb(QImage(before)));
    }

    // A paper figure is given in centimetres at 300 dpi: its pixels follow, and the PDF page is its printed
    // size, 8.5 cm = 240.94 pt wide.
    void paperPresetExportsAtPrintedSize() {
        ExportDialog dialog(QString{});
        dialog.presetBox()->setCurrentIndex(1);
        Q_EMIT dialog.presetBox()->activated(1);
        QCOMPARE(dialog.themeName(), QStringLiteral("paper"));
        QCOMPARE(dialog.size().dpi, 300);
        QCOMPARE(dialog.size().widthPx, qRound(8.5 / 2.54 * 300));  // 1004
        QCOMPARE(dialog.size().heightPx, qRound(6.0 / 2.54 * 300)); // 709
        // The same size shown in inches, then pixels, is still the same size.
        dialog.unitBox()->setCurrentIndex(dialog.unitBox()->findText(QStringLiteral("in")));
        QVERIFY(std::abs(dialog.widthBox()->value() - 1004.0 / 300.0) < 0.005); // shown with 2 decimals
        dialog.unitBox()->setCurrentIndex(dialog.unitBox()->findText(QStringLiteral("px")));
        QCOMPARE(dialog.widthBox()->value(), 1004.0);

        QTemporaryDir dir;
        const QString pdfPath = dir.filePath(QStringLiteral("paper.pdf"));
        dialog.pathEdit()->setText(pdfPath);
        QCOMPARE(dialog.exportPlot(*m_plot, m_metadata, screenTheme()), QString());
        QFile pdf(pdfPath);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
        const QRegularExpressionMatch match = mediaBox.match(QString::fromLatin1(pdf.readAll()));
        QVERIFY(match.hasMatch());
        // 0.1 pt: the writer rounds the page size to a few decimals.
        QVERIFY2(std::abs(match.captured(1).toDouble() - 1004.0 / 300.0 * 72.0) < 0.1,
                 qPrintable(match.captured(0)));
        const QString pngPath = dir.filePath(QStringLiteral("paper.png"));
        dialog.pathEdit()->setText(pngPath);
        QCOMPARE(dialog.exportPlot(*m_plot, m_metadata, screenTheme()), QString());
        const QImage png(pngPath);
        QCOMPARE(png.size(), QSize(1004, 709));
        QCOMPARE(png.dotsPerMeterX(), qRound(300 / 0.0254));
    }

    // Issue 16, item 5: the four study figures render, the heatmap with its colour scale beside the data
    // (not over it), the lines with a legend entry per policy and the forecast figure with its bands.
    void studyFiguresRender() {
        StudyFigureData lines;
        lines.xLabel = "Slack (%)";
        lines.yLabel = "Savings (%)";
        lines.lines = {{"static-max", {0.25, 1.0}, {0.0, 0.0}, {}, {}, ""},
                       {"oracle", {0.25, 1.0}, {0.05, 0.2}, {0.02, 0.1}, {0.08, 0.3}, ""}};
        StudyPlot plot;
        plot.setFigure(StudyPlot::Kind::ForecastError, lines);
        QCOMPARE(plot.legend->itemCount(), 2);
        QCOMPARE(plot.graphCount(), 1 + 3); // static-max's line; the oracle's band (two edges) and line
        plot.setFigure(StudyPlot::Kind::Slack, lines);
        QCOMPARE(plot.graphCount(), 4);

        const StudyFigureData heat = sampleHeatmap();
        plot.setFigure(StudyPlot::Kind::Heatmap, heat);
        auto* scale = qobject_cast<QCPColorScale*>(plot.plotLayout()->element(0, 1));
        QVERIFY(scale != nullptr);
        QCOMPARE(scale->dataRange().lower, -scale->dataRange().upper); // diverging, centred at 0
        QCOMPARE(scale->dataRange().upper, 30.0);

        // The split: three bars (one per part) across the groups, a legend entry per part, a negative part
        // below the zero line.
        StudyFigureData split;
        split.lines = {{"dynamic-3d", {0, 1, 2}, {0.10, 0.05, -0.01}, {}, {}, "charged"},
                       {"dynamic-3d", {0, 1, 2}, {0.12, 0.06, 0.03}, {}, {}, "released"}};
        plot.setFigure(StudyPlot::Kind::Split, split);
        QCOMPARE(plot.plottableCount(), 3);
        QCOMPARE(plot.legend->itemCount(), 3);

        QTemporaryDir dir;
        const std::pair<FigureKind, StudyFigureData> figures[] = {{FigureKind::StudyHeatmap, heat},
                                                                  {FigureKind::StudyCdf, lines},
                                                                  {FigureKind::StudySlack, lines},
                                                                  {FigureKind::StudyForecastError, lines},
                                                                  {FigureKind::StudySplit, split}};
        for (const auto& [kind, data] : figures) {
            FigureRequest request;
            request.kind = kind;
            request.study = data;
            request.size.widthPx = 800;
            request.size.heightPx = 500;
            const QString path = dir.filePath(QStringLiteral("study.png"));
            QCOMPARE(renderFigure(request, path), QString());
            const QImage image(path);
            QCOMPARE(image.size(), QSize(800, 500));
            QSet<QRgb> colours;
            for (int x = 0; x < image.width(); x += 7)
                for (int y = 0; y < image.height(); y += 7)
                    colours.insert(image.pixel(x, y));
            QVERIFY(colours.size() > 4); // drawn, not blank
        }
    }

    // Issue 45, item 3: the numbers beside the figure. Every point of every drawn line is a row, in the
    // column of its panel's axis title (with its unit), at its time in ISO 8601 UTC; the metadata the figure
    // file carries comes first.
    void timelineDataHasEveryPlottedPoint() {
        const DataCsv csv = parseDataCsv(figureDataCsv(*m_plot, m_metadata));
        QCOMPARE(csv.comments.size(), 2);
        QCOMPARE(csv.comments[0], QStringLiteral("# Timeline"));
        QVERIFY2(csv.comments[1].contains(QStringLiteral("synthetic day/night")) &&
                     csv.comments[1].contains(QStringLiteral("runs: 42")),
                 qPrintable(csv.comments[1]));
        QCOMPARE(csv.header.front(), QStringLiteral("series"));
        QCOMPARE(csv.header[1], QStringLiteral("time (UTC)"));
        const qsizetype power = csv.header.indexOf(QStringLiteral("Facility power (MW)"));
        QVERIFY2(power > 1, qPrintable(csv.header.join(QLatin1Char('|'))));
        int expected = 0;
        for (int i = 0; i < m_plot->graphCount(); ++i)
            if (m_plot->graph(i)->visible() &&
                m_plot->graph(i)->layer()->name() != QLatin1String(kHoverLayer))
                for (auto it = m_plot->graph(i)->data()->constBegin();
                     it != m_plot->graph(i)->data()->constEnd(); ++it)
                    expected += std::isfinite(it->value) ? 1 : 0;
        QCOMPARE(static_cast<int>(csv.rows.size()), expected);
        // The run's first power reading: 2 x 8 x 4 GPUs at 500 W is 0.032 MW, at 2022-06-01T00:00Z.
        bool found = false;
        for (const QStringList& row : csv.rows)
            if (row[0] == QStringLiteral("dynamic-3d") && row.size() > power && !row[power].isEmpty()) {
                QCOMPARE(row[1], QStringLiteral("2022-06-01T00:00:00Z"));
                QCOMPARE(row[power].toDouble(), 0.032);
                found = true;
                break;
            }
        QVERIFY(found);
    }

    // A figure of one timeline panel writes that panel's numbers only, not those of the panels it leaves out.
    void aOnePanelFigureWritesOnlyItsPanel() {
        const CarbonTrace trace = syntheticTrace();
        FigureRequest request;
        request.kind = FigureKind::Emissions;
        request.runs = {{QStringLiteral("dynamic-3d"), syntheticRun(trace)}};
        request.trace = trace;
        request.from = trace.startUtc;
        request.to = trace.endUtc();
        request.size.widthPx = 800;
        request.size.heightPx = 500;
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("emissions.csv"));
        QCOMPARE(renderFigure(request, dir.filePath(QStringLiteral("emissions.png")), data), QString());
        QFile file(data);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const DataCsv csv = parseDataCsv(QString::fromUtf8(file.readAll()));
        // About 0.5 t over its 40 hours (12.8 kg an hour, dirty or clean): in kg, as the panel draws it.
        QCOMPARE(csv.header, (QStringList{QStringLiteral("series"), QStringLiteral("time (UTC)"),
                                          QStringLiteral("Cumulative emissions (kgCO₂e)")}));
        QVERIFY(!csv.rows.empty());
        // 1e-9 relative: the last row is the series' sum of grams, divided by 1000 once.
        double grams = 0.0;
        for (const IntervalRecord& r : request.runs.front().result.series)
            grams += r.emissionsG + r.embodiedG;
        const double lastKg = csv.rows.back().back().toDouble();
        QVERIFY2(std::abs(lastKg - grams / 1e3) <= 1e-9 * lastKg,
                 qPrintable(csv.rows.back().join(QLatin1Char(','))));
    }

    // A heatmap cell is one row (not one per drawn grid cell): its start, its region by name, the saving in
    // %; a missing cell is no row.
    void heatmapDataHasOneRowPerCell() {
        const StudyFigureData heat = sampleHeatmap();
        StudyPlot plot;
        plot.setFigure(StudyPlot::Kind::Heatmap, heat);
        const DataCsv csv = parseDataCsv(figureDataCsv(plot, m_metadata));
        QCOMPARE(static_cast<int>(csv.rows.size()), 5);
        QCOMPARE(csv.header, (QStringList{QStringLiteral("series"), QStringLiteral("start (UTC)"),
                                          QStringLiteral("region"),
                                          QStringLiteral("oracle: savings against static-max (%)")}));
        QStringList cells;
        for (const QStringList& row : csv.rows)
            cells << row.mid(1).join(QLatin1Char(' '));
        QVERIFY2(cells.contains(QStringLiteral("2022-03-01T00:00:00Z DE 10")),
                 qPrintable(cells.join(QLatin1Char('|'))));
        QVERIFY2(cells.contains(QStringLiteral("2022-03-02T00:00:00Z DE -5")),
                 qPrintable(cells.join(QLatin1Char('|'))));
        QVERIFY2(cells.contains(QStringLiteral("2022-03-03T00:00:00Z FR 30")),
                 qPrintable(cells.join(QLatin1Char('|'))));
    }

    // The dialog's box, ticked as a user would, writes FILE.csv beside the figure.
    void theDialogWritesTheDataWhenAsked() {
        QTemporaryDir dir;
        ExportDialog dialog(dir.filePath(QStringLiteral("figure.png")));
        dialog.dataBox()->setChecked(false);
        QCOMPARE(dialog.exportPlot(*m_plot, m_metadata, screenTheme()), QString());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("figure.csv"))));
        QTest::mouseClick(dialog.dataBox(), Qt::LeftButton, {}, QPoint(4, dialog.dataBox()->height() / 2));
        QVERIFY(dialog.withData());
        QCOMPARE(dialog.exportPlot(*m_plot, m_metadata, screenTheme()), QString());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("figure.csv"))));
    }

    // Written beside the figure, atomically; a data path that cannot be written names the file.
    void dataIsWrittenBesideTheFigure() {
        QTemporaryDir dir;
        const QString figure = dir.filePath(QStringLiteral("timeline.pdf"));
        QCOMPARE(dataPathBeside(figure), dir.filePath(QStringLiteral("timeline.csv")));
        QCOMPARE(exportFigureData(*m_plot, dataPathBeside(figure), m_metadata), QString());
        QFile written(dataPathBeside(figure));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(written.readAll()), figureDataCsv(*m_plot, m_metadata));
        const QString nowhere = dir.filePath(QStringLiteral("missing/timeline.csv"));
        QVERIFY(exportFigureData(*m_plot, nowhere, m_metadata).contains(nowhere));
    }

    void refusesUnknownFormatsAndKeepsExistingFiles() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("figure.bmp"));
        const QString problem = exportFigure(*m_plot, bad, FigureSize{}, m_metadata);
        QVERIFY(problem.contains(QStringLiteral("unsupported figure format")));
        QVERIFY(problem.contains(bad));
        QVERIFY(!QFile::exists(bad));
    }

private:
    std::unique_ptr<TimelinePlot> m_plot;
    FigureMetadata m_metadata;
};

QTEST_MAIN(TestFigureExport)
#include "tst_figureexport.moc"
