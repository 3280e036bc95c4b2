// SPDX-License-Identifier: MIT
#include "domain/RegionNames.h"

#include <array>
#include <utility>

namespace carbon3d {

std::string regionPlaceName(const std::string& regionId) {
    // Electricity Maps zone ids (the bundled traces' naming). A zone that is one operator's or one
    // bidding area's part of a country is named by that part; the id beside it says which.
    static constexpr std::array<std::pair<const char*, const char*>, 12> kPlaces{{
        {"US-CAL-CISO", "California"},
        {"US-TEX-ERCO", "Texas"},
        {"GB", "Great Britain"},
        {"DE", "Germany"},
        {"FR", "France"},
        {"SE-SE3", "Central Sweden"},
        {"ZA", "South Africa"},
        {"IE", "Ireland"},
        {"NL", "Netherlands"},
        {"PL", "Poland"},
        {"NO-NO2", "Southwest Norway"},
        {"IN-WE", "Western India"},
    }};
    for (const auto& [id, place] : kPlaces)
        if (regionId == id)
            return place;
    return {};
}

std::string regionDisplayName(const std::string& regionId) {
    const std::string place = regionPlaceName(regionId);
    return place.empty() ? regionId : place + " (" + regionId + ")";
}

} // namespace carbon3d
