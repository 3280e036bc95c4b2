// SPDX-License-Identifier: MIT
// A second process for tst_storagerobustness: saves runs into a results database so the test can kill it
// mid-save (SIGKILL) or run two of it at once. Prints one line per event on stdout, flushed at once, so the
// test can follow it.
//   storage_helper save-large DB ROWS   save one run of ROWS intervals; "began", "rows N"..., "committed ID"
//   storage_helper save-many DB N TAG   save N runs of scenario TAG named TAG-0..TAG-(N-1); "saved N"
#include "StorageSamples.h"
#include "domain/InputError.h"
#include "storage/ResultsStore.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

using namespace carbon3d;

namespace {

int saveLarge(const std::string& path, std::size_t rows) {
    ResultsStore store(path);
    SaveOptions options;
    options.name = "large";
    options.progress = [rows](std::size_t done, std::size_t) {
        if (done <= 1024)
            std::printf("began\n");
        std::printf("rows %zu\n", done);
        std::fflush(stdout);
        // Past half-way, slow down so that the test's kill surely lands inside the open transaction, after
        // more than SQLite's page cache has spilled into the WAL file (the interesting case for recovery).
        if (done >= rows / 2)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    };
    const RunId id = store.saveRun(test::sampleScenario("killed"), test::sampleRun(rows, 77),
                                   test::sampleTraces(), options);
    std::printf("committed %lld\n", static_cast<long long>(id));
    return 0;
}

int saveMany(const std::string& path, int count, const std::string& tag) {
    ResultsStore store(path);
    for (int i = 0; i < count; ++i) {
        SaveOptions options;
        options.name = tag + "-" + std::to_string(i);
        store.saveRun(test::sampleScenario(tag), test::sampleRun(500, static_cast<std::uint64_t>(i)),
                      test::sampleTraces(), options);
    }
    std::printf("saved %d\n", count);
    return 0;
}

} // namespace

int main(int argc, char* argv[]) {
    try {
        const std::string command = argc > 1 ? argv[1] : "";
        if (command == "save-large" && argc == 4)
            return saveLarge(argv[2], std::stoul(argv[3]));
        if (command == "save-many" && argc == 5)
            return saveMany(argv[2], std::stoi(argv[3]), argv[4]);
        std::fprintf(stderr, "usage: storage_helper save-large DB ROWS | save-many DB N TAG\n");
        return 2;
    } catch (const InputError& error) {
        std::fprintf(stderr, "storage_helper: %s\n", error.what());
        return 1;
    }
}
