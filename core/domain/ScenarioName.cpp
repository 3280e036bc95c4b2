// SPDX-License-Identifier: MIT
#include "domain/ScenarioName.h"

#include "domain/NumberText.h"
#include "domain/RegionNames.h"
#include "domain/Time.h"

namespace carbon3d {

namespace {

std::string firstRegion(const Scenario& s) {
    return s.regions.empty() ? std::string("?") : s.regions.front().regionId;
}

std::string firstRegionName(const Scenario& s) {
    return s.regions.empty() ? std::string("?") : regionDisplayName(s.regions.front().regionId);
}

// What the name of a scenario describes: if any of it changed, the name no longer fits.
bool sameSubject(const Scenario& a, const Scenario& b) {
    return firstRegion(a) == firstRegion(b) &&
           formatIsoUtc(a.startUtc).substr(0, 10) == formatIsoUtc(b.startUtc).substr(0, 10) &&
           a.job.model.name == b.job.model.name && a.job.tokens == b.job.tokens && a.gpus == b.gpus &&
           a.cluster.name == b.cluster.name && a.regions.size() == b.regions.size();
}

} // namespace

std::string describingName(const Scenario& s) {
    std::string name = s.job.model.name + ", " + shortestNumber(s.job.tokens / 1e9) + " B tokens on " +
                       std::to_string(s.gpus) + " x " + s.cluster.name + " in " + firstRegionName(s);
    if (s.regions.size() > 1)
        name += " and " + std::to_string(s.regions.size() - 1) + " more region(s)";
    return name + " from " + formatIsoUtc(s.startUtc).substr(0, 10);
}

std::string nameAfterEdits(const Scenario& original, const Scenario& edited) {
    return sameSubject(original, edited) ? original.name : describingName(edited);
}

std::string descriptionAfterEdits(const Scenario& original, const Scenario& edited) {
    if (sameSubject(original, edited))
        return original.description;
    return "Edited from \"" + original.name + "\"; that scenario's description does not describe this one.";
}

} // namespace carbon3d
