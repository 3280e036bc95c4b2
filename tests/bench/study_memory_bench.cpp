// SPDX-License-Identifier: MIT
// Peak memory and time of the commands that read a whole study (issue 44 item 4), at 10^4, 10^5 and 10^6
// cells: `study export`, `runs merge` of the study into a new database, and `plot --kind study-heatmap` of
// all of it and of one region and slack (--filter). Each runs as the real carbon3d-cli in a child process,
// whose peak resident size the parent takes from wait4(); the baseline is the same program answering
// `--version` in the same run, so `over_baseline_mb` is what reading the study costs and `kb_per_cell` that
// cost per cell.
//
// The study database: SyntheticStudy.h.
#include "SyntheticStudy.h"
#include "domain/FileIdentity.h"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace carbon3d;
using carbon3d::bench::syntheticStudyDatabase;

namespace {

const std::string kSource = CARBON3D_SOURCE_DIR;
const std::string kCli = CARBON3D_CLI;

std::string scratch(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("carbon3d-study-memory-" + name)).string();
}

std::string studyDatabase(std::int64_t cells) {
    return syntheticStudyDatabase(kSource, cells);
}

struct ChildUse {
    double peakMiB = 0.0;
    double seconds = 0.0;
};

// Runs carbon3d-cli with `arguments`, output discarded; its peak resident size and wall time.
ChildUse runCli(const std::vector<std::string>& arguments) {
    const auto began = std::chrono::steady_clock::now();
    const pid_t child = fork();
    if (child == 0) {
        std::vector<char*> argv{const_cast<char*>(kCli.c_str())}; // NOLINT: execv's signature
        for (const std::string& argument : arguments)
            argv.push_back(const_cast<char*>(argument.c_str())); // NOLINT: as above
        argv.push_back(nullptr);
        if (std::freopen("/dev/null", "w", stdout) == nullptr)
            _exit(126);
        execv(kCli.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (child < 0 || wait4(child, &status, 0, &usage) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        throw std::runtime_error("carbon3d-cli failed: " + arguments.front() + " " + arguments.at(1));
    return {static_cast<double>(usage.ru_maxrss) / 1024.0,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count()};
}

void measure(benchmark::State& state,
             const std::function<std::vector<std::string>(const std::string&)>& command) {
    const std::int64_t cells = state.range(0);
    const std::string db = studyDatabase(cells);
    ChildUse baseline;
    ChildUse use;
    for (auto _ : state) {
        baseline = runCli({"--version"});
        use = runCli(command(db));
    }
    state.counters["cells"] = static_cast<double>(cells);
    state.counters["peak_mb"] = use.peakMiB;
    state.counters["over_baseline_mb"] = use.peakMiB - baseline.peakMiB;
    state.counters["kb_per_cell"] = (use.peakMiB - baseline.peakMiB) * 1024.0 / static_cast<double>(cells);
    state.counters["wall_s"] = use.seconds;
}

void BM_StudyExport(benchmark::State& state) {
    const std::string csv = scratch("export.csv");
    measure(state, [&csv](const std::string& db) {
        return std::vector<std::string>{"study", "export", "1", "--db", db, "--csv", csv};
    });
    std::filesystem::remove(csv);
}

// A database and the files SQLite keeps beside it.
void removeDatabase(const std::string& path) {
    std::filesystem::remove(path);
    for (const char* suffix : kDatabaseCompanionSuffixes)
        std::filesystem::remove(path + suffix);
}

void BM_RunsMerge(benchmark::State& state) {
    const std::string into = scratch("merged.sqlite");
    measure(state, [&into](const std::string& db) {
        removeDatabase(into); // a new database each time
        return std::vector<std::string>{"runs", "merge", db, "--into", into};
    });
    removeDatabase(into);
}

void BM_PlotHeatmapAll(benchmark::State& state) {
    const std::string png = scratch("heatmap.png");
    measure(state, [&png](const std::string& db) {
        return std::vector<std::string>{"plot", "1", "--kind", "study-heatmap", "--db", db, "--out", png};
    });
    std::filesystem::remove(png);
}

void BM_PlotHeatmapFiltered(benchmark::State& state) {
    const std::string png = scratch("heatmap-de.png");
    measure(state, [&png](const std::string& db) {
        return std::vector<std::string>{"plot",  "1", "--kind",   "study-heatmap", "--db",     db,
                                        "--out", png, "--filter", "region=DE",     "--filter", "slack=1"};
    });
    std::filesystem::remove(png);
}

} // namespace

// One iteration each: a child's peak is what it is, and the 10^6 cases take tens of seconds.
BENCHMARK(BM_StudyExport)->Arg(10000)->Arg(100000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_RunsMerge)->Arg(10000)->Arg(100000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_PlotHeatmapAll)->Arg(10000)->Arg(100000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_PlotHeatmapFiltered)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
