// SPDX-License-Identifier: MIT
// The carbon-trace loader on arbitrary bytes, through a file as in the program (format detection by
// content covers every format: Electricity Maps, WattTime, canonical CSV, UK Carbon Intensity and Carbon
// Aware SDK JSON), with and without the opt-in repairs; and the forecast-file loader on the same bytes (its
// formats share the head reading and the field readers).
#include "FuzzSupport.h"
#include "domain/InputError.h"
#include "traces/ForecastLoader.h"
#include "traces/TraceLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace carbon3d;
    const std::string path = fuzz::scratchFile(data, size, "_trace.csv");
    for (const bool repair : {false, true}) {
        TraceLoadOptions options;
        options.repair = repair;
        try {
            loadCarbonTrace(path, options);
        } catch (const InputError&) {
        }
    }
    try {
        loadForecastArchive(path);
    } catch (const InputError&) {
    }
    return 0;
}
