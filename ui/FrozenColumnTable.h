// SPDX-License-Identifier: MIT
#pragma once

#include <QTableView>

namespace carbon3d::ui {

// A table whose first column stays in place while the others scroll sideways: the metrics table is wider
// than a 1280-1600 px window, and once scrolled a row of numbers no longer said which run it was. A
// second view, showing only column 0 of the same model and selection, lies over the left edge of this one
// and follows its vertical scrolling, row heights, column width and sort order.
class FrozenColumnTable : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnTable(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;
    QTableView* frozenView() const { return m_frozen; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    // Keeps the cursor cell out from under the frozen column when the keyboard moves it left.
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;
    void updateGeometries() override;

private:
    // The frozen column's width: its entries', up to two fifths of the view.
    void fitFrozenColumn();
    void showOnlyFirstColumn();
    void placeFrozenView();

    QTableView* m_frozen = nullptr;
};

} // namespace carbon3d::ui
