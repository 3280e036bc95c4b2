// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"
#include "workers/LatestRequest.h"

#include <QString>
#include <QThreadPool>
#include <QUrl>
#include <QWidget>
#include <vector>

class QListWidget;
class QPushButton;
class QTextBrowser;

namespace carbon3d::ui {

// A guided tour: bundled teaching scenarios, each with a short text saying what to look at, and an
// "About the model" page pointing at the formulas in docs/.
class LearnPage : public QWidget {
    Q_OBJECT
public:
    explicit LearnPage(QWidget* parent = nullptr);
    void setLessons(const std::vector<LessonChoice>& lessons);
    void setDocsDirectory(const QString& docsDir);

    // The document shown (a docs/ Markdown file a lesson links to), or empty while a lesson is.
    QUrl shownDocument() const { return m_shownDocument; }
    QPushButton* backButton() const { return m_back; }

Q_SIGNALS:
    void openScenarioRequested(const QString& path);
    void documentShown(const QUrl& url); // once it is in the page, laid out

private:
    void showLesson(int row);
    void followLink(const QUrl& url);
    // Reads and parses the document off the GUI thread (issue 43: QTextBrowser::setSource parsed
    // VALIDATION.md into a laid-out editor for 17.5 s of CPU, the window frozen), then shows it. `remember`:
    // Back returns to what is shown now.
    void openDocument(const QUrl& url, bool remember);
    void goBack();

    std::vector<LessonChoice> m_lessons;
    QListWidget* m_list = nullptr;
    QTextBrowser* m_text = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_back = nullptr;
    QString m_docsDir;
    QUrl m_shownDocument;
    std::vector<QUrl> m_history; // what Back returns to, newest last (an empty URL: the selected lesson)
    LatestRequest m_documentLoad;
    QThreadPool m_pool; // reads documents; its destructor waits for a read still running
};

} // namespace carbon3d::ui
