// SPDX-License-Identifier: MIT
#include "domain/RunResult.h"

namespace carbon3d {

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

bool isOverhead(IntervalActivity activity) {
    return activity == IntervalActivity::Reconfiguring || activity == IntervalActivity::Preempting ||
           activity == IntervalActivity::Migrating;
}

} // namespace carbon3d
