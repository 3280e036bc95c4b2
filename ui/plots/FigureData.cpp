// SPDX-License-Identifier: MIT
#include "plots/FigureData.h"

#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/OutputFile.h"
#include "plots/StudyPlot.h"
#include "plots/TimeAxisTicker.h"

#include <QDateTime>
#include <QFileInfo>
#include <cmath>
#include <qcustomplot.h>

namespace carbon3d::ui {

namespace {

// The table as it is gathered: its column titles in order of first use, and rows of (column -> text).
class DataTable {
public:
    int column(const QString& title) {
        const qsizetype at = m_columns.indexOf(title);
        if (at >= 0)
            return static_cast<int>(at);
        m_columns << title;
        return static_cast<int>(m_columns.size() - 1);
    }
    void addRow(std::vector<std::pair<int, QString>> cells) { m_rows.push_back(std::move(cells)); }

    std::string csv() const {
        std::string text;
        for (qsizetype c = 0; c < m_columns.size(); ++c)
            text += (c > 0 ? "," : "") + csvField(m_columns[c].toStdString());
        text += '\n';
        for (const auto& row : m_rows) {
            std::vector<QString> line(static_cast<std::size_t>(m_columns.size()));
            for (const auto& [column, value] : row)
                line[static_cast<std::size_t>(column)] = value;
            for (std::size_t c = 0; c < line.size(); ++c)
                text += (c > 0 ? "," : "") + csvField(line[c].toStdString());
            text += '\n';
        }
        return text;
    }

private:
    QStringList m_columns;
    std::vector<std::vector<std::pair<int, QString>>> m_rows;
};

QString number(double value) {
    return QString::number(value, 'g', 12);
}

// An axis's title as a column header; an untitled time axis says which clock it reads.
QString axisTitle(const QCPAxis& axis, const char* fallback) {
    if (!axis.label().isEmpty())
        return axis.label().simplified(); // a title wrapped over lines on the plot is one header
    if (const QVariant panel = axis.axisRect()->property(kPanelTitleProperty);
        panel.isValid() && axis.orientation() == Qt::Vertical)
        return panel.toString();
    if (const auto time = axis.ticker().dynamicCast<TimeAxisTicker>())
        return time->elapsed() ? QStringLiteral("elapsed (s)") : QStringLiteral("time (UTC)");
    return QString::fromLatin1(fallback);
}

// A coordinate as the axis shows it: a time in ISO 8601 UTC, a category by its tick label, anything else as a
// number.
QString coordinateText(const QCPAxis& axis, double value) {
    if (const auto time = axis.ticker().dynamicCast<TimeAxisTicker>(); time && !time->elapsed()) {
        const QDateTime at = QDateTime::fromSecsSinceEpoch(std::llround(value), QTimeZone::utc());
        return at.toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss'Z'"));
    }
    if (const auto text = axis.ticker().dynamicCast<QCPAxisTickerText>()) {
        const QMap<double, QString>& ticks = text->ticks();
        for (auto it = ticks.constBegin(); it != ticks.constEnd(); ++it)
            if (std::abs(it.key() - value) < 0.5)
                return it.value();
    }
    return number(value);
}

QString seriesName(const QCPAbstractPlottable& plottable, int index) {
    return plottable.name().isEmpty() ? QStringLiteral("series %1").arg(index + 1)
                                      : plottable.name().simplified();
}

// The points of a line, scatter or bar chart: (key, value) pairs, gaps (non-finite values) left out.
template <typename Container>
void addPoints(DataTable& table, const QString& series, const QCPAbstractPlottable& plottable,
               const Container& data) {
    const QCPAxis& keyAxis = *plottable.keyAxis();
    const int x = table.column(axisTitle(keyAxis, "x"));
    const int y = table.column(axisTitle(*plottable.valueAxis(), "value"));
    const int name = table.column(QStringLiteral("series"));
    for (auto it = data.constBegin(); it != data.constEnd(); ++it) {
        if (!std::isfinite(it->key) || !std::isfinite(it->value))
            continue;
        table.addRow({{name, series}, {x, coordinateText(keyAxis, it->key)}, {y, number(it->value)}});
    }
}

// A study heatmap's cells as the study has them, a row per start and region: its colour map spreads each
// start over the grid cells of its span, which are not cells of the study.
void addHeatmapCells(DataTable& table, const StudyPlot& plot) {
    const StudyHeatmap& map = plot.data().heatmap;
    const int name = table.column(QStringLiteral("series"));
    const int start = table.column(QStringLiteral("start (UTC)"));
    const int region = table.column(QStringLiteral("region"));
    const int value = table.column(QString::fromStdString(map.scaleLabel));
    for (std::size_t r = 0; r < map.regions.size(); ++r)
        for (std::size_t c = 0; c < map.starts.size(); ++c) {
            const double savings = map.savings[r * map.starts.size() + c];
            if (!std::isfinite(savings))
                continue;
            table.addRow({{name, QString::fromStdString(map.policy)},
                          {start, QString::fromStdString(formatIsoUtc(map.starts[c]))},
                          {region, QString::fromStdString(map.regions[r])},
                          {value, number(100.0 * savings)}});
        }
}

} // namespace

QString figureDataCsv(QCustomPlot& plot, const FigureMetadata& metadata) {
    DataTable table;
    table.column(QStringLiteral("series"));
    // A figure of one panel of the timeline takes the other panels out of its layout; their graphs stay.
    const QList<QCPAxisRect*> shown = plot.axisRects();
    for (int i = 0; i < plot.plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot.plottable(i);
        if (!plottable->visible() || !shown.contains(plottable->keyAxis()->axisRect()) ||
            (plottable->layer() != nullptr && plottable->layer()->name() == QLatin1String(kHoverLayer)))
            continue;
        const QString series = seriesName(*plottable, i);
        if (const auto* graph = qobject_cast<const QCPGraph*>(plottable))
            addPoints(table, series, *graph, *graph->data());
        else if (const auto* curve = qobject_cast<const QCPCurve*>(plottable))
            addPoints(table, series, *curve, *curve->data());
        else if (const auto* bars = qobject_cast<const QCPBars*>(plottable))
            addPoints(table, series, *bars, *bars->data());
        else if (const auto* study = qobject_cast<const StudyPlot*>(&plot);
                 study != nullptr && qobject_cast<const QCPColorMap*>(plottable) != nullptr)
            addHeatmapCells(table, *study); // the study heatmap's one colour map
    }
    QString text = QStringLiteral("# %1\n# %2\n").arg(metadata.title, metadata.description());
    return text + QString::fromStdString(table.csv());
}

QString exportFigureData(QCustomPlot& plot, const QString& path, const FigureMetadata& metadata) {
    try {
        writeFileAtomically(path.toStdString(), figureDataCsv(plot, metadata).toStdString(),
                            "cannot write the figure's data");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString exportFigureAndData(QCustomPlot& plot, const QString& path, const FigureSize& size,
                            const FigureMetadata& metadata, const QString& dataPath) {
    QString problem = exportFigure(plot, path, size, metadata);
    if (!problem.isEmpty() || dataPath.isEmpty())
        return problem;
    return exportFigureData(plot, dataPath, metadata);
}

QString dataPathBeside(const QString& figurePath) {
    const QFileInfo info(figurePath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral(".csv"));
}

} // namespace carbon3d::ui
