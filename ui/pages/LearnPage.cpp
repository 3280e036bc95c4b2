// SPDX-License-Identifier: MIT
#include "pages/LearnPage.h"

#include "workers/PoolTask.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QThread>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

namespace carbon3d::ui {

namespace {

QString aboutTheModel(const QString& docsDir) {
    const auto link = [&docsDir](const char* file, const char* text) {
        const QString path = QDir(docsDir).filePath(QString::fromLatin1(file));
        return QStringLiteral("<a href=\"%1\">%2</a>")
            .arg(QUrl::fromLocalFile(path).toString(), QString::fromUtf8(text));
    };
    return QStringLiteral(
               "<h2>About the model</h2>"
               "<p>Carbon3D plays a training job forward through a real carbon-intensity trace. At "
               "every slot boundary (at most every 30 minutes) a "
               "policy picks a parallel configuration (or pauses) from a <i>menu</i> the performance model "
               "derives "
               "for the job and cluster; the engine integrates facility power x carbon intensity exactly "
               "over every "
               "interval, and charges embodied carbon for the GPUs the job holds.</p>"
               "<ul><li><b>Step time and memory</b> of a (d, t, p) configuration follow Megatron-LM's "
               "analysis "
               "(Narayanan et al., SC21) and Korthikanti et al. (2022), calibrated once on measured runs: "
               "%1. Predicted step times are mostly within 10 % of the measured ones, so configurations "
               "predicted closer than that are effectively tied: the model does not reliably order "
               "them.</li>"
               "<li><b>Power</b>: per-GPU phase powers scaled by TDP, node overhead and PUE; power limits "
               "from a "
               "measured curve or a DVFS model.</li>"
               "<li><b>Who pays for parked GPUs</b> (<i>backfill</i>, Scenario page): when a policy shrinks "
               "or pauses the job, the GPUs it frees either idle in the job's reservation (backfill 0: the "
               "job pays their idle power and embodied carbon) or go to other work (backfill 1: they cost "
               "the job nothing). Published savings often count active GPUs only, which is backfill 1. "
               "Every run shows its saving at both ends (the Dedicated / shared column): a saving that "
               "appears only at the shared end rests on someone else using the freed GPUs.</li>"
               "<li><b>Engine, forecasts and policies</b>: %2. <b>Published claims reproduced</b>: %3.</li>"
               "<li><b>Why dynamic 3D parallelism saves carbon</b>: power grows linearly with active GPUs "
               "while "
               "throughput grows sublinearly (pipeline bubble at fixed global batch, data-parallel "
               "all-reduce), so "
               "shrinking data parallelism when the grid is dirty loses little speed per watt saved "
               "(Aboualim and Lee, HotCarbon 2026).</li></ul>"
               "<p>Architecture: %4. Results database: %5.</p>")
        .arg(link("VALIDATION.md", "docs/VALIDATION.md"), link("ENGINE.md", "docs/ENGINE.md"),
             link("RESULTS.md", "docs/RESULTS.md"), link("ARCHITECTURE.md", "docs/ARCHITECTURE.md"),
             link("DATABASE.md", "docs/DATABASE.md"));
}

} // namespace

LearnPage::LearnPage(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("learn"));
    auto* layout = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    left->addWidget(new QLabel(tr("Guided scenarios"), this));
    m_list = new QListWidget(this);
    m_list->setMaximumWidth(360);
    left->addWidget(m_list, 1);
    auto* open = new QPushButton(tr("Open this scenario"), this);
    m_open = open;
    left->addWidget(open);
    layout->addLayout(left);
    m_text = new QTextBrowser(this);
    // The docs the lessons link to are Markdown files of this installation: shown here, in the page (a
    // desktop without a handler for file links did nothing when they were handed to it). Other links go
    // to the desktop.
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, &LearnPage::followLink);
    auto* right = new QVBoxLayout;
    m_back = new QPushButton(tr("\u2190 Back"), this);
    m_back->setToolTip(tr("Back to what was shown before this document"));
    m_back->setVisible(false);
    connect(m_back, &QPushButton::clicked, this, &LearnPage::goBack);
    right->addWidget(m_back, 0, Qt::AlignLeft);
    right->addWidget(m_text, 1);
    layout->addLayout(right, 1);
    m_pool.setMaxThreadCount(1);
    connect(m_list, &QListWidget::currentRowChanged, this, &LearnPage::showLesson);
    connect(open, &QPushButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row >= 0 && static_cast<std::size_t>(row) < m_lessons.size())
            Q_EMIT openScenarioRequested(m_lessons[static_cast<std::size_t>(row)].path);
    });
    connect(m_list, &QListWidget::itemDoubleClicked, open, &QPushButton::click);
}

void LearnPage::setLessons(const std::vector<LessonChoice>& lessons) {
    m_lessons = lessons;
    m_list->clear();
    for (const LessonChoice& lesson : m_lessons)
        m_list->addItem(lesson.title);
    m_list->addItem(tr("About the model"));
    // Wide enough for the longest title (up to the maximum width), so titles are not cut off.
    m_list->setMinimumWidth(
        std::min(m_list->maximumWidth(), m_list->sizeHintForColumn(0) + 2 * m_list->frameWidth() + 8));
    m_list->setCurrentRow(0);
}

void LearnPage::setDocsDirectory(const QString& docsDir) {
    m_docsDir = docsDir;
    showLesson(m_list->currentRow());
}

void LearnPage::followLink(const QUrl& link) {
    // Links inside a document are relative to it; one to a heading of the same document only scrolls.
    const QUrl url = m_shownDocument.isEmpty() ? link : m_shownDocument.resolved(link);
    if (!m_shownDocument.isEmpty() && url.adjusted(QUrl::RemoveFragment) == m_shownDocument) {
        m_text->scrollToAnchor(url.fragment());
        return;
    }
    if (url.isLocalFile() && QFileInfo::exists(url.toLocalFile()))
        openDocument(url, true);
    else
        QDesktopServices::openUrl(url);
}

void LearnPage::openDocument(const QUrl& url, bool remember) {
    if (remember)
        m_history.push_back(m_shownDocument);
    m_shownDocument = url.adjusted(QUrl::RemoveFragment);
    m_back->setVisible(true);
    m_text->setHtml(tr("<p><i>Opening %1\u2026</i></p>").arg(url.fileName().toHtmlEscaped()));
    const LatestRequest::Ticket ticket = m_documentLoad.begin();
    QThread* guiThread = thread();
    runThen(
        m_pool, this,
        [path = url.toLocalFile(), url, guiThread] {
            // Parsed into a document with no layout yet (fast: QTextBrowser parsed into its laid-out one,
            // relaying out as it went), then handed to the GUI thread, which lays it out once.
            auto document = std::make_unique<QTextDocument>();
            QFile file(path);
            if (file.open(QIODevice::ReadOnly))
                document->setMarkdown(QString::fromUtf8(file.readAll()));
            else
                document->setPlainText(QObject::tr("Cannot read %1: %2").arg(path, file.errorString()));
            document->setBaseUrl(url);
            document->moveToThread(guiThread);
            return document;
        },
        [this, ticket, url](std::unique_ptr<QTextDocument> document) {
            if (!m_documentLoad.isCurrent(ticket))
                return;                  // another document, or Back, was asked for since
            document->setParent(m_text); // the browser deletes the document it shows before this one
            m_text->setDocument(document.release());
            if (url.hasFragment())
                m_text->scrollToAnchor(url.fragment());
            Q_EMIT documentShown(m_shownDocument);
        });
}

void LearnPage::goBack() {
    if (m_history.empty())
        return;
    const QUrl previous = m_history.back();
    m_history.pop_back();
    if (!previous.isEmpty()) {
        openDocument(previous, false);
        return;
    }
    showLesson(m_list->currentRow());
}

void LearnPage::showLesson(int row) {
    if (row < 0)
        return;
    m_documentLoad.begin(); // a document still being read is not shown over the lesson
    m_shownDocument.clear();
    m_history.clear();
    m_back->setVisible(false);
    // "About the model" is not a scenario: nothing to open.
    m_open->setEnabled(static_cast<std::size_t>(row) < m_lessons.size());
    if (static_cast<std::size_t>(row) >= m_lessons.size()) {
        m_text->setHtml(aboutTheModel(m_docsDir));
        return;
    }
    const LessonChoice& lesson = m_lessons[static_cast<std::size_t>(row)];
    m_text->setHtml(
        QStringLiteral("<h2>%1</h2><p>%2</p><p><i>Open it, press Run, then hover over the timeline: "
                       "the tooltip explains each decision.</i></p>")
            .arg(lesson.title.toHtmlEscaped(), lesson.description.toHtmlEscaped()));
}

} // namespace carbon3d::ui
