// SPDX-License-Identifier: MIT
#include "plots/FigureData.h"

#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/OutputFile.h"
#include "plots/TimeAxisTicker.h"

#include <QDateTime>
#include <QFileInfo>
#include <cmath>
#include <qcustomplot.h>

namespace carbon3d::ui {

namespace {

constexpr double kDaySeconds = 86400.0;

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

// A coordinate as the axis shows it: a time in ISO 8601 UTC (a date alone for a whole day), a category by its
// tick label, anything else as a number.
QString coordinateText(const QCPAxis& axis, double value, bool wholeDay = false) {
    if (const auto time = axis.ticker().dynamicCast<TimeAxisTicker>(); time && !time->elapsed()) {
        const QDateTime at = QDateTime::fromSecsSinceEpoch(std::llround(value), QTimeZone::utc());
        return wholeDay ? at.date().toString(Qt::ISODate)
                        : at.toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss'Z'"));
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

// A heatmap's cells, each block of equal drawn cells once (kColorMapBlockProperty), at the block's centre.
void addCells(DataTable& table, const QString& series, QCPColorMap& map) {
    const QCPAxis& keyAxis = *map.keyAxis();
    const QCPAxis& valueAxis = *map.valueAxis();
    const int name = table.column(QStringLiteral("series"));
    const int x = table.column(axisTitle(keyAxis, "x"));
    const int y = table.column(axisTitle(valueAxis, "y"));
    const int z = table.column(map.colorScale() != nullptr ? axisTitle(*map.colorScale()->axis(), "value")
                                                           : QStringLiteral("value"));
    QCPColorMapData& data = *map.data(); // QCustomPlot reads cells through non-const members only
    const int block = std::max(1, map.property(kColorMapBlockProperty).toInt());
    // A block a day or wider is a day: its x is written as a date.
    const double cellStep = data.keySize() > 1 ? data.keyRange().size() / (data.keySize() - 1) : 0.0;
    const bool wholeDay = cellStep * block >= kDaySeconds;
    for (int k = 0; k + block - 1 < data.keySize(); k += block)
        for (int v = 0; v + block - 1 < data.valueSize(); v += block) {
            const double value = data.cell(k, v);
            if (!std::isfinite(value))
                continue;
            double key0 = 0.0, value0 = 0.0, key1 = 0.0, value1 = 0.0;
            data.cellToCoord(k, v, &key0, &value0);
            data.cellToCoord(k + block - 1, v + block - 1, &key1, &value1);
            table.addRow({{name, series},
                          {x, coordinateText(keyAxis, 0.5 * (key0 + key1), wholeDay)},
                          {y, coordinateText(valueAxis, 0.5 * (value0 + value1))},
                          {z, number(value)}});
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
        else if (auto* map = qobject_cast<QCPColorMap*>(plottable))
            addCells(table, series, *map);
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
    const QString problem = exportFigure(plot, path, size, metadata);
    if (!problem.isEmpty() || dataPath.isEmpty())
        return problem;
    return exportFigureData(plot, dataPath, metadata);
}

QString dataPathBeside(const QString& figurePath) {
    const QFileInfo info(figurePath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral(".csv"));
}

} // namespace carbon3d::ui
