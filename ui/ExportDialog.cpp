// SPDX-License-Identifier: MIT
#include "ExportDialog.h"

#include "FileDialogs.h"
#include "Settings.h"
#include "plots/FigureData.h"
#include "plots/FigurePresets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <qcustomplot.h>

namespace carbon3d::ui {

namespace {

// Whether the plotted numbers go beside the figure (ui/plots/FigureData.h), as the user last chose.
QCheckBox* makeDataBox(QWidget* parent) {
    auto* box = new QCheckBox(QObject::tr("Also write the plotted numbers as CSV beside the figure"), parent);
    box->setToolTip(QObject::tr("FILE.csv next to the figure: one tidy table, a row per plotted point, units "
                                "in the header, the figure's scenario, runs and version as # lines"));
    box->setChecked(settings::exportData.get());
    return box;
}

} // namespace

ExportDialog::ExportDialog(const QString& suggestedPath, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Export figure"));
    auto* form = new QFormLayout(this);
    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(suggestedPath, this);
    m_path->setToolTip(tr("The extension picks the format: .png (raster), .svg or .pdf (vector)"));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File"), pathRow);

    m_preset = new QComboBox(this);
    for (const FigurePreset& preset : figurePresets())
        m_preset->addItem(tr(preset.label));
    m_preset->addItem(tr("Custom"));
    form->addRow(tr("Size for"), m_preset);

    auto* sizeRow = new QHBoxLayout;
    m_width = new QDoubleSpinBox(this);
    m_height = new QDoubleSpinBox(this);
    for (QDoubleSpinBox* box : {m_width, m_height})
        box->setRange(0.5, 20000);
    m_unit = new QComboBox(this);
    m_unit->addItem(tr("px"), int(SizeUnit::Pixels));
    m_unit->addItem(tr("cm"), int(SizeUnit::Centimetres));
    m_unit->addItem(tr("in"), int(SizeUnit::Inches));
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("\u00d7"), this));
    sizeRow->addWidget(m_height);
    sizeRow->addWidget(m_unit);
    form->addRow(tr("Width \u00d7 height"), sizeRow);
    m_dpi = new QSpinBox(this);
    m_dpi->setRange(36, 1200);
    m_dpi->setToolTip(tr("Dots per inch: with the size, how many pixels the figure has. Text keeps its size "
                         "in points, so a figure at 300 dpi prints with the fonts the theme names"));
    form->addRow(tr("DPI"), m_dpi);
    m_theme = new QComboBox(this);
    for (const QString& name : themeNames())
        m_theme->addItem(name, name);
    m_theme->setToolTip(tr("screen: as shown; presentation: large fonts and thick lines for slides; paper: "
                           "7 pt text and thin lines for a figure printed at its size"));
    form->addRow(tr("Theme"), m_theme);
    m_data = makeDataBox(this);
    form->addRow(tr("Data"), m_data);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = chooseSaveFile(this, tr("Export figure"), m_path->text(),
                                              tr("PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (!chosen.isEmpty())
            m_path->setText(chosen);
    });
    connect(m_preset, &QComboBox::activated, this, &ExportDialog::applyPreset);
    connect(m_unit, &QComboBox::currentIndexChanged, this, [this] { showInUnit(unit()); });
    // A hand-edited size is no longer the preset's; the exact pixels follow the edit.
    for (QDoubleSpinBox* box : {m_width, m_height})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            if (m_showing)
                return;
            m_pixels = QSize(toPixels(m_width->value(), m_shownUnit, m_dpi->value()),
                             toPixels(m_height->value(), m_shownUnit, m_dpi->value()));
            m_preset->setCurrentIndex(m_preset->count() - 1);
        });
    // Pixels are what a DPI change keeps when the size is in pixels; otherwise the printed size stays.
    connect(m_dpi, &QSpinBox::valueChanged, this, [this] {
        if (!m_showing && m_shownUnit != SizeUnit::Pixels)
            m_pixels = QSize(toPixels(m_width->value(), m_shownUnit, m_dpi->value()),
                             toPixels(m_height->value(), m_shownUnit, m_dpi->value()));
    });

    const int remembered = settings::exportPreset.get();
    applyPreset(remembered >= 0 && remembered < static_cast<int>(figurePresets().size()) ? remembered : 0);
}

void ExportDialog::applyPreset(int index) {
    if (index < 0 || index >= static_cast<int>(figurePresets().size()))
        return; // "Custom": keep what is there
    const FigurePreset& preset = figurePresets()[static_cast<std::size_t>(index)];
    m_showing = true;
    m_preset->setCurrentIndex(index);
    m_dpi->setValue(preset.dpi);
    const FigureSize size = preset.size();
    m_pixels = QSize(size.widthPx, size.heightPx);
    {
        const QSignalBlocker block(m_unit);
        m_unit->setCurrentIndex(m_unit->findData(int(preset.unit)));
    }
    m_showing = false;
    showInUnit(preset.unit);
    m_theme->setCurrentIndex(m_theme->findData(QString::fromLatin1(preset.theme)));
}

SizeUnit ExportDialog::unit() const {
    return static_cast<SizeUnit>(m_unit->currentData().toInt());
}

// The size re-expressed in another unit (at the current DPI); the exact pixels stay as they were.
void ExportDialog::showInUnit(SizeUnit target) {
    m_showing = true;
    m_shownUnit = target;
    m_width->setDecimals(target == SizeUnit::Pixels ? 0 : 2);
    m_height->setDecimals(m_width->decimals());
    m_width->setValue(fromPixels(m_pixels.width(), target, m_dpi->value()));
    m_height->setValue(fromPixels(m_pixels.height(), target, m_dpi->value()));
    m_showing = false;
}

QString ExportDialog::path() const {
    return m_path->text();
}

FigureSize ExportDialog::size() const {
    return FigureSize{m_pixels.width(), m_pixels.height(), m_dpi->value()};
}

bool ExportDialog::withData() const {
    return m_data->isChecked();
}

QString ExportDialog::themeName() const {
    return m_theme->currentData().toString();
}

QString ExportDialog::exportPlot(QCustomPlot& plot, const FigureMetadata& metadata,
                                 const PlotTheme& shownTheme) const {
    const bool restyle = themeName() != shownTheme.name;
    if (restyle)
        applyTheme(plot, themeByName(themeName()));
    const QString problem =
        exportFigureAndData(plot, path(), size(), metadata, withData() ? dataPathBeside(path()) : QString());
    if (restyle)
        applyTheme(plot, shownTheme);
    plot.replot(QCustomPlot::rpQueuedReplot);
    if (problem.isEmpty()) {
        settings::exportData.set(withData());
        settings::exportPreset.set(m_preset->currentIndex() < static_cast<int>(figurePresets().size())
                                       ? m_preset->currentIndex()
                                       : settings::exportPreset.get());
    }
    return problem;
}

} // namespace carbon3d::ui
