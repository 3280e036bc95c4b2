// SPDX-License-Identifier: MIT
#include "workers/ResultsStoreWorker.h"

#include "config/ScenarioHash.h"
#include "domain/InputError.h"
#include "storage/ResultsStore.h"

#include <QDateTime>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>

namespace carbon3d::ui {

struct ResultsStoreWorker::State {
    std::unique_ptr<ResultsStore> store; // created, used and destroyed on the worker thread only
};

ResultsStoreWorker::ResultsStoreWorker(QObject* parent)
    : QObject(parent)
    , m_state(std::make_shared<State>()) {
    qRegisterMetaType<std::vector<RunSummary>>();
    qRegisterMetaType<std::vector<StoredRun>>();
    qRegisterMetaType<std::vector<RunComparison>>();
    m_thread.setMaxThreadCount(1);
    m_thread.setExpiryTimeout(-1);
}

ResultsStoreWorker::~ResultsStoreWorker() {
    // Close the connection on its own thread, then wait for it.
    auto state = m_state;
    m_thread.start([state] { state->store.reset(); });
    m_thread.waitForDone();
}

// Runs `work(store)` on the worker thread; an InputError (bad file, busy database, unknown id) becomes
// failed(message) on the GUI thread. `work` returns a callable that is invoked back on the GUI thread.
template <typename Work> void ResultsStoreWorker::post(Work work) {
    auto state = m_state;
    QPointer<ResultsStoreWorker> self(this);
    m_thread.start([state, self, work = std::move(work)]() mutable {
        try {
            if (!state->store)
                throw InputError({}, 0, 0, "no results database is open");
            auto deliver = work(*state->store);
            QMetaObject::invokeMethod(
                self.data(),
                [self, deliver = std::move(deliver)]() mutable {
                    if (self)
                        deliver(*self);
                },
                Qt::QueuedConnection);
        } catch (const std::exception& error) {
            const QString message = QString::fromStdString(error.what());
            QMetaObject::invokeMethod(
                self.data(),
                [self, message] {
                    if (self)
                        Q_EMIT self->failed(message);
                },
                Qt::QueuedConnection);
        }
    });
}

bool ResultsStoreWorker::isDatabaseFile(const QString& file) const {
    if (m_path.isEmpty())
        return false;
    // canonicalFilePath resolves links without opening the file (it is empty for a missing file).
    const QString candidate = QFileInfo(file).canonicalFilePath();
    const QString database = QFileInfo(m_path).canonicalFilePath();
    if (candidate.isEmpty() || database.isEmpty())
        return false;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        if (candidate == database + QLatin1String(suffix))
            return true;
    }
    return false;
}

QString ResultsStoreWorker::freshDatabasePath() const {
    return QFileInfo(m_path).absolutePath() +
           QStringLiteral("/results-%1.sqlite")
               .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

void ResultsStoreWorker::open(const QString& path) {
    m_path = path;
    auto state = m_state;
    QPointer<ResultsStoreWorker> self(this);
    m_thread.start([state, self, path] {
        bool ok = true;
        QString message;
        try {
            state->store.reset();
            // A database the user cannot write (a colleague's, a read-only mount) still opens for browsing
            // and comparing; saving then says why it cannot.
            ResultsStore::OpenOptions options;
            options.access = ResultsStore::Access::ReadOnlyWhenUnwritable;
            state->store = std::make_unique<ResultsStore>(path.toStdString(), options);
            const std::string& readOnly = state->store->readOnlyReason();
            message = readOnly.empty() ? QObject::tr("Results database: %1").arg(path)
                                       : QObject::tr("Results database (read-only: %1): %2")
                                             .arg(QString::fromStdString(readOnly), path);
        } catch (const std::exception& error) {
            ok = false;
            message = QString::fromStdString(error.what());
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, ok, message] {
                if (self)
                    Q_EMIT self->opened(ok, message);
            },
            Qt::QueuedConnection);
    });
}

void ResultsStoreWorker::saveRuns(const StoredScenario& scenario, const std::vector<RunResult>& runs,
                                  const std::vector<StoredTrace>& traces) {
    post([scenario, runs, traces](ResultsStore& store) {
        std::vector<RunId> ids;
        for (const RunResult& run : runs)
            ids.push_back(store.saveRun(scenario, run, traces));
        return [ids](ResultsStoreWorker& worker) { Q_EMIT worker.saved(ids); };
    });
}

void ResultsStoreWorker::saveRuns(const Scenario& scenario, const std::vector<RunResult>& runs) {
    post([scenario, runs](ResultsStore& store) {
        const StoredScenario stored{scenario.name, canonicalJson(scenario), scenarioHash(scenario)};
        const std::vector<StoredTrace> traces = storedTracesOf(scenario);
        std::vector<RunId> ids;
        for (const RunResult& run : runs)
            ids.push_back(store.saveRun(stored, run, traces));
        return [ids](ResultsStoreWorker& worker) { Q_EMIT worker.saved(ids); };
    });
}

void ResultsStoreWorker::listRuns() {
    post([](ResultsStore& store) {
        auto runs = store.listRuns();
        return [runs = std::move(runs)](ResultsStoreWorker& worker) { Q_EMIT worker.listed(runs); };
    });
}

void ResultsStoreWorker::compareRuns(const std::vector<RunId>& ids, RunId baseline) {
    post([ids, baseline](ResultsStore& store) {
        std::vector<StoredRun> runs;
        for (const RunId id : ids)
            runs.push_back(store.loadRun(id));
        auto rows = store.compareRuns(ids, baseline);
        return [runs = std::move(runs), rows = std::move(rows)](ResultsStoreWorker& worker) {
            Q_EMIT worker.compared(runs, rows);
        };
    });
}

void ResultsStoreWorker::renameRun(RunId id, const QString& name) {
    post([id, name = name.toStdString()](ResultsStore& store) {
        store.renameRun(id, name);
        auto runs = store.listRuns();
        return [runs = std::move(runs)](ResultsStoreWorker& worker) { Q_EMIT worker.listed(runs); };
    });
}

void ResultsStoreWorker::deleteRun(RunId id) {
    post([id](ResultsStore& store) {
        store.deleteRun(id);
        auto runs = store.listRuns();
        return [runs = std::move(runs)](ResultsStoreWorker& worker) { Q_EMIT worker.listed(runs); };
    });
}

} // namespace carbon3d::ui
