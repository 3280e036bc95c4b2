// SPDX-License-Identifier: MIT
#include "pages/ConfigurationsPage.h"

#include "plots/ConfigurationsPlot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShowEvent>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

namespace carbon3d::ui {

ConfigurationsPage::ConfigurationsPage(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("configurations"));
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_summary = new QLabel(tr("The configuration space appears here once a scenario is loaded."), this);
    m_summary->setObjectName(QStringLiteral("configurationsSummary"));
    m_summary->setWordWrap(true);
    controls->addWidget(m_summary, 1);
    controls->addWidget(new QLabel(tr("Vertical axis:"), this));
    m_yAxis = new QComboBox(this);
    m_yAxis->addItem(tr("Throughput"));
    m_yAxis->addItem(tr("Energy per token"));
    controls->addWidget(m_yAxis);
    auto* exportScatter = new QPushButton(tr("Export figure\u2026"), this);
    controls->addWidget(exportScatter);
    layout->addLayout(controls);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_scatter = new ConfigurationsPlot(splitter);
    m_breakdown = new BreakdownPlot(splitter);
    splitter->addWidget(m_scatter);
    splitter->addWidget(m_breakdown);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({900, 600});
    layout->addWidget(splitter, 1);

    connect(m_yAxis, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_scatter->setYAxis(index == 0 ? ConfigurationsPlot::YAxis::Throughput
                                       : ConfigurationsPlot::YAxis::EnergyPerToken);
    });
    connect(m_scatter, &ConfigurationsPlot::configurationClicked, this, &ConfigurationsPage::selectShape);
    connect(exportScatter, &QPushButton::clicked, this,
            [this] { Q_EMIT exportRequested(m_scatter, FigureKind::Configurations); });
}

void ConfigurationsPage::showLandscape(const ConfigurationLandscape& landscape, const QString& title,
                                       double memoryCapacityBytes) {
    m_landscape = landscape;
    m_title = title;
    m_memoryCapacityBytes = memoryCapacityBytes;
    // Drawing hundreds of points costs GUI-thread time; a hidden page (the usual case while a scenario is
    // edited and run) draws only when it is shown.
    m_dirty = true;
    if (isVisible())
        render();
}

void ConfigurationsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty)
        render();
}

void ConfigurationsPage::render() {
    m_dirty = false;
    const ConfigurationLandscape& landscape = m_landscape;
    m_scatter->setLandscape(landscape);
    if (landscape.shapes.empty()) {
        // An empty plot alone would leave the person guessing; the search knows what refused every shape.
        m_summary->setText(tr("%1: no feasible configuration. The commonest reason: %2.")
                               .arg(m_title, QString::fromStdString(nothingFeasibleReason(landscape.stats))));
        m_breakdown->showNone();
        return;
    }
    // The job's context parallelism is held by every shape (TrainingJob::contextParallel): say it once here.
    const int cp = landscape.shapes.empty() ? 1 : landscape.shapes.front().config.cp;
    // A mixture of experts' shapes also differ in their expert layout (ep, etp: the label's e and et).
    const bool experts = std::any_of(landscape.shapes.begin(), landscape.shapes.end(), [](const auto& shape) {
        return shape.config.ep > 1 || shape.config.expertTp > 1;
    });
    m_summary->setText(
        tr("%1: %2 feasible %7 shapes%6 (fastest micro-batch, interleave and recompute of each; "
           "%3 configurations checked), %4 on the Pareto frontier, %5 on the dynamic-3d menu. "
           "Click a point for its memory and step-time breakdown.")
            .arg(m_title)
            .arg(landscape.shapes.size())
            .arg(landscape.stats.enumerated)
            .arg(landscape.frontier.size())
            .arg(landscape.menu.size())
            .arg(cp > 1 ? tr(", each sequence split over cp = %1 GPUs").arg(cp) : QString())
            .arg(experts ? tr("(d, t, p, ep, etp)") : tr("(d, t, p)")));
    // Start with the fastest shape selected, so the breakdown is never empty; name it and the leanest, so
    // which point is which need not be read off the scatter.
    int fastest = -1;
    int leanest = -1;
    for (std::size_t i = 0; i < landscape.shapes.size(); ++i) {
        const PerfEstimate& e = landscape.shapes[i].estimate;
        if (fastest < 0 ||
            e.tokensPerS > landscape.shapes[static_cast<std::size_t>(fastest)].estimate.tokensPerS)
            fastest = static_cast<int>(i);
        if (leanest < 0 ||
            e.energyPerTokenJ < landscape.shapes[static_cast<std::size_t>(leanest)].estimate.energyPerTokenJ)
            leanest = static_cast<int>(i);
    }
    if (fastest >= 0) {
        // The spread bounds what reshaping can save per token (docs/MODEL.md "Does reshaping pay?").
        const double spread = landscape.shapes[static_cast<std::size_t>(fastest)].estimate.energyPerTokenJ /
                              landscape.shapes[static_cast<std::size_t>(leanest)].estimate.energyPerTokenJ;
        m_summary->setText(
            m_summary->text() + QStringLiteral("\n") +
            tr("Fastest: %1\nLeast energy per token (starred): %2; the fastest spends %3 % more "
               "per token, the most reshaping can save before the grid's swings")
                .arg(m_scatter->describeShape(fastest), m_scatter->describeShape(leanest))
                .arg(100.0 * (spread - 1.0), 0, 'f', 1));
    }
    // Every number here rests on the cluster's calibration: say which, and what it was checked on.
    m_summary->setText(m_summary->text() + QStringLiteral("\n") +
                       tr("Performance model: %1.").arg(QString::fromStdString(landscape.calibration)));
    selectShape(fastest);
}

void ConfigurationsPage::selectShape(int index) {
    const auto& shapes = m_scatter->landscape().shapes;
    if (index < 0 || static_cast<std::size_t>(index) >= shapes.size())
        return;
    const RankedConfig& shape = shapes[static_cast<std::size_t>(index)];
    m_breakdown->showConfiguration(shape, m_memoryCapacityBytes,
                                   goodputShares(m_landscape.modelling, shape.estimate.gpus));
    m_scatter->setSelected(index);
}

void ConfigurationsPage::setTheme(const PlotTheme& theme) {
    m_scatter->setTheme(theme);
    m_breakdown->setTheme(theme);
}

} // namespace carbon3d::ui
