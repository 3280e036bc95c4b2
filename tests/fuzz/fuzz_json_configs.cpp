// SPDX-License-Identifier: MIT
// Every JSON loader on arbitrary bytes: the parser, then the scenario, model and cluster readers on
// whatever parses. Bad input must end in InputError; anything else (a crash, another exception, a
// sanitizer report) is a bug.
#include "FuzzSupport.h"
#include "config/ClusterProfileJson.h"
#include "config/ModelSpecJson.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/Json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace carbon3d;
    JsonValue json;
    try {
        json = parseJson(fuzz::text(data, size), "fuzz.json");
    } catch (const InputError&) {
        return 0;
    }
    const auto attempt = [&](auto read) {
        try {
            read();
        } catch (const InputError&) {
        }
    };
    attempt([&] { parseScenario(json, "fuzz.json"); });
    attempt([&] { parseModelSpec(json, "fuzz.json"); });
    attempt([&] { parseClusterProfile(json, "fuzz.json"); });
    return 0;
}
