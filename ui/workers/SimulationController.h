// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"
#include "domain/RunResult.h"
#include "perf/ConfigurationLandscape.h"
#include "runner/AttributionEnds.h"
#include "runner/ScenarioRunner.h"
#include "workers/LatestRequest.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <atomic>
#include <memory>
#include <vector>

namespace carbon3d::ui {

// What a finished batch hands back to the GUI thread: plain values, no shared state.
struct SimulationOutcome {
    PreparedScenario prepared;
    std::vector<RunResult> runs;      // in the order of the scenario's policies
    std::vector<PolicySpec> askedFor; // what each run was asked to run as, in the order of `runs`
    // Policies that failed while others finished; the scenario is left as it was run (it is saved).
    std::vector<PolicyWarning> warnings;
    double elapsedSeconds = 0.0;
};

// A policy's run and its baseline's, to be answered at both ends of the attribution of parked GPUs.
struct AnswerRequest {
    quint64 question = 0; // the asker's number for it, handed back with the answer
    std::shared_ptr<const PreparedScenario> prepared;
    AskedRun run;
    AskedRun baseline;
};

// Runs a scenario's policies off the GUI thread: the scenario is copied on the GUI thread, one task per
// policy runs on an owned thread pool, progress is polled from atomics by a GUI-thread timer (so a fast
// engine cannot flood the event loop), results come back by signal as values. Cancel sets an atomic
// flag the engine checks between events. Nothing here blocks the GUI thread except the destructor,
// which waits for cancelled tasks to return. The computations the form asks for after each edit (the
// static-max runtime, the configuration search) share the pool: they are CPU work like a run. File I/O
// does not belong here (workers/FileTasks.h): it would queue behind a long batch.
class SimulationController : public QObject {
    Q_OBJECT
public:
    explicit SimulationController(QObject* parent = nullptr);
    ~SimulationController() override;

    bool isRunning() const { return static_cast<bool>(m_batch); }
    void start(const Scenario& scenario);
    void cancel();
    // Asynchronously computes the static-max runtime of a scenario (for the slack slider).
    void estimateStaticMaxHours(const Scenario& scenario);
    // Asynchronously searches the scenario's job and cluster for every feasible configuration (for the
    // Configurations page); only the newest search is answered.
    void searchConfigurations(const Scenario& scenario);
    // Asynchronously runs a policy and its baseline at both ends of the attribution (the answer above the
    // Results page's plots); a newer request cancels an older one still running.
    void answerAtBothEnds(const AnswerRequest& request);

Q_SIGNALS:
    void progressChanged(double fraction, const QString& text);
    void finished(const carbon3d::ui::SimulationOutcome& outcome);
    void failed(const QString& message);
    void cancelled();
    // The fastest option's runtime, and the most GPUs any option of the menu uses (0: unknown).
    void staticMaxHoursEstimated(double hours, int usableGpus);
    void configurationsFound(const carbon3d::ConfigurationLandscape& landscape, const QString& title,
                             double memoryCapacityBytes);
    void configurationSearchFailed(const QString& message);
    void answerFound(quint64 question, const carbon3d::AnswerAtBothEnds& answer);
    void answerFailed(quint64 question, const QString& message);

private:
    struct Batch;
    void launchPolicies(std::shared_ptr<Batch> batch);
    // After the last policy: splits every run's saving (runner/SavingSplit.h), then finishBatch.
    void policyDone(const std::shared_ptr<Batch>& batch);
    // Hands the batch's runs (or its cancellation or errors) to the page.
    void finishBatch(const std::shared_ptr<Batch>& batch);
    void pollProgress();

    QThreadPool m_pool;
    QTimer m_progressTimer;
    QElapsedTimer m_clock;
    std::shared_ptr<Batch> m_batch;
    LatestRequest m_estimate; // a newer edit supersedes an estimate or a search still running
    LatestRequest m_search;
    std::shared_ptr<std::atomic<bool>>
        m_answerCancel; // the answer being computed, told to stop when superseded
};

} // namespace carbon3d::ui

Q_DECLARE_METATYPE(carbon3d::ui::SimulationOutcome)
Q_DECLARE_METATYPE(carbon3d::AnswerAtBothEnds)
