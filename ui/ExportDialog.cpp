// SPDX-License-Identifier: MIT
#include "ExportDialog.h"

#include "FileDialogs.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <qcustomplot.h>

namespace carbon3d::ui {

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
    m_width = new QSpinBox(this);
    m_width->setRange(200, 8000);
    m_width->setValue(1600);
    m_width->setSuffix(tr(" px"));
    form->addRow(tr("Width"), m_width);
    m_height = new QSpinBox(this);
    m_height->setRange(200, 8000);
    m_height->setValue(1000);
    m_height->setSuffix(tr(" px"));
    form->addRow(tr("Height"), m_height);
    m_dpi = new QSpinBox(this);
    m_dpi->setRange(72, 600);
    m_dpi->setValue(150);
    m_dpi->setToolTip(tr("Resolution recorded in the PNG (for print layout); vector formats ignore it"));
    form->addRow(tr("DPI"), m_dpi);
    m_presentation = new QCheckBox(tr("Presentation theme (large fonts, thick lines)"), this);
    m_presentation->setChecked(true);
    form->addRow(QString(), m_presentation);
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
}

QString ExportDialog::path() const {
    return m_path->text();
}

FigureSize ExportDialog::size() const {
    return FigureSize{m_width->value(), m_height->value(), m_dpi->value()};
}

bool ExportDialog::presentationTheme() const {
    return m_presentation->isChecked();
}

QString ExportDialog::exportPlot(QCustomPlot& plot, const FigureMetadata& metadata,
                                 const PlotTheme& shownTheme) const {
    if (presentationTheme())
        applyTheme(plot, ui::presentationTheme());
    const QString problem = exportFigure(plot, path(), size(), metadata);
    if (presentationTheme())
        applyTheme(plot, shownTheme);
    plot.replot(QCustomPlot::rpQueuedReplot);
    return problem;
}

} // namespace carbon3d::ui
