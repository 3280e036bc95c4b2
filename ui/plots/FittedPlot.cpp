// SPDX-License-Identifier: MIT
#include "plots/FittedPlot.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

namespace carbon3d::ui {

namespace {

// Layout passes before the fit settles: ticks only ever get fewer, and titles and legends follow the
// lengths the last pass left, so two or three suffice; the bound keeps a figure whose fits pull against
// each other (a wrapped title widening a margin that shortens the axis it wraps to) from looping.
constexpr int kMostFitPasses = 8;

// The dynamic properties that keep what the plot itself set, beside what the fit shows instead.
constexpr const char* kSourceTitle = "carbon3dSourceTitle";
constexpr const char* kShownTitle = "carbon3dShownTitle";
constexpr const char* kPointLabel = "carbon3dPointLabel"; // the label's own text, before any merge

// The title the plot gave `axis`: its label, unless that is the one the last fit wrapped it into.
QString sourceTitle(QCPAxis& axis) {
    const QVariant shown = axis.property(kShownTitle);
    if (!shown.isValid() || shown.toString() != axis.label())
        axis.setProperty(kSourceTitle, axis.label());
    return axis.property(kSourceTitle).toString();
}

double axisLength(const QCPAxis& axis) {
    return axis.orientation() == Qt::Horizontal ? axis.axisRect()->width() : axis.axisRect()->height();
}

// `text`'s words on lines no wider than `width` in `font` (a word wider than that alone on its line).
QString wrapped(const QString& text, const QFont& font, double width) {
    const QFontMetricsF metrics(font);
    QStringList lines;
    for (const QString& word : text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!lines.isEmpty() && metrics.horizontalAdvance(lines.back() + QLatin1Char(' ') + word) <= width)
            lines.back() += QLatin1Char(' ') + word;
        else
            lines << word;
    }
    return lines.join(QLatin1Char('\n'));
}

// How far a tick label reaches along its axis: its widest line across, its lines down.
double labelExtent(const QString& label, const QFontMetricsF& metrics, Qt::Orientation along) {
    const QStringList lines = label.split(QLatin1Char('\n'));
    if (along == Qt::Vertical)
        return static_cast<double>(lines.size()) * metrics.lineSpacing();
    double widest = 0.0;
    for (const QString& line : lines)
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// Whether two neighbouring tick labels of `axis` come closer than a third of a line apart.
bool tickLabelsTouch(const QCPAxis& axis) {
    const QFontMetricsF metrics(axis.tickLabelFont());
    const QVector<double> ticks = axis.tickVector();
    const QVector<QString> labels = axis.tickVectorLabels();
    std::vector<std::pair<double, double>> placed; // pixel position, extent
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis.range().contains(ticks[i]) || labels[i].isEmpty())
            continue; // QCustomPlot draws no label outside the range
        placed.emplace_back(axis.coordToPixel(ticks[i]), labelExtent(labels[i], metrics, axis.orientation()));
    }
    std::sort(placed.begin(), placed.end());
    const double gap = metrics.height() / 3.0;
    for (std::size_t i = 1; i < placed.size(); ++i) {
        if (placed[i].first - placed[i - 1].first < (placed[i].second + placed[i - 1].second) / 2.0 + gap)
            return true;
    }
    return false;
}

// The most columns `widths` (entries filled row by row) take within `room`: each column as wide as its
// widest entry, `spacing` between columns; at least one.
int columnsThatFit(const std::vector<double>& widths, double spacing, double room) {
    for (auto columns = static_cast<int>(widths.size()); columns > 1; --columns) {
        double total = spacing * (columns - 1);
        for (int column = 0; column < columns; ++column) {
            double widest = 0.0;
            for (auto i = static_cast<std::size_t>(column); i < widths.size();
                 i += static_cast<std::size_t>(columns))
                widest = std::max(widest, widths[i]);
            total += widest;
        }
        if (total <= room)
            return columns;
    }
    return 1;
}

// Where a point label of `size` lands when aligned `alignment` at `anchor` (QCPItemText's rule).
QRectF labelRect(QPointF anchor, QSizeF size, Qt::Alignment alignment) {
    const double x = alignment.testFlag(Qt::AlignRight) ? anchor.x() - size.width() : anchor.x();
    const double y = alignment.testFlag(Qt::AlignBottom) ? anchor.y() - size.height() : anchor.y();
    return {QPointF(x, y), size};
}

} // namespace

FittedPlot::FittedPlot(QWidget* parent)
    : QCustomPlot(parent) {}

void FittedPlot::markPointLabel(QCPItemText* label) {
    label->setProperty(kPointLabel, label->text());
    label->setPadding(QMargins(6, 1, 6, 1)); // off its point on whichever side it goes
}

void FittedPlot::updateLayout() {
    // Start again from the plot's own tick counts: the figure may have grown since the last fit.
    for (TickCount& known : m_tickCounts) {
        if (const QSharedPointer<QCPAxisTicker> ticker = known.ticker.toStrongRef();
            ticker && ticker->tickCount() == known.shown) {
            ticker->setTickCount(known.base);
            known.shown = known.base;
        }
    }
    QCustomPlot::updateLayout();
    for (int pass = 0; pass < kMostFitPasses; ++pass) {
        // Every step runs each pass: titles first (they set the margins the axes' lengths follow from).
        const bool titles = wrapAxisTitles();
        const bool legends = fitLegendColumns();
        const bool ticks = thinTickLabels();
        if (!titles && !legends && !ticks)
            break;
        QCustomPlot::updateLayout();
    }
    placePointLabels();
}

bool FittedPlot::wrapAxisTitles() {
    bool changed = false;
    const QList<QCPAxis*> axes = findChildren<QCPAxis*>();
    for (QCPAxis* axis : axes) {
        if (axis->label().isEmpty() || axis->axisRect() == nullptr)
            continue;
        const QString source = sourceTitle(*axis);
        const double length = axisLength(*axis);
        const QString fitted = length > 0 ? wrapped(source, axis->labelFont(), length) : source;
        axis->setProperty(kShownTitle, fitted);
        if (fitted != axis->label()) {
            axis->setLabel(fitted);
            changed = true;
        }
    }
    return changed;
}

bool FittedPlot::fitLegendColumns() {
    bool changed = false;
    const QList<QCPLegend*> legends = findChildren<QCPLegend*>();
    for (QCPLegend* strip : legends) {
        if (strip->fillOrder() != QCPLayoutGrid::foColumnsFirst || strip->itemCount() == 0)
            continue;
        std::vector<double> widths;
        for (int i = 0; i < strip->itemCount(); ++i) {
            if (const QCPAbstractLegendItem* entry = strip->item(i))
                widths.push_back(entry->minimumOuterSizeHint().width());
        }
        const QMargins margins = strip->margins();
        // The cell the legend sits in (a strip may share its row with a colour scale's column).
        const QCPLayout* cell = strip->layout();
        const int across = cell != nullptr ? cell->outerRect().width() : viewport().width();
        const double room = across - margins.left() - margins.right();
        const int fit = columnsThatFit(widths, strip->columnSpacing(), room);
        if (fit != strip->wrap()) {
            strip->setWrap(fit);
            strip->setFillOrder(strip->fillOrder(), true); // a new wrap moves only the entries added after
            changed = true;
        }
    }
    return changed;
}

FittedPlot::TickCount& FittedPlot::tickCountOf(const QSharedPointer<QCPAxisTicker>& ticker) {
    std::erase_if(m_tickCounts, [](const TickCount& known) { return known.ticker.isNull(); });
    for (TickCount& known : m_tickCounts) {
        if (known.ticker.toStrongRef() == ticker) {
            if (ticker->tickCount() != known.shown) // the plot set a count of its own since
                known.base = known.shown = ticker->tickCount();
            return known;
        }
    }
    m_tickCounts.push_back({ticker, ticker->tickCount(), ticker->tickCount()});
    return m_tickCounts.back();
}

bool FittedPlot::thinTickLabels() {
    bool changed = false;
    const QList<QCPAxis*> axes = findChildren<QCPAxis*>();
    for (QCPAxis* axis : axes) {
        if (!axis->visible() || !axis->tickLabels() || axis->axisRect() == nullptr ||
            axis->ticker().dynamicCast<QCPAxisTickerText>() || !tickLabelsTouch(*axis))
            continue; // categories are each labelled: a text ticker is never thinned
        TickCount& known = tickCountOf(axis->ticker());
        if (known.shown <= 1)
            continue;
        known.shown -= 1;
        axis->ticker()->setTickCount(known.shown);
        changed = true;
    }
    return changed;
}

void FittedPlot::placePointLabels() {
    std::vector<QCPItemText*> labels;
    for (int i = 0; i < itemCount(); ++i) {
        auto* label = qobject_cast<QCPItemText*>(item(i));
        if (label == nullptr || !label->property(kPointLabel).isValid())
            continue;
        label->setText(label->property(kPointLabel).toString());
        label->setVisible(true);
        labels.push_back(label);
    }
    // Labels of points closer than a line merge into the first one's: "#4, #2".
    std::vector<QCPItemText*> shown;
    for (QCPItemText* label : labels) {
        const QPointF at = label->position->pixelPosition();
        const double near = QFontMetricsF(label->font()).height();
        const auto close = std::find_if(shown.begin(), shown.end(), [&](const QCPItemText* other) {
            return QLineF(at, other->position->pixelPosition()).length() < near;
        });
        if (close == shown.end()) {
            shown.push_back(label);
            continue;
        }
        (*close)->setText((*close)->text() + QStringLiteral(", ") + label->text());
        label->setVisible(false);
    }
    // Each on the first side of its point where it stays inside its axes and off the labels placed so far.
    static constexpr Qt::Alignment kSides[] = {Qt::AlignLeft | Qt::AlignBottom, Qt::AlignLeft | Qt::AlignTop,
                                               Qt::AlignRight | Qt::AlignBottom,
                                               Qt::AlignRight | Qt::AlignTop};
    std::vector<QRectF> placed;
    for (QCPItemText* label : shown) {
        const QPointF at = label->position->pixelPosition();
        const QMargins padding = label->padding();
        const QSizeF size = QFontMetricsF(label->font()).size(0, label->text()) +
                            QSizeF(padding.left() + padding.right(), padding.top() + padding.bottom());
        const QRectF inside =
            label->clipAxisRect() ? QRectF(label->clipAxisRect()->rect()) : QRectF(viewport());
        Qt::Alignment chosen = kSides[0];
        QRectF chosenRect = labelRect(at, size, chosen);
        for (const Qt::Alignment side : kSides) {
            const QRectF rect = labelRect(at, size, side);
            const bool free = std::none_of(placed.begin(), placed.end(),
                                           [&](const QRectF& other) { return other.intersects(rect); });
            if (free && inside.contains(rect)) {
                chosen = side;
                chosenRect = rect;
                break;
            }
        }
        label->setPositionAlignment(chosen);
        placed.push_back(chosenRect);
    }
}

} // namespace carbon3d::ui
