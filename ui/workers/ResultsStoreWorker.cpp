// SPDX-License-Identifier: MIT
#include "workers/ResultsStoreWorker.h"

#include "config/ScenarioHash.h"
#include "domain/FileIdentity.h"
#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "storage/ResultsStore.h"
#include "study/StudyStoreReading.h"
#include "workers/PoolTask.h"

#include <QDateTime>
#include <QFileInfo>
#include <functional>
#include <utility>

namespace carbon3d::ui {

// What the last study view read and keeps for the next choice of the same study: its stored rows (the
// baseline's totals read) and the values and CDF no choice changes. Stale once the study has more cells.
struct StudyViewCache {
    std::unique_ptr<StoredStudyRows> rows; // reads `store`: dropped before the store is
    StudyView overview;
    bool serves(const StoredStudy& study, const std::string& baseline) const {
        return rows->study().id == study.id && rows->study().savedCells == study.savedCells &&
               rows->header().baselinePolicy == baseline;
    }
};

struct ResultsStoreWorker::State {
    std::unique_ptr<ResultsStore> store; // created, used and destroyed on the worker thread only
    // Declared after the store, so destroyed before it; open() and the destructor reset it first too.
    std::unique_ptr<StudyViewCache> viewCache;
};

ResultsStoreWorker::ResultsStoreWorker(QObject* parent)
    : QObject(parent)
    , m_state(std::make_shared<State>()) {
    qRegisterMetaType<std::vector<RunSummary>>();
    qRegisterMetaType<std::vector<StoredRun>>();
    qRegisterMetaType<std::vector<RunComparison>>();
    qRegisterMetaType<std::vector<StoredStudy>>();
    qRegisterMetaType<StoredStudy>();
    qRegisterMetaType<StudyView>();
    m_thread.setMaxThreadCount(1);
    m_thread.setExpiryTimeout(-1);
}

ResultsStoreWorker::~ResultsStoreWorker() {
    // Close the connection on its own thread, then wait for it.
    auto state = m_state;
    startOnPool(m_thread, [state] {
        state->viewCache.reset();
        state->store.reset();
    });
    m_thread.waitForDone();
}

// Runs `work(store)` on the worker thread; an InputError (bad file, busy database, unknown id) becomes
// failed(message) on the GUI thread. `work` returns a callable that is invoked back on the GUI thread.
template <typename Work> void ResultsStoreWorker::post(Work work) {
    using Delivery = std::function<void(ResultsStoreWorker&)>;
    runThen(
        m_thread, this,
        [state = m_state, work = std::move(work)]() mutable -> Delivery {
            try {
                if (!state->store)
                    throw InputError({}, 0, 0, "no results database is open");
                return work(*state->store);
            } catch (const std::exception& error) {
                return [message = QString::fromStdString(error.what())](ResultsStoreWorker& worker) {
                    Q_EMIT worker.failed(message);
                };
            }
        },
        [this](const Delivery& deliver) { deliver(*this); });
}

bool ResultsStoreWorker::isDatabaseFile(const QString& file) const {
    if (m_path.isEmpty())
        return false;
    // By device and inode: a hard link to the database is the database too (POSIX locks are per inode and
    // per process, so reading it through any name and closing it would release the studio's locks).
    return isDatabaseOrCompanion(file.toStdString(), m_path.toStdString());
}

QString ResultsStoreWorker::freshDatabasePath() const {
    return QFileInfo(m_path).absolutePath() +
           QStringLiteral("/results-%1.sqlite")
               .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

void ResultsStoreWorker::open(const QString& path) {
    m_path = path;
    runThen(
        m_thread, this,
        [state = m_state, path] {
            try {
                state->viewCache.reset();
                state->store.reset();
                // A database the user cannot write (a colleague's, a read-only mount) still opens for
                // browsing and comparing; saving then says why it cannot.
                ResultsStore::OpenOptions options;
                options.access = ResultsStore::Access::ReadOnlyWhenUnwritable;
                state->store = std::make_unique<ResultsStore>(path.toStdString(), options);
                const std::string& readOnly = state->store->readOnlyReason();
                return std::pair{true, readOnly.empty() ? QObject::tr("Results database: %1").arg(path)
                                                        : QObject::tr("Results database (read-only: %1): %2")
                                                              .arg(QString::fromStdString(readOnly), path)};
            } catch (const std::exception& error) {
                return std::pair{false, QString::fromStdString(error.what())};
            }
        },
        [this](const std::pair<bool, QString>& outcome) { Q_EMIT opened(outcome.first, outcome.second); });
}

namespace {

// A batch as the studio saves it: each run named by what distinguishes it, and a run identical to one
// already stored (Run pressed twice) returns that run rather than a twin (docs/DATABASE.md).
std::vector<RunId> saveBatch(ResultsStore& store, const StoredScenario& scenario,
                             const std::vector<RunResult>& runs, const std::vector<StoredTrace>& traces) {
    std::vector<RunId> ids;
    SaveOptions options;
    options.reuseIdentical = true;
    for (const RunResult& run : runs) {
        options.name = runName(scenario.name, run);
        ids.push_back(store.saveRun(scenario, run, traces, options));
    }
    return ids;
}

} // namespace

void ResultsStoreWorker::saveRuns(const StoredScenario& scenario, const std::vector<RunResult>& runs,
                                  const std::vector<StoredTrace>& traces) {
    post([scenario, runs, traces](ResultsStore& store) {
        const std::vector<RunId> ids = saveBatch(store, scenario, runs, traces);
        return [ids](ResultsStoreWorker& worker) { Q_EMIT worker.saved(ids); };
    });
}

void ResultsStoreWorker::saveRuns(const Scenario& scenario, const std::vector<RunResult>& runs) {
    post([scenario, runs](ResultsStore& store) {
        const StoredScenario stored{scenario.name, canonicalJson(scenario), scenarioHash(scenario)};
        const std::vector<RunId> ids = saveBatch(store, stored, runs, storedTracesOf(scenario));
        return [ids](ResultsStoreWorker& worker) { Q_EMIT worker.saved(ids); };
    });
}

void ResultsStoreWorker::listRuns() {
    post([](ResultsStore& store) {
        auto runs = store.listRuns();
        return [runs = std::move(runs)](ResultsStoreWorker& worker) { Q_EMIT worker.listed(runs); };
    });
}

void ResultsStoreWorker::registerStudy(const StoredStudy& study) {
    post([study](ResultsStore& store) {
        const StudyId id = store.registerStudy(study);
        auto saved = store.savedCellIndexes(id);
        return [id, saved = std::move(saved)](ResultsStoreWorker& worker) {
            Q_EMIT worker.studyRegistered(id, saved);
        };
    });
}

void ResultsStoreWorker::saveStudyCells(StudyId id, const std::vector<StoredCell>& cells) {
    post([id, cells](ResultsStore& store) -> std::function<void(ResultsStoreWorker&)> {
        try {
            store.saveCells(id, cells);
        } catch (const std::exception& error) {
            return [message = QString::fromStdString(error.what())](ResultsStoreWorker& worker) {
                Q_EMIT worker.studyCellsFailed(message);
            };
        }
        return [count = static_cast<int>(cells.size())](ResultsStoreWorker& worker) {
            Q_EMIT worker.studyCellsSaved(count);
        };
    });
}

void ResultsStoreWorker::listStudies() {
    post([](ResultsStore& store) {
        auto studies = store.listStudies();
        return [studies = std::move(studies)](ResultsStoreWorker& worker) {
            Q_EMIT worker.studiesListed(studies);
        };
    });
}

void ResultsStoreWorker::loadStudyView(StudyId id, const QString& baselinePolicy,
                                       const StudyViewChoice& choice, int request) {
    m_newestView->store(request);
    post([id, baseline = baselinePolicy.toStdString(), choice, request, newest = m_newestView,
          state = m_state](ResultsStore& store) -> std::function<void(ResultsStoreWorker&)> {
        if (newest->load() != request)
            return [](ResultsStoreWorker&) {};
        StoredStudy study = store.loadStudy(id);
        std::unique_ptr<StudyViewCache>& cache = state->viewCache;
        if (!cache || !cache->serves(study, baseline)) {
            cache.reset(); // its rows go before new ones read the store
            auto rows = std::make_unique<StoredStudyRows>(store, study, baseline);
            StudyView overview = studyOverview(*rows);
            cache = std::make_unique<StudyViewCache>(StudyViewCache{std::move(rows), std::move(overview)});
        }
        StudyView view = cache->overview;
        chooseAndDrawHeatmap(view, *cache->rows, choice);
        return [study = std::move(study), view = std::move(view), request](ResultsStoreWorker& worker) {
            Q_EMIT worker.studyViewLoaded(study, view, request);
        };
    });
}

void ResultsStoreWorker::compareRuns(const std::vector<RunId>& ids, const ComparisonBaseline& baseline) {
    post([ids, baseline](ResultsStore& store) {
        std::vector<StoredRun> runs;
        runs.reserve(ids.size());
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
