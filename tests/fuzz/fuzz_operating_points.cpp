// SPDX-License-Identifier: MIT
// The operating-points CSV reader on arbitrary bytes.
#include "FuzzSupport.h"
#include "config/OperatingPointsCsv.h"
#include "domain/InputError.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace carbon3d;
    try {
        parseOperatingPoints(fuzz::text(data, size), "fuzz.csv");
    } catch (const InputError&) {
    }
    return 0;
}
