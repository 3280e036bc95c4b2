// SPDX-License-Identifier: MIT
// Peak memory of reading the largest input of each kind the program accepts (issue 40 item 5,
// docs/RELIABILITY.md): each file is written near its kind's limit in the densest real layout, then read by
// the real loader in a child process, whose peak resident size the parent takes from wait4(). The baseline is
// a child that reads nothing (what it inherits from this process), so `loader_mb` is what reading costs and
// `x_file` that cost per byte of the file.
#include "config/ClusterProfileJson.h"
#include "config/ModelSpecJson.h"
#include "config/OperatingPointsCsv.h"
#include "config/ScenarioJson.h"
#include "domain/Time.h"
#include "study/StudyDefinition.h"
#include "traces/TraceLoader.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace carbon3d;

namespace {

const std::string kSource = CARBON3D_SOURCE_DIR;
constexpr double kMiB = 1024.0 * 1024.0;

std::string scratch(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("carbon3d-memory-bench-" + name)).string();
}

// The file's text, written by `write`, at `path`.
void writeFile(const std::string& path, const std::function<void(std::ostream&)>& write) {
    std::ofstream out(path, std::ios::binary);
    write(out);
    if (!out)
        throw std::runtime_error("could not write " + path);
}

// The peak resident size of a child running `read`, MiB; throws when the child failed.
double childPeakMiB(const std::function<void()>& read) {
    const pid_t child = fork();
    if (child == 0) {
        try {
            read();
        } catch (const std::exception& error) {
            std::fprintf(stderr, "%s\n", error.what());
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    rusage usage{};
    if (child < 0 || wait4(child, &status, 0, &usage) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        throw std::runtime_error("the reading child failed");
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

void measure(benchmark::State& state, const std::string& path, const std::function<void()>& read) {
    double baseline = 0.0;
    double peak = 0.0;
    for (auto _ : state) {
        baseline = childPeakMiB([] {});
        peak = childPeakMiB(read);
    }
    const double fileMiB = static_cast<double>(std::filesystem::file_size(path)) / kMiB;
    state.counters["file_mb"] = fileMiB;
    state.counters["peak_mb"] = peak;
    state.counters["loader_mb"] = peak - baseline;
    state.counters["x_file"] = (peak - baseline) / fileMiB;
}

// A CSV of `timestamp,COLUMN` just under the 64 MiB trace limit: 5-minute rows from 2000 (about 23 years),
// values from `least` in `spread` steps.
void writeFiveMinuteRowsAtTheLimit(const std::string& path, const std::string& column, long least,
                                   long spread) {
    const UtcSeconds start = daysFromCivil(2000, 1, 1) * kSecondsPerDay;
    writeFile(path, [&](std::ostream& out) {
        out << "timestamp," << column << '\n';
        for (long k = 0; k < 2390000; ++k) // 28 bytes a row: 63.8 MiB
            out << formatIsoUtc(start + k * 300) << ',' << least + k % spread << ".25\n";
    });
}

// Canonical CSV just under the 64 MiB trace limit: 5-minute rows from 2000 (about 23 years).
void BM_TraceCsvAtTheLimit(benchmark::State& state) {
    const std::string path = scratch("trace.csv");
    writeFiveMinuteRowsAtTheLimit(path, "carbon_intensity_g_per_kwh", 100, 400);
    measure(state, path, [&path] { loadCarbonTrace(path); });
    std::filesystem::remove(path);
}

// UK Carbon Intensity JSON, compact as the API sends it, just under the JSON value cap: 299,000 half-hours
// (17 years) of 7 values each, 2.09 million values in about 32 MiB.
void BM_TraceUkJsonAtTheCap(benchmark::State& state) {
    const std::string path = scratch("trace.json");
    const UtcSeconds start = daysFromCivil(1990, 1, 1) * kSecondsPerDay;
    writeFile(path, [start](std::ostream& out) {
        const auto minute = [](UtcSeconds t) { return formatIsoUtc(t).substr(0, 16) + "Z"; };
        out << R"({"data":[)";
        for (long k = 0; k < 299000; ++k) {
            const UtcSeconds t = start + k * 1800;
            out << (k > 0 ? "," : "") << R"({"from":")" << minute(t) << R"(","to":")" << minute(t + 1800)
                << R"(","intensity":{"forecast":)" << 90 + k % 200 << R"(,"actual":)" << 91 + k % 200
                << R"(.5,"index":"low"}})";
        }
        out << "]}";
    });
    measure(state, path, [&path] { loadCarbonTrace(path); });
    std::filesystem::remove(path);
}

// A study whose start axis lists 100,000 starts (an axis's cap) one by one.
void BM_StudyAtTheAxisCap(benchmark::State& state) {
    const std::string path = scratch("study.json");
    const UtcSeconds start = daysFromCivil(2022, 1, 1) * kSecondsPerDay;
    writeFile(path, [start](std::ostream& out) {
        out << R"({"schema": 1, "name": "starts", "base": ")" << kSource
            << R"(/sample_data/scenarios/default.json", "axes": {"start": [)";
        for (long k = 0; k < 100000; ++k)
            out << (k > 0 ? "," : "") << '"' << formatIsoUtc(start + k * 180) << '"';
        out << "]}}";
    });
    measure(state, path, [&path] { loadStudy(path, kSource + "/sample_data/traces"); });
    std::filesystem::remove(path);
}

// A bundled configuration file grown to the 16 MiB limit of a configuration file: the string after `key`
// holds almost all of it. `edit` may change the text first.
std::string configurationAtTheLimit(const std::string& bundled, const std::string& name,
                                    const std::string& key,
                                    const std::function<void(std::string&)>& edit = {}) {
    const std::string path = scratch(name);
    std::string text;
    {
        std::ifstream in(kSource + "/sample_data/" + bundled);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (edit)
        edit(text);
    text.insert(text.find(key) + key.size(), std::string(16LL * 1024 * 1024 - text.size() - 64, 'x'));
    writeFile(path, [&text](std::ostream& out) { out << text; });
    return path;
}

// The default scenario, its description holding almost all of it (its trace by absolute path, so that it
// reads from the scratch folder).
void BM_ScenarioAtTheLimit(benchmark::State& state) {
    const std::string path = configurationAtTheLimit(
        "scenarios/default.json", "scenario.json", "\"description\": \"", [](std::string& text) {
            const std::string traces = "\"../traces/";
            text.replace(text.find(traces), traces.size(), "\"" + kSource + "/sample_data/traces/");
        });
    measure(state, path, [&path] { loadScenario(path); });
    std::filesystem::remove(path);
}

// GPT-3 175B's model file, its source holding almost all of it.
void BM_ModelAtTheLimit(benchmark::State& state) {
    const std::string path = configurationAtTheLimit("models/gpt3-175b.json", "model.json", "\"source\": \"");
    measure(state, path, [&path] { loadModelSpec(path); });
    std::filesystem::remove(path);
}

// The DGX A100 80GB cluster file, one of its sources holding almost all of it.
void BM_ClusterAtTheLimit(benchmark::State& state) {
    const std::string path =
        configurationAtTheLimit("clusters/dgx-a100-80gb.json", "cluster.json", "\"gpus_per_node\": \"");
    measure(state, path, [&path] { loadClusterProfile(path); });
    std::filesystem::remove(path);
}

// Measured operating points near the configuration limit: 800,000 power-limit rows (every milliwatt from
// 100 W), about 20 bytes each.
void BM_OperatingPointsAtTheLimit(benchmark::State& state) {
    const std::string path = scratch("points.csv");
    writeFile(path, [](std::ostream& out) {
        out << "power_limit_w,throughput,power_w\n";
        for (long k = 0; k < 800000; ++k)
            out << 100 + k / 1000 << '.' << std::setw(3) << std::setfill('0') << k % 1000 << std::setw(0)
                << ",1" << 1000 + k % 9000 << ",2" << k % 100 << ".5\n";
    });
    measure(state, path, [&path] { loadOperatingPoints(path); });
    std::filesystem::remove(path);
}

// An electricity price trace just under the 64 MiB trace limit: 5-minute rows from 2000, as the bundled
// price file's layout.
void BM_PriceTraceAtTheLimit(benchmark::State& state) {
    const std::string path = scratch("prices.csv");
    writeFiveMinuteRowsAtTheLimit(path, "price_usd_per_mwh", 10, 90);
    measure(state, path, [&path] { loadPriceTrace(path); });
    std::filesystem::remove(path);
}

} // namespace

BENCHMARK(BM_TraceCsvAtTheLimit)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TraceUkJsonAtTheCap)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_StudyAtTheAxisCap)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ScenarioAtTheLimit)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ModelAtTheLimit)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ClusterAtTheLimit)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_OperatingPointsAtTheLimit)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_PriceTraceAtTheLimit)->Unit(benchmark::kMillisecond)->Iterations(1);
