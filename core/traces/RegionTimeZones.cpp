// SPDX-License-Identifier: MIT
#include "traces/RegionTimeZones.h"

#include <array>
#include <string_view>
#include <utility>

namespace carbon3d {

std::string defaultTimeZoneForRegion(const std::string& regionId) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kZones{{
        {"US-CAL-CISO", "America/Los_Angeles"},
        {"US-TEX-ERCO", "America/Chicago"},
        {"GB", "Europe/London"},
        {"DE", "Europe/Berlin"},
        {"FR", "Europe/Paris"},
        {"SE-SE3", "Europe/Stockholm"},
        {"ZA", "Africa/Johannesburg"},
    }};
    for (const auto& [region, zone] : kZones) {
        if (regionId == region)
            return std::string(zone);
    }
    if (regionId.rfind("GB-", 0) == 0)
        return "Europe/London";
    return "UTC";
}

} // namespace carbon3d
