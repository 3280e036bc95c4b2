// SPDX-License-Identifier: MIT
// The ILP's answer must not depend on the machine's speed (issue 13, item 6). On the default scenario's
// 24-option menu, the largest program a bundled scenario builds, a run on a quiet machine and one with
// every core kept busy must give the same schedule to the last bit, and no solve may stop at the
// wall-clock safety net. A run with that net at 1 ms shows that the comparison can fail: the net is
// reached there, the schedule changes, and the warnings say why.
#include "config/ScenarioJson.h"
#include "runner/ScenarioRunner.h"

#include <QTest>
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace carbon3d;

namespace {

bool mentions(const RunResult& run, const char* text) {
    return std::any_of(run.warnings.begin(), run.warnings.end(),
                       [&](const std::string& warning) { return warning.find(text) != std::string::npos; });
}

// Keeps every core busy (twice over) while `work` runs on this thread.
template <typename Work> RunResult underLoad(Work work) {
    std::atomic<bool> stop{false};
    std::vector<std::thread> spinners;
    const unsigned count = 2 * std::max(1U, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < count; ++i)
        spinners.emplace_back([&stop] {
            volatile double sink = 1.0;
            while (!stop.load(std::memory_order_relaxed))
                sink = sink * 1.000001 + 1e-9;
        });
    RunResult result = work();
    stop = true;
    for (std::thread& spinner : spinners)
        spinner.join();
    return result;
}

} // namespace

class TstIlpUnderLoad : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameScheduleOnAQuietAndABusyMachine() {
        const PreparedScenario prepared =
            prepareScenario(loadScenario(CARBON3D_SOURCE_DIR "/sample_data/scenarios/default.json"));
        const RunResult quiet = runPolicy(prepared, PolicySpec{"ilp", {}});
        const RunResult busy = underLoad([&] { return runPolicy(prepared, PolicySpec{"ilp", {}}); });
        QVERIFY(!mentions(quiet, "time limit"));
        QVERIFY(!mentions(busy, "time limit"));
        // Exact: the same program, the same deterministic search, so the same arithmetic.
        QCOMPARE(busy.series.size(), quiet.series.size());
        for (std::size_t i = 0; i < quiet.series.size(); ++i)
            QCOMPARE(busy.series[i].gpusActive, quiet.series[i].gpusActive);
        QCOMPARE(busy.metrics.totalG, quiet.metrics.totalG);

        const RunResult cut = runPolicy(prepared, PolicySpec{"ilp", {{"time_limit_ms", "1"}}});
        QVERIFY(mentions(cut, "time limit of 1 ms"));
        QVERIFY(cut.metrics.totalG != quiet.metrics.totalG);
    }
};

QTEST_GUILESS_MAIN(TstIlpUnderLoad)
#include "tst_ilpunderload.moc"
