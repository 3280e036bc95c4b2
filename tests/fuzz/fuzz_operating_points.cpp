// SPDX-License-Identifier: MIT
// The operating-points CSV reader on arbitrary bytes, and the power-log reader (nvidia-smi, dcgmi dmon,
// CodeCarbon, Zeus: measured power, read into the same operating points) on the same bytes through a file.
#include "FuzzSupport.h"
#include "config/OperatingPointsCsv.h"
#include "config/PowerLogs.h"
#include "domain/InputError.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace carbon3d;
    try {
        parseOperatingPoints(fuzz::text(data, size), "fuzz.csv");
    } catch (const InputError&) {
    }
    try {
        loadPowerLog(fuzz::scratchFile(data, size, "_power.csv"));
    } catch (const InputError&) {
    }
    return 0;
}
