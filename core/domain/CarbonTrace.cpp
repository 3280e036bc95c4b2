// SPDX-License-Identifier: MIT
#include "domain/CarbonTrace.h"

#include "domain/PrintableText.h"

namespace carbon3d {

const char* carbonSignalName(CarbonSignal signal) {
    return signal == CarbonSignal::Average ? "average" : "marginal";
}

std::string timeZoneAssumedWarning(const CarbonTrace& trace) {
    return "region " + printable(trace.regionId) +
           ": its time zone is not known (no time_zone was given, and the region is not in the zone table), "
           "so "
           "local time is taken as UTC for working-day rules and the local-time axis; give the region a "
           "time_zone (docs/DATA.md)";
}

} // namespace carbon3d
