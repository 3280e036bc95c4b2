// SPDX-License-Identifier: MIT
#include "study/StudyPlan.h"

#include "config/ScenarioJson.h"
#include "domain/Time.h"
#include "study/StudyDefinition.h"

#include <cmath>

namespace carbon3d {

namespace {

std::vector<std::string> parkedGpus(const StudyPlan& plan) {
    std::vector<std::string> parked;
    if (plan.parkedIdle)
        parked.emplace_back(kParkedIdle);
    if (plan.parkedReleased)
        parked.emplace_back(kParkedReleased);
    return parked;
}

} // namespace

double startRangeCount(UtcSeconds from, UtcSeconds to, double everyHours) {
    if (to < from || !(everyHours > 0.0))
        return 0.0;
    return std::floor(static_cast<double>(to - from) / (everyHours * 3600.0)) + 1.0;
}

JsonValue studyPlanJson(const StudyPlan& plan, const Scenario& base, const std::string& directory) {
    JsonValue axes = JsonValue::makeObject();
    JsonValue start = JsonValue::makeObject();
    start.insert("from", JsonValue::makeString(formatIsoUtc(plan.from)));
    start.insert("to", JsonValue::makeString(formatIsoUtc(plan.to)));
    start.insert("every_hours", JsonValue::makeNumber(plan.everyHours));
    axes.insert("start", std::move(start));
    axes.insert("region", jsonStrings(plan.regions));
    axes.insert("slack", jsonNumbers(plan.slacks));
    axes.insert("policy", jsonStrings(plan.policies));
    axes.insert("parked_gpus", jsonStrings(parkedGpus(plan)));
    if (!plan.errors.empty()) {
        JsonValue noisy = JsonValue::makeObject();
        noisy.insert("kind", JsonValue::makeString(plan.noisyForecast));
        noisy.insert("error", jsonNumbers(plan.errors));
        noisy.insert("seeds", JsonValue::makeNumber(plan.seeds));
        JsonValue forecast = JsonValue::makeArray();
        forecast.append(std::move(noisy));
        axes.insert("forecast", std::move(forecast));
    }
    JsonValue study = JsonValue::makeObject();
    study.insert("schema", JsonValue::makeNumber(1));
    study.insert("name", JsonValue::makeString(plan.name));
    if (plan.splitSavings)
        study.insert("split_savings", JsonValue::makeBool(true));
    study.insert("base", toJson(base, directory));
    study.insert("axes", std::move(axes));
    return study;
}

std::uint64_t plannedCellCount(const StudyPlan& plan) {
    const double forecasts =
        plan.errors.empty() ? 1.0 : static_cast<double>(plan.errors.size()) * std::max(plan.seeds, 0);
    const double cells = startRangeCount(plan.from, plan.to, plan.everyHours) *
                         static_cast<double>(plan.regions.size() * plan.slacks.size() * plan.policies.size() *
                                             parkedGpus(plan).size()) *
                         forecasts;
    // A double holds every count a study may have (the reader refuses more than 1e7 cells) exactly.
    return cells >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(cells);
}

} // namespace carbon3d
