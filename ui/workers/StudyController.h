// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "storage/StoredStudy.h"
#include "study/StudyDefinition.h"
#include "study/StudyTable.h"
#include "workers/BackgroundLoads.h"
#include "workers/SimulationController.h"

#include <QObject>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace carbon3d::ui {

// Runs a study off the GUI thread (docs/STUDIES.md): reads its file, estimates its time by running one
// cell of each policy, runs the cells (core/study, a thread per core) and hands the finished ones back in
// batches four times a second, for the page to draw and the store to save. Cancel stops every running cell
// within a decision. One study at a time.
class StudyController : public QObject {
    Q_OBJECT
public:
    explicit StudyController(QString bundledTraceDirectory, QObject* parent = nullptr);
    ~StudyController() override;

    // Reads a study file; with `estimate`, times one cell of each policy first. Answers loaded() or failed().
    void load(const QString& studyFile, bool estimate);
    // Writes `json` (a study the Study page built) to `studyFile`, then loads it with its estimate.
    void loadNew(const QString& studyFile, const QString& json);
    // Runs the loaded study's cells but those in `skip` (already saved); answers cellsFinished()...
    // finished(). With `saving`, the cells handed over are being saved and the caller answers cellsSaved()
    // for each batch: at most kMostUnsavedStudyCells wait unsaved before the study's threads wait for the
    // saves, so a slow or failing database bounds the memory instead of letting cells pile up.
    void run(const std::vector<std::int64_t>& skip, bool saving);
    // `count` cells handed over by cellsFinished() are saved.
    void cellsSaved(std::size_t count);
    void cancel();
    bool isRunning() const { return m_running; }
    bool isLoaded() const { return static_cast<bool>(m_study); }
    // The loaded study (GUI thread, after loaded()).
    const StudyDefinition& study() const { return *m_study; }
    // Simulates one cell again with the cell of `baselinePolicy` beside it (every other axis equal), with
    // their series, for the Results page; answers cellOpened() or failed().
    void openCell(std::size_t index, const std::string& baselinePolicy);

Q_SIGNALS:
    // estimated: the study was timed (a new one from the page); false: read again to open its cells.
    void loaded(int cells, double estimatedSeconds, bool estimated);
    void failed(const QString& message);
    void cellsFinished(const std::vector<carbon3d::StoredCell>& cells,
                       const std::vector<carbon3d::StudyRow>& rows);
    void progressChanged(int done, int total);
    void finished(bool cancelled);
    // The cell and its baseline as a batch: the cell's prepared scenario (listing both policies) and runs.
    void cellOpened(const carbon3d::ui::SimulationOutcome& outcome);

private:
    struct Shared; // what the study's threads and the GUI thread exchange, under its mutex
    struct LoadedStudy {
        std::shared_ptr<const StudyDefinition> study;
        double estimatedSeconds = 0.0;
        bool estimated = false;
    };
    void deliverLoaded(const Loaded<LoadedStudy>& result);
    void drain();

    QString m_traces;
    QThreadPool m_pool;
    std::shared_ptr<const StudyDefinition> m_study;
    std::shared_ptr<Shared> m_shared;
    QTimer m_poll;
    bool m_running = false;
};

} // namespace carbon3d::ui

Q_DECLARE_METATYPE(std::vector<carbon3d::StoredCell>)
Q_DECLARE_METATYPE(std::vector<carbon3d::StudyRow>)
