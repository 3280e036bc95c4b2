// SPDX-License-Identifier: MIT
#include "engine/LowerBound.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace carbon3d {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A stretch of time with one carbon intensity in every region that covers it.
struct Segment {
    double seconds = 0.0;
    double cleanestCi = 0.0; // the least intensity among the regions, g/kWh
    bool late = false;       // after the deadline (soft mode): the penalty accrues until the work is done
    // What does not depend on lambda, computed once (the search solves the relaxation ~50 times): the
    // cheapest way to hold the job through the segment, and each option's carbon and work in it, g.
    double holdG = 0.0;
    std::vector<double> optionG;
    std::vector<double> optionWork;
};

std::vector<Segment> segmentsOf(const SimulationInput& input, UtcSeconds horizonEnd) {
    std::set<UtcSeconds> cuts{input.startUtc, horizonEnd, std::min(input.deadlineUtc, horizonEnd)};
    for (const CarbonTrace& trace : input.regions) {
        const auto step = std::max<std::int64_t>(1, trace.stepSeconds);
        const std::int64_t first = std::max<std::int64_t>(0, (input.startUtc - trace.startUtc) / step);
        for (UtcSeconds t = trace.startUtc + first * step; t < std::min(horizonEnd, trace.endUtc());
             t += step)
            if (t > input.startUtc)
                cuts.insert(t);
        if (trace.endUtc() > input.startUtc && trace.endUtc() < horizonEnd)
            cuts.insert(trace.endUtc());
    }
    std::vector<Segment> segments;
    for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it) {
        const UtcSeconds a = *it;
        const UtcSeconds b = *std::next(it);
        Segment segment;
        segment.seconds = static_cast<double>(b - a);
        segment.cleanestCi = kInf;
        segment.late = a >= input.deadlineUtc;
        for (const CarbonTrace& trace : input.regions) {
            if (a < trace.startUtc || b > trace.endUtc())
                continue;
            const auto slot = static_cast<std::size_t>((a - trace.startUtc) / trace.stepSeconds);
            segment.cleanestCi = std::min(segment.cleanestCi, trace.gPerKwh[slot]);
        }
        segments.push_back(segment);
    }
    return segments;
}

// A path's Lagrangian value (cost - lambda x work) and the work it does.
struct PathValue {
    double value = kInf;
    double work = 0.0;
};

PathValue better(const PathValue& a, const PathValue& b) {
    return b.value < a.value ? b : a;
}

class Relaxation {
public:
    Relaxation(const SimulationInput& input, const CostModel& costs, UtcSeconds horizonEnd)
        : m_segments(segmentsOf(input, horizonEnd))
        , m_penaltyGPerS(input.modelling.deadlineMode == ModellingOptions::DeadlineMode::Soft
                             ? input.modelling.softDeadlinePenaltyGPerHour / 3600.0
                             : 0.0) {
        for (Segment& segment : m_segments)
            if (segment.cleanestCi != kInf)
                priceSegment(costs, segment);
    }

    // The least cost - lambda x work over the relaxed schedules: not started, then started (training or
    // idle, both at their cheapest), then done; any of the three may be empty.
    PathValue solve(double lambda) const {
        PathValue notStarted{0.0, 0.0};
        PathValue started;
        PathValue done;
        for (const Segment& segment : m_segments) {
            started = better(started, notStarted);
            done = better(done, started);
            if (segment.cleanestCi == kInf) { // no region's trace covers it: the job cannot be here
                started = PathValue{};
                notStarted.value += segment.late ? kInf : 0.0;
                continue;
            }
            const double penalty = segment.late ? m_penaltyGPerS * segment.seconds : 0.0;
            notStarted.value += penalty;
            const PathValue step = cheapestStartedStep(segment, lambda);
            started.value += step.value + penalty;
            started.work += step.work;
        }
        done = better(done, started);
        return better(done, notStarted);
    }

private:
    // Holding the job costs the least of a pause and any overhead (an overhead may draw less than a pause:
    // its target may park fewer GPUs); training at option k costs its carbon and does its work.
    static void priceSegment(const CostModel& costs, Segment& segment) {
        const double ci = segment.cleanestCi;
        double holdRate = costs.costRateGPerS(kPaused, ci);
        for (int k = 0; k < costs.optionCount(); ++k)
            holdRate = std::min(holdRate, costs.overheadCostRateGPerS(k, ci));
        segment.holdG = holdRate * segment.seconds;
        for (int k = 0; k < costs.optionCount(); ++k) {
            segment.optionG.push_back(costs.costRateGPerS(k, ci) * segment.seconds);
            segment.optionWork.push_back(costs.workRate(k) * segment.seconds);
        }
    }

    // The cheapest way to spend one segment once started: train at some option, or hold.
    static PathValue cheapestStartedStep(const Segment& segment, double lambda) {
        PathValue best{segment.holdG, 0.0};
        for (std::size_t k = 0; k < segment.optionG.size(); ++k) {
            const double value = segment.optionG[k] - lambda * segment.optionWork[k];
            if (value < best.value)
                best = PathValue{value, segment.optionWork[k]};
        }
        return best;
    }

    std::vector<Segment> m_segments;
    double m_penaltyGPerS;
};

} // namespace

LowerBound certifiedLowerBound(const SimulationInput& input, const CostModel& costs) {
    UtcSeconds horizonEnd = input.deadlineUtc;
    if (input.modelling.deadlineMode == ModellingOptions::DeadlineMode::Soft) {
        for (const CarbonTrace& trace : input.regions)
            horizonEnd = std::max(horizonEnd, trace.endUtc()); // a late job may run as long as a trace lasts
    }
    const Relaxation relaxation(input, costs, horizonEnd);
    const double work = input.totalWork;
    LowerBound bound;
    auto consider = [&](double lambda) {
        const PathValue path = relaxation.solve(lambda);
        const double dual = path.value + lambda * work;
        if (dual > bound.g) {
            bound.g = dual;
            bound.multiplier = lambda;
        }
        return path.work >= work; // the subgradient (work - done) is <= 0: lambda is at or past the maximum
    };
    // The dual is concave in lambda: bracket its maximum by doubling, then bisect on the subgradient.
    double lo = 0.0;
    double hi = 1e-12;
    if (consider(lo))
        return bound;
    while (!consider(hi)) {
        lo = hi;
        hi *= 4.0;
        if (hi > 1e30)
            return LowerBound{}; // the work cannot be done within the traces: nothing to certify
    }
    // 1e-10 of lambda: the dual changes by at most |work - done| x the step, far below a gram here.
    for (int iteration = 0; iteration < 64 && hi - lo > 1e-10 * hi; ++iteration) {
        const double mid = 0.5 * (lo + hi);
        (consider(mid) ? hi : lo) = mid;
    }
    return bound;
}

} // namespace carbon3d
