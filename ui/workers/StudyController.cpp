// SPDX-License-Identifier: MIT
#include "workers/StudyController.h"

#include "domain/InputError.h"
#include "study/StudyCells.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"
#include "workers/BackgroundLoads.h"
#include "workers/PoolTask.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <chrono>
#include <condition_variable>
#include <set>
#include <thread>

namespace carbon3d::ui {

struct StudyController::Shared {
    // How far the study is: copied whole by the GUI thread at each poll.
    struct Progress {
        std::size_t done = 0;
        std::size_t total = 0;
        bool over = false;
        bool cancelled = false;
        QString error;
    };
    std::mutex mutex;
    std::condition_variable saved; // signalled when cells are saved, and on cancel
    std::atomic<bool> cancel{false};
    bool saving = false;     // the caller saves the cells and answers cellsSaved()
    std::size_t unsaved = 0; // under the mutex: cells computed and not yet saved
    // Under the mutex: cells finished and not yet handed to the GUI thread, and the progress.
    std::vector<StoredCell> cells;
    std::vector<StudyRow> rows;
    Progress progress;
};

namespace {

// Times one cell of each policy (the first of its start, region and other values) and scales by the cells
// each policy has, over the threads: the estimate a user sees before starting. Cells differ, so it is a
// first guess; the page then shows the time left from the measured rate.
double estimateSeconds(const StudyDefinition& study) {
    std::size_t policyAxis = study.axes.size();
    for (std::size_t a = 0; a < study.axes.size(); ++a)
        if (study.axes[a].key == "policy")
            policyAxis = a;
    const std::size_t cells = cellCount(study);
    if (policyAxis == study.axes.size() || cells == 0)
        return 0.0;
    const std::size_t policies = study.axes[policyAxis].values.size();
    std::size_t stride = 1; // cells between two policies of the same other values
    for (std::size_t a = policyAxis + 1; a < study.axes.size(); ++a)
        stride *= study.axes[a].values.size();
    double perRound = 0.0;
    for (std::size_t p = 0; p < policies; ++p) {
        const auto begin = std::chrono::steady_clock::now();
        runStudyCell(study, cellAt(study, p * stride), false);
        perRound += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    }
    const double threads = std::max(1U, std::thread::hardware_concurrency());
    // Every round runs one cell per policy, so cells is a whole number of rounds.
    return perRound * (static_cast<double>(cells) / static_cast<double>(policies)) / threads;
}

} // namespace

StudyController::StudyController(QString bundledTraceDirectory, QObject* parent)
    : QObject(parent)
    , m_traces(std::move(bundledTraceDirectory)) {
    qRegisterMetaType<std::vector<StoredCell>>();
    qRegisterMetaType<std::vector<StudyRow>>();
    m_pool.setMaxThreadCount(2); // the study itself, and opening one cell while it runs
    m_poll.setInterval(250);
    connect(&m_poll, &QTimer::timeout, this, &StudyController::drain);
}

StudyController::~StudyController() {
    cancel();
    m_pool.waitForDone();
}

void StudyController::load(const QString& studyFile, bool estimate) {
    runThen(
        m_pool, this,
        [file = studyFile.toStdString(), traces = m_traces.toStdString(), estimate] {
            return loadCatching<LoadedStudy>([&] {
                auto study = std::make_shared<const StudyDefinition>(loadStudy(file, traces));
                return LoadedStudy{study, estimate ? estimateSeconds(*study) : 0.0, estimate};
            });
        },
        [this](const Loaded<LoadedStudy>& result) { deliverLoaded(result); });
}

void StudyController::loadNew(const QString& studyFile, const QString& json) {
    runThen(
        m_pool, this,
        [file = studyFile, text = json.toUtf8(), traces = m_traces.toStdString()] {
            return loadCatching<LoadedStudy>([&] {
                QDir().mkpath(QFileInfo(file).absolutePath());
                QSaveFile out(file);
                if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size() || !out.commit())
                    throw InputError(file.toStdString(), 0, 0,
                                     "cannot write the study: " + out.errorString().toStdString());
                auto study = std::make_shared<const StudyDefinition>(loadStudy(file.toStdString(), traces));
                return LoadedStudy{study, estimateSeconds(*study), true};
            });
        },
        [this](const Loaded<LoadedStudy>& result) { deliverLoaded(result); });
}

void StudyController::deliverLoaded(const Loaded<LoadedStudy>& result) {
    if (!result.value) {
        Q_EMIT failed(result.error);
        return;
    }
    m_study = result.value->study;
    Q_EMIT loaded(static_cast<int>(cellCount(*m_study)), result.value->estimatedSeconds,
                  result.value->estimated);
}

void StudyController::run(const std::vector<std::int64_t>& skip, bool saving) {
    if (m_running || !m_study)
        return;
    m_running = true;
    m_shared = std::make_shared<Shared>();
    m_shared->saving = saving;
    m_poll.start();
    startOnPool(m_pool, [shared = m_shared, study = m_study,
                         skipped = std::set<std::int64_t>(skip.begin(), skip.end())] {
        StudyRunOptions options;
        options.cancel = &shared->cancel;
        options.skip = [&skipped](std::size_t index) {
            return skipped.count(static_cast<std::int64_t>(index)) > 0;
        };
        options.onCell = [&](CellResult&& result) {
            StoredCell cell = storedCellOf(*study, result);
            StudyRow row = studyRowOf(*study, result);
            std::unique_lock<std::mutex> lock(shared->mutex);
            // Waits while too many cells are unsaved (a cancel, a failed save's answer, ends the wait).
            shared->saved.wait(lock, [&] {
                return !shared->saving || shared->unsaved < kMostUnsavedStudyCells || shared->cancel.load();
            });
            shared->unsaved += shared->saving ? 1 : 0;
            shared->cells.push_back(std::move(cell));
            shared->rows.push_back(std::move(row));
        };
        options.onProgress = [&](std::size_t done, std::size_t total) {
            const std::lock_guard<std::mutex> lock(shared->mutex);
            shared->progress.done = done;
            shared->progress.total = total;
        };
        QString error;
        bool cancelled = false;
        try {
            cancelled = runStudy(*study, options).cancelled;
        } catch (const std::exception& problem) {
            error = QString::fromUtf8(problem.what());
        }
        const std::lock_guard<std::mutex> lock(shared->mutex);
        shared->progress.over = true;
        shared->progress.cancelled = cancelled;
        shared->progress.error = error;
    });
}

void StudyController::drain() {
    if (!m_shared)
        return;
    std::vector<StoredCell> cells;
    std::vector<StudyRow> rows;
    Shared::Progress progress;
    {
        const std::lock_guard<std::mutex> lock(m_shared->mutex);
        cells.swap(m_shared->cells);
        rows.swap(m_shared->rows);
        progress = m_shared->progress;
    }
    if (!cells.empty())
        Q_EMIT cellsFinished(cells, rows);
    Q_EMIT progressChanged(static_cast<int>(progress.done), static_cast<int>(progress.total));
    if (!progress.over)
        return;
    m_poll.stop();
    m_running = false;
    m_shared.reset();
    if (!progress.error.isEmpty())
        Q_EMIT failed(progress.error);
    Q_EMIT finished(progress.cancelled);
}

void StudyController::cancel() {
    if (!m_shared)
        return;
    {
        const std::lock_guard<std::mutex> lock(m_shared->mutex);
        m_shared->cancel.store(true);
    }
    m_shared->saved.notify_all();
}

void StudyController::cellsSaved(std::size_t count) {
    if (!m_shared)
        return;
    {
        const std::lock_guard<std::mutex> lock(m_shared->mutex);
        m_shared->unsaved -= std::min(count, m_shared->unsaved);
    }
    m_shared->saved.notify_all();
}

void StudyController::openCell(std::size_t index, const std::string& baselinePolicy) {
    if (!m_study || index >= cellCount(*m_study)) {
        // Said, not dropped: the page said it is simulating the cell.
        Q_EMIT failed(tr("Cell %1 cannot be opened: the study it belongs to is not loaded (its file may "
                         "have moved).")
                          .arg(index));
        return;
    }
    runThen(
        m_pool, this,
        [study = m_study, index, baselinePolicy] {
            return loadCatching<SimulationOutcome>([&] {
                OpenedCell opened = openStudyCell(*study, index, baselinePolicy);
                SimulationOutcome outcome;
                outcome.prepared = std::move(opened.prepared);
                outcome.runs = std::move(opened.runs);
                outcome.askedFor = std::move(opened.policies);
                return outcome;
            });
        },
        [this](const Loaded<SimulationOutcome>& opened) {
            if (!opened.value) {
                Q_EMIT failed(opened.error);
                return;
            }
            Q_EMIT cellOpened(*opened.value);
        });
}

} // namespace carbon3d::ui
