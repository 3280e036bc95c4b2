// SPDX-License-Identifier: MIT
#include "plots/FigureExporter.h"

#include <QFileInfo>
#include <QImageWriter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace carbon3d::ui {

QString FigureMetadata::description() const {
    QString text = QStringLiteral("Scenario: %1")
                       .arg(scenarioName.isEmpty() ? QStringLiteral("(unsaved)") : scenarioName);
    if (!runIds.isEmpty())
        text += QStringLiteral("; runs: %1").arg(runIds.join(QStringLiteral(", ")));
    text += QStringLiteral("; Carbon3D %1").arg(QStringLiteral(CARBON3D_VERSION));
    return text;
}

bool figureFormatFromPath(const QString& path, FigureFormat* format) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        *format = FigureFormat::Png;
    else if (suffix == QLatin1String("svg"))
        *format = FigureFormat::Svg;
    else if (suffix == QLatin1String("pdf"))
        *format = FigureFormat::Pdf;
    else
        return false;
    return true;
}

namespace {

QString writePng(QCustomPlot& plot, QSaveFile& file, const FigureSize& size, const FigureMetadata& metadata) {
    QImage image = plot.toPixmap(size.widthPx, size.heightPx, 1.0).toImage();
    const int dotsPerMeter = qRound(size.dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.setText(QStringLiteral("Title"), metadata.title);
    image.setText(QStringLiteral("Description"), metadata.description());
    image.setText(QStringLiteral("Software"), QStringLiteral("Carbon3D " CARBON3D_VERSION));
    QImageWriter writer(&file, "png");
    if (!writer.write(image))
        return writer.errorString();
    return {};
}

QString writeSvg(QCustomPlot& plot, QSaveFile& file, const FigureSize& size, const FigureMetadata& metadata) {
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(QSize(size.widthPx, size.heightPx));
    generator.setViewBox(QRect(0, 0, size.widthPx, size.heightPx));
    generator.setTitle(metadata.title);
    generator.setDescription(metadata.description());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return QStringLiteral("cannot start the SVG painter");
    plot.toPainter(&painter, size.widthPx, size.heightPx);
    painter.end();
    return {};
}

QString writePdf(QCustomPlot& plot, QSaveFile& file, const FigureSize& size, const FigureMetadata& metadata) {
    // QPdfWriter directly (rather than QCustomPlot::savePdf) so the file goes through QSaveFile and
    // carries the description in its metadata.
    QPdfWriter writer(&file);
    writer.setTitle(metadata.title);
    writer.setCreator(QStringLiteral("Carbon3D " CARBON3D_VERSION " - ") + metadata.description());
    writer.setResolution(96);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setPageSize(
        QPageSize(QSizeF(size.widthPx, size.heightPx), QPageSize::Point, QString(), QPageSize::ExactMatch));
    QCPPainter painter;
    if (!painter.begin(&writer))
        return QStringLiteral("cannot start the PDF painter");
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    // Page is in points (1/72 in) and the writer paints at 96 dpi: scale so the figure fills the page.
    const double scale = 96.0 / 72.0;
    painter.scale(scale, scale);
    plot.toPainter(&painter, size.widthPx, size.heightPx);
    painter.end();
    return {};
}

} // namespace

QString exportFigure(QCustomPlot& plot, const QString& path, const FigureSize& size,
                     const FigureMetadata& metadata) {
    FigureFormat format = FigureFormat::Png;
    if (!figureFormatFromPath(path, &format))
        return QStringLiteral("%1: unsupported figure format (expected .png, .svg or .pdf)").arg(path);
    if (size.widthPx < 100 || size.heightPx < 100 || size.widthPx > 20000 || size.heightPx > 20000)
        return QStringLiteral("%1: figure size %2x%3 px is outside 100..20000")
            .arg(path)
            .arg(size.widthPx)
            .arg(size.heightPx);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write (%2)").arg(path, file.errorString());
    QString problem;
    switch (format) {
    case FigureFormat::Png:
        problem = writePng(plot, file, size, metadata);
        break;
    case FigureFormat::Svg:
        problem = writeSvg(plot, file, size, metadata);
        break;
    case FigureFormat::Pdf:
        problem = writePdf(plot, file, size, metadata);
        break;
    }
    if (!problem.isEmpty()) {
        file.cancelWriting();
        return QStringLiteral("%1: %2").arg(path, problem);
    }
    if (!file.commit())
        return QStringLiteral("%1: cannot finish writing (%2)").arg(path, file.errorString());
    return {};
}

} // namespace carbon3d::ui
