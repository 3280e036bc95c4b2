// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d {

// IANA time zone of a grid region, for local-time rules and plots (the data themselves are UTC).
// The table covers the bundled zones:
//   US-CAL-CISO America/Los_Angeles, US-TEX-ERCO America/Chicago, GB Europe/London, DE Europe/Berlin,
//   FR Europe/Paris, SE-SE3 Europe/Stockholm, ZA Africa/Johannesburg,
// and UK Carbon Intensity API regions ("GB-<regionid>") map to Europe/London. Anything else gives "UTC":
// a wrong local zone would silently shift "workday" rules, UTC at least is visibly neutral.
std::string defaultTimeZoneForRegion(const std::string& regionId);

} // namespace carbon3d
