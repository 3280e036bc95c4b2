// SPDX-License-Identifier: MIT
#include "plots/FigureExporter.h"

#include <QFileInfo>
#include <QImageWriter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <algorithm>
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

// The plot is laid out at FigureSize::layoutSize(), then rendered at dpi / 96 times that: fonts in points
// keep their printed size.
constexpr double kScreenDpi = 96.0;

// Pixels per unit of length at `dpi`.
double pixelsPerUnit(SizeUnit unit, int dpi) {
    switch (unit) {
    case SizeUnit::Pixels:
        return 1.0;
    case SizeUnit::Centimetres:
        return dpi / 2.54;
    case SizeUnit::Inches:
        return dpi;
    }
    return 1.0;
}

QString writePng(QCustomPlot& plot, QSaveFile& file, const FigureSize& size, const FigureMetadata& metadata) {
    const double scale = size.dpi / kScreenDpi;
    const QSize layout = size.layoutSize();
    QImage image = plot.toPixmap(layout.width(), layout.height(), scale).toImage();
    // Rounding the logical size may leave a pixel off: the file has exactly the size asked for.
    if (image.size() != QSize(size.widthPx, size.heightPx))
        image = image.scaled(size.widthPx, size.heightPx, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
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
    const QSize layout = size.layoutSize();
    generator.setSize(QSize(size.widthPx, size.heightPx));
    generator.setResolution(size.dpi);
    generator.setViewBox(QRect(QPoint(0, 0), layout));
    generator.setTitle(metadata.title);
    generator.setDescription(metadata.description());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return QStringLiteral("cannot start the SVG painter");
    plot.toPainter(&painter, layout.width(), layout.height());
    painter.end();
    return {};
}

QString writePdf(QCustomPlot& plot, QSaveFile& file, const FigureSize& size, const FigureMetadata& metadata) {
    // QPdfWriter directly (rather than QCustomPlot::savePdf) so the file goes through QSaveFile and
    // carries the description in its metadata.
    QPdfWriter writer(&file);
    writer.setTitle(metadata.title);
    writer.setCreator(QStringLiteral("Carbon3D " CARBON3D_VERSION " - ") + metadata.description());
    // The page is the figure's printed size; the writer paints at 96 dpi, so the plot is laid out at the
    // same logical size as a PNG of this size and dpi, and looks the same.
    writer.setResolution(static_cast<int>(kScreenDpi));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setPageSize(QPageSize(QSizeF(size.widthInches(), size.heightInches()), QPageSize::Inch, QString(),
                                 QPageSize::ExactMatch));
    QCPPainter painter;
    if (!painter.begin(&writer))
        return QStringLiteral("cannot start the PDF painter");
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    const QSize layout = size.layoutSize();
    plot.toPainter(&painter, layout.width(), layout.height());
    painter.end();
    return {};
}

} // namespace

QSize FigureSize::layoutSize() const {
    return {std::max(1, qRound(widthPx * kScreenDpi / dpi)),
            std::max(1, qRound(heightPx * kScreenDpi / dpi))};
}

int toPixels(double value, SizeUnit unit, int dpi) {
    return qRound(value * pixelsPerUnit(unit, dpi));
}

double fromPixels(int pixels, SizeUnit unit, int dpi) {
    return pixels / pixelsPerUnit(unit, dpi);
}

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
    if (size.dpi < 36 || size.dpi > 1200)
        return QStringLiteral("%1: %2 dpi is outside 36..1200").arg(path).arg(size.dpi);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write (%2)").arg(path, file.errorString());
    // What follows the mouse is not part of the figure.
    QCPLayer* hover = plot.layer(QString::fromLatin1(kHoverLayer));
    const bool hoverWasVisible = hover != nullptr && hover->visible();
    if (hover != nullptr)
        hover->setVisible(false);
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
    if (hover != nullptr)
        hover->setVisible(hoverWasVisible);
    if (!problem.isEmpty()) {
        file.cancelWriting();
        return QStringLiteral("%1: %2").arg(path, problem);
    }
    if (!file.commit())
        return QStringLiteral("%1: cannot finish writing (%2)").arg(path, file.errorString());
    return {};
}

} // namespace carbon3d::ui
