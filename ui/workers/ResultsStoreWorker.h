// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredRun.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
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
    // True when `file` is the open database or one of its companions (-wal, -shm, -journal). The studio
    // must not read such a file itself: closing any descriptor on it drops the process's SQLite locks.
    bool isDatabaseFile(const QString& file) const;

    void open(const QString& path);
    void saveRuns(const StoredScenario& scenario, const std::vector<RunResult>& runs,
                  const std::vector<StoredTrace>& traces);
    void listRuns();
    void loadRuns(const std::vector<RunId>& ids);
    void compareRuns(const std::vector<RunId>& ids, RunId baseline);
    void renameRun(RunId id, const QString& name);
    void deleteRun(RunId id);

Q_SIGNALS:
    void opened(bool ok, const QString& message);
    void saved(const std::vector<carbon3d::RunId>& ids);
    void listed(const std::vector<carbon3d::RunSummary>& runs);
    void loaded(const std::vector<carbon3d::StoredRun>& runs);
    void compared(const std::vector<carbon3d::RunComparison>& rows);
    void failed(const QString& message);

private:
    struct State;
    template <typename Work> void post(Work work);

    QThreadPool m_thread; // exactly one thread that never expires: the store's owner
    std::shared_ptr<State> m_state;
    QString m_path;
};

} // namespace carbon3d::ui

Q_DECLARE_METATYPE(std::vector<carbon3d::RunSummary>)
Q_DECLARE_METATYPE(std::vector<carbon3d::StoredRun>)
Q_DECLARE_METATYPE(std::vector<carbon3d::RunComparison>)
