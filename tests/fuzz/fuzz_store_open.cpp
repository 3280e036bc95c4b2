// SPDX-License-Identifier: MIT
// The results store's open path on arbitrary bytes as a database file: a file that is not a healthy
// Carbon3D database must be refused with InputError (and left as it was), one that opens must list.
#include "FuzzSupport.h"
#include "domain/InputError.h"
#include "storage/ResultsStore.h"

#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace carbon3d;
    const std::string path = fuzz::scratchFile(data, size, "_store.sqlite");
    try {
        const ResultsStore store(path, {ResultsStore::OpenMode::MustExist, ResultsStore::OpenCheck::Quick});
        store.listRuns();
    } catch (const InputError&) {
    }
    for (const char* companion : {"-wal", "-shm", "-journal"})
        std::remove((path + companion).c_str());
    return 0;
}
