// SPDX-License-Identifier: MIT
// The studio reopening a saved study of 10^4, 10^5 and 10^6 cells (issue 44 item 4: under 500 MB, its GUI
// thread never blocked more than 50 ms). A child process makes the real main window offscreen on the
// study's database, waits until the data folder's scan and the store's opening are done, then opens the
// study from the Study page's list as a click does, waits for its figures, and switches the heatmap's
// policy and waits again. All the while a 1 ms timer on the GUI thread records the longest gap between its
// ticks: the longest the GUI thread was busy. The parent takes the child's peak resident size from wait4();
// the baseline, in the same run, is the same window opened on the database without opening the study.
#include "MainWindow.h"
#include "SyntheticStudy.h"
#include "pages/StudyPage.h"
#include "workers/ResultsStoreWorker.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace carbon3d;

namespace {

const std::string kSource = CARBON3D_SOURCE_DIR;

struct StudioUse {
    double peakMiB = 0.0;
    double longestStallMs = 0.0; // while the study opened and the policy switched
    double openSeconds = 0.0;    // from the click to the figures
    double switchSeconds = 0.0;  // from the policy switch to its heatmap
};

// Runs the event loop until `done` says so (checked on every event-loop turn of the 1 ms timer), recording
// the longest gap between ticks in `stallMs`. Throws after `seconds`.
void runUntil(const std::function<bool()>& done, double& stallMs, double seconds) {
    QEventLoop loop;
    QElapsedTimer sinceTick;
    QElapsedTimer total;
    QTimer tick;
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        stallMs = std::max(stallMs, static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
        if (done() || total.elapsed() > seconds * 1000)
            loop.quit();
    });
    sinceTick.start();
    total.start();
    tick.start();
    loop.exec();
    if (!done())
        throw std::runtime_error("timed out");
}

// In the child: the window, then (when `openStudy`) the study and a policy switch. Writes the measures.
void studioChild(const std::string& db, bool openStudy, int fd) {
    int argc = 1;
    char name[] = "bench_studio_study";
    char* argv[] = {name, nullptr};
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ui::MainWindow window(QString::fromStdString(kSource + "/sample_data"),
                          QString::fromStdString(kSource + "/docs"), QString::fromStdString(db));
    window.show();
    ui::StudyPage* page = window.studyPage();
    double ignored = 0.0;
    runUntil([page] { return page->studiesBox()->count() > 0; }, ignored, 60); // listed: the store is open
    StudioUse use;
    if (openStudy) {
        int views = 0;
        QObject::connect(window.store(), &ui::ResultsStoreWorker::studyViewLoaded, &app,
                         [&views] { ++views; });
        const auto began = std::chrono::steady_clock::now();
        page->studiesBox()->setCurrentIndex(0);
        Q_EMIT page->studiesBox()->activated(0); // as a click on the list's entry
        runUntil([&] { return views >= 1 && page->view().rows > 0; }, use.longestStallMs, 600);
        const auto opened = std::chrono::steady_clock::now();
        use.openSeconds = std::chrono::duration<double>(opened - began).count();
        page->heatmapPolicyBox()->setCurrentIndex(2); // oracle
        runUntil([&] { return views >= 2 && page->view().policy == "oracle"; }, use.longestStallMs, 600);
        use.switchSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - opened).count();
    }
    if (write(fd, &use, sizeof(use)) != static_cast<ssize_t>(sizeof(use)))
        _exit(2);
}

StudioUse measureStudio(const std::string& db, bool openStudy) {
    int pipeEnds[2];
    if (pipe(pipeEnds) != 0)
        throw std::runtime_error("pipe");
    const pid_t child = fork();
    if (child == 0) {
        close(pipeEnds[0]);
        try {
            studioChild(db, openStudy, pipeEnds[1]);
        } catch (const std::exception& error) {
            std::fprintf(stderr, "%s\n", error.what());
            _exit(1);
        }
        _exit(0);
    }
    close(pipeEnds[1]);
    StudioUse use;
    const ssize_t got = read(pipeEnds[0], &use, sizeof(use));
    close(pipeEnds[0]);
    int status = 0;
    rusage usage{};
    if (child < 0 || wait4(child, &status, 0, &usage) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || got != static_cast<ssize_t>(sizeof(use)))
        throw std::runtime_error("the studio child failed");
    use.peakMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;
    return use;
}

void BM_StudioOpensSavedStudy(benchmark::State& state) {
    const std::int64_t cells = state.range(0);
    const std::string db = bench::syntheticStudyDatabase(kSource, cells);
    StudioUse baseline;
    StudioUse use;
    for (auto _ : state) {
        baseline = measureStudio(db, false);
        use = measureStudio(db, true);
    }
    state.counters["cells"] = static_cast<double>(cells);
    state.counters["peak_mb"] = use.peakMiB;
    state.counters["baseline_mb"] = baseline.peakMiB;
    state.counters["longest_gui_stall_ms"] = use.longestStallMs;
    state.counters["open_s"] = use.openSeconds;
    state.counters["policy_switch_s"] = use.switchSeconds;
}

} // namespace

BENCHMARK(BM_StudioOpensSavedStudy)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
