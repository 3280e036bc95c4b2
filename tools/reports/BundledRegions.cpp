// SPDX-License-Identifier: MIT
#include "reports/BundledRegions.h"

#include "traces/TraceLoader.h"

namespace carbon3d::reports {

const std::vector<std::string>& bundledTraceFiles() {
    static const std::vector<std::string> files{
        "US-CAL-CISO_2022.csv", "US-TEX-ERCO_2022.csv", "GB_2022.csv", "DE_2022.csv",
        "FR_2022.csv",          "SE-SE3_2022.csv",      "ZA_2022.csv"};
    return files;
}

Scenario inBundledRegion(Scenario scenario, const std::string& sampleDataDirectory, const std::string& file) {
    RegionSpec region;
    region.tracePath = sampleDataDirectory + "/traces/" + file;
    region.trace = loadCarbonTrace(region.tracePath);
    region.regionId = region.trace.regionId;
    region.timeZone = region.trace.timeZone;
    scenario.regions = {region};
    return scenario;
}

} // namespace carbon3d::reports
