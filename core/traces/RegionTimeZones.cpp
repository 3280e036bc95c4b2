// SPDX-License-Identifier: MIT
#include "traces/RegionTimeZones.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace carbon3d {

namespace {

using ZoneEntry = std::pair<std::string_view, std::string_view>;

// Electricity Maps zone id -> IANA zone, sorted by id.
constexpr ZoneEntry kZones[] = {
#include "traces/ZoneTimeZones.inc"
};

std::optional<std::string> zoneTimeZone(std::string_view zone) {
    const auto it =
        std::lower_bound(std::begin(kZones), std::end(kZones), zone,
                         [](const ZoneEntry& entry, std::string_view id) { return entry.first < id; });
    if (it == std::end(kZones) || it->first != zone)
        return std::nullopt;
    return std::string(it->second);
}

// A US balancing authority's EIA code -> the time zone of the Electricity Maps zone "US-<area>-<code>".
std::optional<std::string> balancingAuthorityTimeZone(std::string_view code) {
    for (const ZoneEntry& entry : kZones) {
        const std::string_view id = entry.first;
        if (id.substr(0, 3) == "US-" && id.size() > code.size() + 1 &&
            id.substr(id.size() - code.size()) == code && id[id.size() - code.size() - 1] == '-')
            return std::string(entry.second);
    }
    return std::nullopt;
}

// WattTime names the organised markets by their own short names and their sub-regions after an '_'
// (CAISO_NORTH); the EIA codes those markets report under.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kMarkets{{
    {"CAISO", "CISO"},
    {"ERCOT", "ERCO"},
    {"ISONE", "ISNE"},
    {"MISO", "MISO"},
    {"NYISO", "NYIS"},
    {"PJM", "PJM"},
    {"SPP", "SWPP"},
}};

} // namespace

std::optional<std::string> knownTimeZoneForRegion(const std::string& regionId) {
    if (std::optional<std::string> zone = zoneTimeZone(regionId))
        return zone;
    if (regionId.rfind("GB-", 0) == 0)
        return "Europe/London";
    const std::string_view market = std::string_view(regionId).substr(0, regionId.find('_'));
    for (const auto& [name, code] : kMarkets)
        if (market == name)
            return balancingAuthorityTimeZone(code);
    if (regionId.find('_') == std::string::npos && !regionId.empty())
        return balancingAuthorityTimeZone(regionId);
    return std::nullopt;
}

std::string defaultTimeZoneForRegion(const std::string& regionId) {
    return knownTimeZoneForRegion(regionId).value_or("UTC");
}

} // namespace carbon3d
