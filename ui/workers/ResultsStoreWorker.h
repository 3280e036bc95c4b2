// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"
#include "storage/StoredRun.h"
#include "storage/StoredStudy.h"
#include "study/StudyView.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <memory>
#include <vector>

namespace carbon3d {
class ResultsStore;
}

namespace carbon3d::ui {

// The results store, owned by one worker thread (a SQLite connection belongs to the thread that opened
// it): every call is queued to that thread and its outcome comes back by signal, as plain values. The
// GUI thread never touches the database.
class ResultsStoreWorker : public QObject {
    Q_OBJECT
public:
    explicit ResultsStoreWorker(QObject* parent = nullptr);
    ~ResultsStoreWorker() override;

    QString path() const { return m_path; }
    // A new, timestamped database file beside the open one (offered when the open one cannot be used).
    QString freshDatabasePath() const;
    // True when `file` is the open database or one of its companions (-wal, -shm, -journal). The studio
    // must not read such a file itself: closing any descriptor on it drops the process's SQLite locks.
    bool isDatabaseFile(const QString& file) const;

    void open(const QString& path);
    void saveRuns(const StoredScenario& scenario, const std::vector<RunResult>& runs,
                  const std::vector<StoredTrace>& traces);
    // Saves the runs of one batch of `scenario`; its canonical form and hash (which reads every trace)
    // are computed on the worker thread, not the GUI thread.
    void saveRuns(const Scenario& scenario, const std::vector<RunResult>& runs);
    void listRuns();
    // Loads the runs and their deltas against `baseline` in one job and answers with both, so the window
    // never holds one half of a comparison while it waits for the other.
    void compareRuns(const std::vector<RunId>& ids, const ComparisonBaseline& baseline);
    void renameRun(RunId id, const QString& name);
    void deleteRun(RunId id);
    // Studies (docs/STUDIES.md): registering answers with the study's id and the cells already saved (so a
    // study started again resumes); saving cells answers studyCellsSaved() or studyCellsFailed().
    void registerStudy(const StoredStudy& study);
    void saveStudyCells(StudyId id, const std::vector<StoredCell>& cells);
    void listStudies();
    // What the Study page shows of a saved study under `choice` (savings against `baselinePolicy`), read
    // from the store a page of cells at a time: memory does not grow with the study (issue 44 item 4). A
    // request overtaken by a newer one before it starts is dropped; `request` comes back with the view.
    void loadStudyView(StudyId id, const QString& baselinePolicy, const StudyViewChoice& choice, int request);

Q_SIGNALS:
    void opened(bool ok, const QString& message);
    void saved(const std::vector<carbon3d::RunId>& ids);
    void listed(const std::vector<carbon3d::RunSummary>& runs);
    void compared(const std::vector<carbon3d::StoredRun>& runs,
                  const std::vector<carbon3d::RunComparison>& rows);
    void studyRegistered(carbon3d::StudyId id, const std::vector<std::int64_t>& savedCells);
    void studyCellsSaved(int count);
    void studyCellsFailed(const QString& message);
    void studiesListed(const std::vector<carbon3d::StoredStudy>& studies);
    void studyViewLoaded(const carbon3d::StoredStudy& study, const carbon3d::StudyView& view, int request);
    void failed(const QString& message);

private:
    struct State;
    template <typename Work> void post(Work work);

    QThreadPool m_thread; // exactly one thread that never expires: the store's owner
    // The newest study view asked for: an older request still queued is dropped when its turn comes.
    std::shared_ptr<std::atomic<int>> m_newestView = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<State> m_state;
    QString m_path;
};

} // namespace carbon3d::ui

Q_DECLARE_METATYPE(std::vector<carbon3d::RunSummary>)
Q_DECLARE_METATYPE(std::vector<carbon3d::StoredRun>)
Q_DECLARE_METATYPE(std::vector<carbon3d::RunComparison>)
Q_DECLARE_METATYPE(std::vector<carbon3d::StoredStudy>)
Q_DECLARE_METATYPE(carbon3d::StoredStudy)
Q_DECLARE_METATYPE(carbon3d::StudyView)
