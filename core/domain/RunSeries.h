// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"

#include <functional>
#include <vector>

namespace carbon3d {

// A plottable series: times in UTC seconds, values in the caller's unit.
struct TimeSeries {
    std::vector<double> t;
    std::vector<double> v;
    std::size_t size() const { return t.size(); }
};

// A piecewise-constant quantity of a run (power, active GPUs, CI) as step points: one point at the start
// of each change and a closing point at the end of the last interval, so a "step left" line draws it
// exactly. Adjacent intervals with equal values are merged (lossless decimation for plots).
TimeSeries stepSeries(const RunResult& run, const std::function<double(const IntervalRecord&)>& value);

// Cumulative emissions in g, exact at every interval boundary (linear in between, as the rate is constant
// within an interval). includeEmbodied adds the embodied share charged to each interval.
TimeSeries cumulativeEmissions(const RunResult& run, bool includeEmbodied);

// The interval covering time t (start <= t < end), or nullptr.
const IntervalRecord* intervalAt(const RunResult& run, double t);

} // namespace carbon3d
