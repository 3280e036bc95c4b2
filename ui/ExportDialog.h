// SPDX-License-Identifier: MIT
#pragma once

#include "plots/FigureExporter.h"
#include "plots/PlotTheme.h"

#include <QDialog>
#include <QSize>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

class QCheckBox;

namespace carbon3d::ui {

// Asks where and how to export a figure: the file (its extension picks PNG, SVG or PDF), a size preset
// (slide, paper column) or a size in pixels, centimetres or inches with its DPI, and the theme (screen,
// presentation or paper).
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);

    QString path() const;
    FigureSize size() const;
    QString themeName() const;
    // Whether the plotted numbers are written too, as FILE.csv beside the figure (ui/plots/FigureData.h).
    bool withData() const;

    // Exports `plot` as chosen here (file, size, theme, and its data when asked), then draws it in
    // `shownTheme` again. Returns an empty string on success, otherwise the problem (as ui::exportFigure).
    QString exportPlot(QCustomPlot& plot, const FigureMetadata& metadata, const PlotTheme& shownTheme) const;

    // For tests.
    QComboBox* presetBox() const { return m_preset; }
    QComboBox* unitBox() const { return m_unit; }
    QDoubleSpinBox* widthBox() const { return m_width; }
    QLineEdit* pathEdit() const { return m_path; }
    QCheckBox* dataBox() const { return m_data; }

private:
    void applyPreset(int index);
    void showInUnit(SizeUnit unit);
    SizeUnit unit() const;

    QLineEdit* m_path = nullptr;
    QComboBox* m_preset = nullptr;
    QDoubleSpinBox* m_width = nullptr;
    QDoubleSpinBox* m_height = nullptr;
    QComboBox* m_unit = nullptr;
    QSpinBox* m_dpi = nullptr;
    QComboBox* m_theme = nullptr;
    QCheckBox* m_data = nullptr;
    SizeUnit m_shownUnit = SizeUnit::Pixels;
    QSize m_pixels;         // the size exported, exact whatever unit shows it
    bool m_showing = false; // the dialog itself is setting the boxes
};

} // namespace carbon3d::ui
