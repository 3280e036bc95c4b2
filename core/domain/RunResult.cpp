// SPDX-License-Identifier: MIT
#include "domain/RunResult.h"

namespace carbon3d {

const char* intervalActivityName(IntervalActivity activity) {
    switch (activity) {
    case IntervalActivity::Training:
        return "training";
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

} // namespace carbon3d
