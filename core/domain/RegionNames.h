// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d {

// The place a grid-region id stands for, for people: "Germany" for "DE", "California" for "US-CAL-CISO".
// Known for the bundled traces' zones and a few more (Electricity Maps zone ids); empty for any other id,
// which then shows as itself.
std::string regionPlaceName(const std::string& regionId);

// "Germany (DE)", or the id alone when its place is not known.
std::string regionDisplayName(const std::string& regionId);

} // namespace carbon3d
