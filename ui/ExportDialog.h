// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FigureExporter.h"
#include "plots/PlotTheme.h"

#include <QDialog>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace carbon3d::ui {

// Asks where and how to export a figure: file (its extension picks PNG, SVG or PDF), size, DPI and
// whether to use the presentation theme.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);

    QString path() const;
    FigureSize size() const;
    bool presentationTheme() const;

    // Exports `plot` as chosen here (file, size, theme), then draws it in `shownTheme` again. Returns an
    // empty string on success, otherwise the problem (as ui::exportFigure).
    QString exportPlot(QCustomPlot& plot, const FigureMetadata& metadata, const PlotTheme& shownTheme) const;

private:
    QLineEdit* m_path = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QCheckBox* m_presentation = nullptr;
};

} // namespace carbon3d::ui
