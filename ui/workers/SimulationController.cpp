// SPDX-License-Identifier: MIT
#include "workers/SimulationController.h"

#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "runner/SavingSplit.h"
#include "workers/BackgroundLoads.h"
#include "workers/PoolTask.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

namespace carbon3d::ui {

// State shared between the GUI thread and the tasks of one batch. Tasks write only their own slot.
struct SimulationController::Batch {
    std::atomic<bool> cancel{false};
    std::optional<PreparedScenario> prepared;
    std::vector<PolicySpec> policies;
    std::unique_ptr<std::atomic<double>[]> progress; // per policy, 0..1
    std::vector<std::optional<RunResult>> results;
    std::vector<QString> errors;
    std::vector<bool> done; // per policy; touched on the GUI thread only
};

namespace {

// Simulation threads yield the CPU to the GUI thread: on a machine with as many busy threads as cores, an
// equal-priority GUI thread can wait hundreds of milliseconds for a time slice. Linux applies nice values
// per thread; elsewhere this is a no-op (QThread priorities have no effect under SCHED_OTHER).
void lowerWorkerPriority() {
#ifdef __linux__
    thread_local bool lowered = false;
    if (!lowered) {
        setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
        lowered = true;
    }
#endif
}

// Tasks never throw across the thread boundary: errors come back as text.
template <typename F> QString runCatching(F&& f) {
    lowerWorkerPriority();
    return loadCatching<bool>([&f] {
               f();
               return true;
           })
        .error;
}

} // namespace

SimulationController::SimulationController(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<SimulationOutcome>();
    qRegisterMetaType<AnswerAtBothEnds>();
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, &SimulationController::pollProgress);
}

SimulationController::~SimulationController() {
    if (m_batch)
        m_batch->cancel = true;
    if (m_answerCancel)
        *m_answerCancel = true;
    m_pool.waitForDone();
}

void SimulationController::start(const Scenario& scenario) {
    if (m_batch)
        return;
    auto batch = std::make_shared<Batch>();
    batch->policies = scenario.policies;
    m_batch = batch;
    m_clock.start();
    m_progressTimer.start();
    Q_EMIT progressChanged(0.0, tr("Preparing"));
    // Copy the scenario into the task: the GUI may edit its own copy meanwhile.
    runThen(
        m_pool, this,
        [batch, scenario]() { return runCatching([&] { batch->prepared = prepareScenario(scenario); }); },
        [this, batch](const QString& error) {
            if (batch != m_batch)
                return;
            if (!error.isEmpty()) {
                m_batch.reset();
                m_progressTimer.stop();
                Q_EMIT failed(error);
                return;
            }
            if (batch->cancel) {
                m_batch.reset();
                m_progressTimer.stop();
                Q_EMIT cancelled();
                return;
            }
            launchPolicies(batch);
        });
}

void SimulationController::launchPolicies(std::shared_ptr<Batch> batch) {
    const std::size_t n = batch->policies.size();
    batch->progress = std::make_unique<std::atomic<double>[]>(n);
    batch->results.assign(n, std::nullopt);
    batch->errors.assign(n, QString());
    batch->done.assign(n, false);
    if (n == 0) {
        policyDone(batch);
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        batch->progress[i] = 0.0;
        runThen(
            m_pool, this,
            [batch, i]() {
                SimulationHooks hooks;
                hooks.cancel = &batch->cancel;
                hooks.explainDecisions = true; // the Results page's "why" panel
                hooks.progress = [&batch, i](double fraction) {
                    batch->progress[i].store(fraction, std::memory_order_relaxed);
                    return !batch->cancel.load(std::memory_order_relaxed);
                };
                batch->errors[i] = runCatching(
                    [&] { batch->results[i] = runPolicy(*batch->prepared, batch->policies[i], hooks); });
            },
            [this, batch, i]() {
                batch->done[i] = true;
                policyDone(batch);
            });
    }
}

void SimulationController::policyDone(const std::shared_ptr<Batch>& batch) {
    if (std::find(batch->done.begin(), batch->done.end(), false) != batch->done.end())
        return; // a policy is still running
    if (batch->cancel) {
        finishBatch(batch);
        return;
    }
    // Each run's saving split needs the simpler plans' runs the batch lacks: run off the GUI thread. A split
    // that fails leaves the runs unsplit (NaN, shown as unknown) rather than losing them.
    runThen(
        m_pool, this,
        [batch]() {
            (void)runCatching([&] {
                std::vector<RunResult> runs;
                for (const std::optional<RunResult>& result : batch->results) {
                    if (result)
                        runs.push_back(*result);
                }
                SimulationHooks hooks;
                hooks.cancel = &batch->cancel;
                if (const auto references = splitReferences(*batch->prepared, runs, hooks)) {
                    for (std::optional<RunResult>& result : batch->results) {
                        if (result)
                            attachSavingSplit(*result, *references);
                    }
                }
            });
        },
        [this, batch]() { finishBatch(batch); });
}

void SimulationController::finishBatch(const std::shared_ptr<Batch>& batch) {
    m_progressTimer.stop();
    if (batch == m_batch)
        m_batch.reset();
    if (batch->cancel) {
        Q_EMIT cancelled();
        return;
    }
    QStringList errors;
    SimulationOutcome outcome;
    outcome.prepared = std::move(*batch->prepared);
    for (std::size_t i = 0; i < batch->results.size(); ++i) {
        const QString policy = QString::fromStdString(batch->policies[i].name);
        if (!batch->errors[i].isEmpty()) {
            errors << QStringLiteral("%1: %2").arg(policy, batch->errors[i]);
            outcome.warnings.push_back({policy, batch->errors[i]});
        } else if (batch->results[i]) {
            outcome.runs.push_back(std::move(*batch->results[i]));
            outcome.askedFor.push_back(batch->policies[i]);
        }
    }
    outcome.elapsedSeconds = static_cast<double>(m_clock.elapsed()) / 1000.0;
    Q_EMIT progressChanged(1.0, QString());
    if (!errors.isEmpty() && outcome.runs.empty()) {
        Q_EMIT failed(errors.join(QLatin1Char('\n')));
        return;
    }
    Q_EMIT finished(outcome);
    if (!errors.isEmpty())
        Q_EMIT failed(errors.join(QLatin1Char('\n')));
}

void SimulationController::cancel() {
    if (m_batch)
        m_batch->cancel = true;
}

void SimulationController::pollProgress() {
    if (!m_batch || !m_batch->progress)
        return;
    double sum = 0.0;
    const std::size_t n = m_batch->policies.size();
    QStringList running; // by name: a slow one (an exact ILP plan over a year) is seen to be the one left
    for (std::size_t i = 0; i < n; ++i) {
        sum += m_batch->progress[i].load(std::memory_order_relaxed);
        if (!m_batch->done[i])
            running << QString::fromStdString(
                policyRunLabel(m_batch->policies[i].name, m_batch->policies[i].options));
    }
    const int finished = static_cast<int>(n) - static_cast<int>(running.size());
    Q_EMIT progressChanged(n == 0 ? 1.0 : sum / static_cast<double>(n),
                           running.isEmpty()
                               ? tr("Simulating %n policies", nullptr, static_cast<int>(n))
                               : tr("Running %1 (%2 of %3 done)")
                                     .arg(running.size() > 3 ? running.mid(0, 3).join(QStringLiteral(", ")) +
                                                                   QStringLiteral(", \u2026")
                                                             : running.join(QStringLiteral(", ")))
                                     .arg(finished)
                                     .arg(n));
}

void SimulationController::estimateStaticMaxHours(const Scenario& scenario) {
    const LatestRequest::Ticket ticket = m_estimate.begin();
    runThen(
        m_pool, this,
        [scenario]() -> std::pair<double, int> {
            double hours = 0.0;
            int usable = 0;
            runCatching([&] {
                Scenario copy = scenario;
                copy.policies.clear();
                const PreparedScenario prepared = prepareScenario(copy);
                hours = prepared.staticMaxHours;
                usable = mostActiveGpus(prepared.menu);
            });
            return {hours, usable};
        },
        [this, ticket](std::pair<double, int> estimate) {
            if (m_estimate.isCurrent(ticket))
                Q_EMIT staticMaxHoursEstimated(estimate.first, estimate.second);
        });
}

void SimulationController::searchConfigurations(const Scenario& scenario) {
    const LatestRequest::Ticket ticket = m_search.begin();
    const QString title = QStringLiteral("%1 on %2 \u00d7 %3")
                              .arg(QString::fromStdString(scenario.job.model.name))
                              .arg(scenario.gpus)
                              .arg(QString::fromStdString(scenario.cluster.name));
    const double memory = scenario.cluster.accelerator.memoryBytes;
    // Only the job, the cluster, the GPU count and the modelling options are searched: copying them spares
    // the traces.
    runThen(
        m_pool, this,
        [job = scenario.job, cluster = scenario.cluster, gpus = scenario.gpus,
         modelling = scenario.modelling] {
            return loadCatching<ConfigurationLandscape>(
                [&] { return configurationLandscape(job, cluster, gpus, modelling); });
        },
        [this, ticket, title, memory](const Loaded<ConfigurationLandscape>& loaded) {
            if (!m_search.isCurrent(ticket))
                return;
            if (loaded.value)
                Q_EMIT configurationsFound(*loaded.value, title, memory);
            else
                Q_EMIT configurationSearchFailed(loaded.error);
        });
}

void SimulationController::answerAtBothEnds(const AnswerRequest& request) {
    if (m_answerCancel)
        *m_answerCancel = true; // its answer would be dropped: stop computing it
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_answerCancel = cancel;
    runThen(
        m_pool, this,
        [request, cancel] {
            lowerWorkerPriority();
            return loadCatching<AnswerAtBothEnds>([&] {
                SimulationHooks hooks;
                hooks.cancel = cancel.get();
                return runAtBothEnds(*request.prepared, request.run, request.baseline, hooks);
            });
        },
        [this, question = request.question, cancel](const Loaded<AnswerAtBothEnds>& loaded) {
            if (*cancel)
                return; // superseded: its runs stopped part way
            if (loaded.value)
                Q_EMIT answerFound(question, *loaded.value);
            else
                Q_EMIT answerFailed(question, loaded.error);
        });
}

} // namespace carbon3d::ui
