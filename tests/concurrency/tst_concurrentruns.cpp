// SPDX-License-Identifier: MIT
// The core's concurrency claims, on std::threads (no Qt threading involved), run in the sanitized build
// and under ThreadSanitizer by scripts/tsan:
// - runPolicy is thread-safe: threads running policies on one PreparedScenario (only read) get exactly
//   what a serial run gets; this covers the ILP's GLPK mutex and the oracle's planner.
// - ResultsStore: one store per thread on the same file (SQLite connections are not shared); every save
//   of every thread is there afterwards.
#include "StorageSamples.h"
#include "config/ScenarioJson.h"
#include "runner/ScenarioRunner.h"
#include "storage/ResultsStore.h"

#include <QTemporaryDir>
#include <QTest>
#include <thread>

using namespace carbon3d;

namespace {

const std::vector<std::string> kPolicies{
    "static-max",   "suspend-resume",           "dynamic-3d", "oracle", "ilp",
    "carbonscaler", "wait-awhile-interruptible"};

std::vector<double> totalsOf(const PreparedScenario& prepared) {
    std::vector<double> totals;
    totals.reserve(std::size(kPolicies));
    for (const std::string& policy : kPolicies)
        totals.push_back(runPolicy(prepared, PolicySpec{policy, {}}).metrics.totalG);
    return totals;
}

} // namespace

class TstConcurrentRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void policiesOnThreadsMatchASerialRun() {
        const PreparedScenario prepared = prepareScenario(
            loadScenario(CARBON3D_SOURCE_DIR "/sample_data/scenarios/learn-clean-hydro-sweden.json"));
        const std::vector<double> serial = totalsOf(prepared);
        constexpr int kThreads = 4;
        std::vector<std::vector<double>> parallel(kThreads);
        std::vector<std::thread> threads;
        threads.reserve(kThreads);
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] { parallel[static_cast<std::size_t>(t)] = totalsOf(prepared); });
        for (std::thread& thread : threads)
            thread.join();
        for (const std::vector<double>& totals : parallel)
            QCOMPARE(totals, serial); // exact: the same inputs, the same arithmetic, nothing shared written
    }

    void oneStorePerThreadOnOneFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("results.sqlite")).toStdString();
        ResultsStore(path).listRuns(); // created once, so the threads do not race to create the schema
        constexpr int kThreads = 3;
        constexpr int kRunsEach = 8;
        std::vector<std::thread> threads;
        threads.reserve(kThreads);
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                ResultsStore store(path);
                for (int i = 0; i < kRunsEach; ++i)
                    store.saveRun(test::sampleScenario("thread " + std::to_string(t)),
                                  test::sampleRun(24, static_cast<std::uint64_t>(t) * 100 +
                                                          static_cast<std::uint64_t>(i)),
                                  test::sampleTraces());
            });
        }
        for (std::thread& thread : threads)
            thread.join();
        QCOMPARE(ResultsStore(path).listRuns().size(), std::size_t(kThreads * kRunsEach));
    }
};

QTEST_GUILESS_MAIN(TstConcurrentRuns)
#include "tst_concurrentruns.moc"
