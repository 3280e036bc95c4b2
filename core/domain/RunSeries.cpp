// SPDX-License-Identifier: MIT
#include "domain/RunSeries.h"

#include <algorithm>

namespace carbon3d {

TimeSeries stepSeries(const RunResult& run, const std::function<double(const IntervalRecord&)>& value) {
    TimeSeries series;
    if (run.series.empty())
        return series;
    double previous = 0.0;
    UtcSeconds previousEnd = run.series.front().start;
    for (const IntervalRecord& interval : run.series) {
        const double current = value(interval);
        // A gap between intervals is drawn as a new step; equal consecutive values add no point.
        if (series.t.empty() || current != previous || interval.start != previousEnd) {
            series.t.push_back(static_cast<double>(interval.start));
            series.v.push_back(current);
        }
        previous = current;
        previousEnd = interval.end;
    }
    series.t.push_back(static_cast<double>(run.series.back().end));
    series.v.push_back(previous);
    return series;
}

TimeSeries cumulativeEmissions(const RunResult& run, bool includeEmbodied) {
    TimeSeries series;
    if (run.series.empty())
        return series;
    double total = 0.0;
    series.t.push_back(static_cast<double>(run.series.front().start));
    series.v.push_back(0.0);
    for (const IntervalRecord& interval : run.series) {
        total += interval.emissionsG + (includeEmbodied ? interval.embodiedG : 0.0);
        series.t.push_back(static_cast<double>(interval.end));
        series.v.push_back(total);
    }
    return series;
}

const IntervalRecord* intervalAt(const RunResult& run, double t) {
    const auto it =
        std::upper_bound(run.series.begin(), run.series.end(), t, [](double time, const IntervalRecord& r) {
            return time < static_cast<double>(r.start);
        });
    if (it == run.series.begin())
        return nullptr;
    const IntervalRecord& candidate = *std::prev(it);
    return t < static_cast<double>(candidate.end) ? &candidate : nullptr;
}

} // namespace carbon3d
