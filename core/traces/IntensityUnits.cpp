// SPDX-License-Identifier: MIT
// The carbon-intensity units files state, as one table.

#include "domain/TextList.h"
#include "traces/RawTrace.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace carbon3d::traces_detail {

namespace {

// 1 lb = 0.45359237 kg exactly, so lbs/MWh x 0.45359237 = kg/MWh = g/kWh.
constexpr double kPound = 0.45359237;

struct UnitSpelling {
    const char* spelling; // lower case, CO2 left out
    IntensityUnit unit;
};

// A spelling must start the text or follow a character that is not a letter, so that "kg/kwh" is not read
// as "g/kwh".
const std::array<UnitSpelling, 12> kSpellings{{
    {"g/kwh", {"g/kWh", 1.0}},
    {"g_per_kwh", {"g/kWh", 1.0}},
    {"kg/mwh", {"kg/MWh", 1.0}},
    {"kg_per_mwh", {"kg/MWh", 1.0}},
    {"kg/kwh", {"kg/kWh", 1000.0}},
    {"kg_per_kwh", {"kg/kWh", 1000.0}},
    {"lbs/mwh", {"lbs/MWh", kPound}},
    {"lbs_per_mwh", {"lbs/MWh", kPound}},
    {"lb/mwh", {"lbs/MWh", kPound}},
    {"lb_per_mwh", {"lbs/MWh", kPound}},
    {"t/gwh", {"t/GWh", 1.0}},
    {"t_per_gwh", {"t/GWh", 1.0}},
}};

// Lower case, with "co2eq", "co2e", "co2" and "co₂eq" left out, a doubled '_' made single and no space
// beside a '/' ("lbs_co2_per_mwh" -> "lbs_per_mwh", "gCO2eq/kWh" -> "g/kwh", "lbs CO2 / MWh" -> "lbs/mwh").
std::string normalised(std::string_view text) {
    std::string lower;
    for (char c : text)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string_view gas : {"co\u2082eq", "co\u2082", "co2eq", "co2e", "co2"}) {
        for (std::size_t at = lower.find(gas); at != std::string::npos; at = lower.find(gas, at))
            lower.erase(at, gas.size());
    }
    // "lbs CO2/MWh" leaves "lbs /mwh", "lbs_co2_per_mwh" leaves "lbs__per_mwh": close them up.
    for (const std::string_view gap : {"__", " /", "/ "}) {
        for (std::size_t at = lower.find(gap); at != std::string::npos; at = lower.find(gap))
            lower.erase(at + (gap[0] == '/' ? 1 : 0), 1);
    }
    return lower;
}

} // namespace

std::optional<IntensityUnit> intensityUnitIn(std::string_view text) {
    const std::string name = normalised(text);
    for (const UnitSpelling& entry : kSpellings) {
        for (std::size_t at = name.find(entry.spelling); at != std::string::npos;
             at = name.find(entry.spelling, at + 1)) {
            if (at == 0 || !std::isalpha(static_cast<unsigned char>(name[at - 1])))
                return entry.unit;
        }
    }
    return std::nullopt;
}

std::string intensityUnitNames() {
    std::vector<std::string> names;
    for (const UnitSpelling& entry : kSpellings)
        if (std::find(names.begin(), names.end(), entry.unit.name) == names.end())
            names.emplace_back(entry.unit.name);
    return spokenList(names, "or");
}

} // namespace carbon3d::traces_detail
