// SPDX-License-Identifier: MIT
#include "FrozenColumnTable.h"

#include <QHeaderView>
#include <QScrollBar>
#include <algorithm>

namespace carbon3d::ui {

FrozenColumnTable::FrozenColumnTable(QWidget* parent)
    : QTableView(parent)
    , m_frozen(new QTableView(this)) {
    m_frozen->setObjectName(QStringLiteral("frozenColumn"));
    m_frozen->setFocusPolicy(Qt::NoFocus); // the main view owns the keyboard; clicks still select rows
    m_frozen->verticalHeader()->hide();
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    setHorizontalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(m_frozen);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int size) {
        if (column == 0) {
            m_frozen->setColumnWidth(0, size);
            placeFrozenView();
        }
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int row, int, int size) { m_frozen->setRowHeight(row, size); });
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    // A click on the frozen header sorts as a click on the main one would (the frozen view itself never
    // sorts: enabling sorting there would re-sort the shared model on its own); one indicator shows on both.
    m_frozen->horizontalHeader()->setSectionsClickable(true);
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int column) {
        if (!isSortingEnabled())
            return;
        const bool flip = horizontalHeader()->sortIndicatorSection() == column &&
                          horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder;
        sortByColumn(column, flip ? Qt::DescendingOrder : Qt::AscendingOrder);
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) {
                m_frozen->horizontalHeader()->setSortIndicatorShown(isSortingEnabled());
                m_frozen->horizontalHeader()->setSortIndicator(column, order);
            });
}

void FrozenColumnTable::setModel(QAbstractItemModel* model) {
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    // New rows need their heights copied, new columns hiding.
    connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTable::showOnlyFirstColumn);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnTable::showOnlyFirstColumn);
    connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnTable::showOnlyFirstColumn);
    showOnlyFirstColumn();
}

void FrozenColumnTable::showOnlyFirstColumn() {
    if (model() == nullptr)
        return;
    m_frozen->setAlternatingRowColors(alternatingRowColors());
    for (int column = 1; column < model()->columnCount(); ++column)
        m_frozen->setColumnHidden(column, true);
    fitFrozenColumn();
    m_frozen->setColumnWidth(0, columnWidth(0));
    for (int row = 0; row < model()->rowCount(); ++row)
        m_frozen->setRowHeight(row, rowHeight(row));
    placeFrozenView();
}

void FrozenColumnTable::fitFrozenColumn() {
    if (model() == nullptr || model()->columnCount() == 0)
        return;
    // As wide as its longest entry, but never more than two fifths of the view: a policy variant's long
    // name ("multi-region (inner=dynamic-3d, ...)") otherwise took the whole width and hid every number.
    // Longer names are cut short (their tool tip has them whole).
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    const int widest = std::max(sizeHintForColumn(0), horizontalHeader()->sectionSizeHint(0));
    setColumnWidth(0, std::min(widest, std::max(120, viewport()->width() * 2 / 5)));
}

void FrozenColumnTable::placeFrozenView() {
    m_frozen->setVisible(model() != nullptr && model()->columnCount() > 0 && !isColumnHidden(0));
    m_frozen->setGeometry(verticalHeader()->width() + frameWidth(), frameWidth(), columnWidth(0),
                          viewport()->height() + horizontalHeader()->height());
}

void FrozenColumnTable::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    fitFrozenColumn();
    placeFrozenView();
}

void FrozenColumnTable::updateGeometries() {
    QTableView::updateGeometries();
    if (m_frozen != nullptr)
        placeFrozenView();
}

QModelIndex FrozenColumnTable::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) {
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    if (cursorAction == MoveLeft && current.column() > 0 &&
        visualRect(current).topLeft().x() < m_frozen->columnWidth(0)) {
        const int hidden = visualRect(current).topLeft().x() - m_frozen->columnWidth(0);
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + hidden);
    }
    return current;
}

void FrozenColumnTable::scrollTo(const QModelIndex& index, ScrollHint hint) {
    if (index.column() > 0) // column 0 is always in view
        QTableView::scrollTo(index, hint);
}

} // namespace carbon3d::ui
