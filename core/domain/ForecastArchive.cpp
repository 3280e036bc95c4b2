// SPDX-License-Identifier: MIT
#include "domain/ForecastArchive.h"

#include <algorithm>

namespace carbon3d {

std::optional<double> ForecastIssue::valueOver(UtcSeconds a, UtcSeconds b) const {
    // The first period ending after a: periods are sorted and disjoint, so their ends are sorted too.
    auto it = std::upper_bound(periods.begin(), periods.end(), a, [](UtcSeconds t, const ForecastPeriod& p) {
        return t < p.startUtc + p.seconds;
    });
    double weighted = 0.0;
    std::int64_t covered = 0;
    for (; it != periods.end() && it->startUtc < b; ++it) {
        const std::int64_t overlap = std::min(b, it->startUtc + it->seconds) - std::max(a, it->startUtc);
        if (overlap <= 0)
            continue;
        weighted += it->gPerKwh * static_cast<double>(overlap);
        covered += overlap;
    }
    if (covered == 0)
        return std::nullopt;
    return weighted / static_cast<double>(covered);
}

UtcSeconds ForecastIssue::reachUtc() const {
    return periods.empty() ? issuedUtc : periods.back().startUtc + periods.back().seconds;
}

const ForecastIssue* ForecastArchive::latestIssuedBy(UtcSeconds t) const {
    auto it =
        std::upper_bound(issues.begin(), issues.end(), t,
                         [](UtcSeconds time, const ForecastIssue& issue) { return time < issue.issuedUtc; });
    return it == issues.begin() ? nullptr : &*std::prev(it);
}

} // namespace carbon3d
