// SPDX-License-Identifier: MIT
#include "domain/RunResult.h"

#include "domain/ModellingFields.h"
#include "domain/NumberText.h"

#include <algorithm>
#include <iterator>

namespace carbon3d {

double RunResult::chargedParkedShare() const {
    const auto backfill = modelling.find(kBackfillKey);
    const std::optional<double> value =
        backfill == modelling.end() ? std::nullopt : parseDecimal(backfill->second);
    return value ? 1.0 - *value : 1.0;
}

SavingSplit RunMetrics::splitCharging(double charged) const {
    const SavingSplit dedicated = dedicatedSplit();
    const SavingSplit shared = sharedSplit();
    const auto mix = [charged](double atDedicated, double atShared) {
        return charged * atDedicated + (1.0 - charged) * atShared;
    };
    return {mix(dedicated.configurationG, shared.configurationG), mix(dedicated.timingG, shared.timingG),
            mix(dedicated.beyondG, shared.beyondG)};
}

SavingSplit RunMetrics::splitFractionsCharging(double charged) const {
    const SavingSplit split = splitCharging(charged);
    const double baseline = totalG + split.totalG();
    if (!(baseline > 0.0)) // NaN (not split) or nothing emitted
        return {};
    return {split.configurationG / baseline, split.timingG / baseline, split.beyondG / baseline};
}

const char* intervalActivityName(IntervalActivity activity) {
    switch (activity) {
    case IntervalActivity::Training:
        return "training";
    case IntervalActivity::Waiting:
        return "waiting";
    case IntervalActivity::Paused:
        return "paused";
    case IntervalActivity::Reconfiguring:
        return "reconfiguring";
    case IntervalActivity::Preempting:
        return "preempting";
    case IntervalActivity::Migrating:
        return "migrating";
    }
    return "?";
}

bool usedForecast(const RunResult& run) {
    return run.forecastKind != kPerfectKnowledge && run.forecastKind != kNoForecast;
}

const DecisionNote* decisionAt(const RunResult& run, UtcSeconds t) {
    const auto after =
        std::upper_bound(run.decisions.begin(), run.decisions.end(), t,
                         [](UtcSeconds at, const DecisionNote& note) { return at < note.atUtc; });
    return after == run.decisions.begin() ? nullptr : &*std::prev(after);
}

bool isOverhead(IntervalActivity activity) {
    return activity == IntervalActivity::Reconfiguring || activity == IntervalActivity::Preempting ||
           activity == IntervalActivity::Migrating;
}

} // namespace carbon3d
