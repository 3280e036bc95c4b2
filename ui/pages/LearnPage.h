// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"

#include <QString>
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

Q_SIGNALS:
    void openScenarioRequested(const QString& path);

private:
    void showLesson(int row);

    std::vector<LessonChoice> m_lessons;
    QListWidget* m_list = nullptr;
    QTextBrowser* m_text = nullptr;
    QPushButton* m_open = nullptr;
    QString m_docsDir;
};

} // namespace carbon3d::ui
