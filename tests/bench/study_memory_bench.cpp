// SPDX-License-Identifier: MIT
// Peak memory and time of the commands that read a whole study (issue 44 item 4), at 10^4, 10^5 and 10^6
// cells: `study export`, `runs merge` of the study into a new database, and `plot --kind study-heatmap` of
// all of it and of one region and slack (--filter). Each runs as the real carbon3d-cli in a child process,
// whose peak resident size the parent takes from wait4(); the baseline is the same program answering
// `--version` in the same run, so `over_baseline_mb` is what reading the study costs and `kb_per_cell` that
// cost per cell.
//
// The study database is synthetic in its axes and real in its numbers: start (one an hour from 2022), the 7
// bundled regions, slack 0.25 and 1, and three policies (static-max, dynamic-3d, oracle); each cell's
// metrics are those of a cell of the bundled small study (tests/data/studies/small.json), run once here, so
// rows are the size and shape a real study stores. It is written once per size into the temporary folder
// and reused by later runs (delete carbon3d-study-memory-*.sqlite there to rebuild it).
#include "domain/Time.h"
#include "storage/ResultsStore.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"

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

namespace {

const std::string kSource = CARBON3D_SOURCE_DIR;
const std::string kCli = CARBON3D_CLI;

std::string scratch(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("carbon3d-study-memory-" + name)).string();
}

// The metrics JSON of each policy (static-max, dynamic-3d, oracle) in each of the small study's 8 cells
// without the policy: real rows to repeat.
std::vector<std::string> realMetrics() {
    const StudyDefinition study =
        loadStudy(kSource + "/tests/data/studies/small.json", kSource + "/sample_data/traces");
    std::vector<std::string> metrics;
    for (std::size_t i = 0; i < cellCount(study); ++i) {
        const CellResult result = runStudyCell(study, cellAt(study, i), false);
        if (!result.feasible)
            throw std::runtime_error("a cell of the small study is infeasible");
        metrics.push_back(exactMetricsJson(result.run.metrics));
    }
    return metrics;
}

// The database of `cells` cells (rounded down to whole starts of 42 cells), written when missing.
std::string studyDatabase(std::int64_t cells) {
    const std::string path = scratch(std::to_string(cells) + ".sqlite");
    if (std::filesystem::exists(path))
        return path;
    const std::vector<std::string> metrics = realMetrics();
    const std::vector<std::string> regions{"CAISO", "DE", "ERCOT", "FR", "GB", "PJM", "SE"};
    const std::vector<std::string> slacks{"0.25", "1"};
    const std::vector<std::string> policies{"static-max", "dynamic-3d", "oracle"};
    const std::int64_t perStart = static_cast<std::int64_t>(regions.size() * slacks.size() * policies.size());
    const std::int64_t starts = cells / perStart;
    ResultsStore store(path + ".partial");
    StoredStudy study;
    study.name = "memory benchmark";
    study.hash = "memory-benchmark-" + std::to_string(cells);
    study.columns = {"start", "region", "slack", "policy"};
    study.cellCount = starts * perStart;
    const StudyId id = store.registerStudy(study);
    const UtcSeconds first = daysFromCivil(2022, 1, 1) * kSecondsPerDay;
    std::vector<StoredCell> batch;
    for (std::int64_t index = 0; index < study.cellCount; ++index) {
        std::int64_t rest = index;
        const auto policy = static_cast<std::size_t>(rest % 3);
        rest /= 3;
        const auto slack = static_cast<std::size_t>(rest % 2);
        rest /= 2;
        const auto region = static_cast<std::size_t>(rest % 7);
        const std::int64_t start = rest / 7;
        StoredCell cell;
        cell.index = index;
        cell.hash = "cell-" + std::to_string(index);
        cell.values = {formatIsoUtc(first + start * 3600), regions[region], slacks[slack], policies[policy]};
        cell.feasible = true;
        cell.metricsJson = metrics[static_cast<std::size_t>(index % 24)];
        batch.push_back(std::move(cell));
        if (batch.size() == 20000 || index + 1 == study.cellCount) {
            store.saveCells(id, batch);
            batch.clear();
        }
    }
    std::filesystem::rename(path + ".partial", path);
    return path;
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

void BM_RunsMerge(benchmark::State& state) {
    const std::string into = scratch("merged.sqlite");
    measure(state, [&into](const std::string& db) {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(into + suffix);
        return std::vector<std::string>{"runs", "merge", db, "--into", into};
    });
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(into + suffix);
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
