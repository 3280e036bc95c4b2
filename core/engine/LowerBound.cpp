// SPDX-License-Identifier: MIT
#include "engine/LowerBound.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
    // cheapest way to hold the job through the segment, g. Each option's carbon and work in it are in
    // Relaxation's flat tables (one allocation for all segments: a study bounds every one of its cells).
    double holdG = 0.0;
};

std::vector<Segment> segmentsOf(const SimulationInput& input, UtcSeconds horizonEnd) {
    std::vector<UtcSeconds> cuts{input.startUtc, horizonEnd, std::min(input.deadlineUtc, horizonEnd)};
    for (const CarbonTrace& trace : input.regions) {
        const auto step = std::max<std::int64_t>(1, trace.stepSeconds);
        const std::int64_t first = std::max<std::int64_t>(0, (input.startUtc - trace.startUtc) / step);
        for (UtcSeconds t = trace.startUtc + first * step; t < std::min(horizonEnd, trace.endUtc());
             t += step)
            if (t > input.startUtc)
                cuts.push_back(t);
        if (trace.endUtc() > input.startUtc && trace.endUtc() < horizonEnd)
            cuts.push_back(trace.endUtc());
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<Segment> segments;
    segments.reserve(cuts.size());
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
        const UtcSeconds a = cuts[i];
        const UtcSeconds b = cuts[i + 1];
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
        , m_options(static_cast<std::size_t>(costs.optionCount()))
        , m_optionG(m_segments.size() * m_options, 0.0)
        , m_optionWork(m_segments.size() * m_options, 0.0)
        , m_penaltyGPerS(input.modelling.deadlineMode == ModellingOptions::DeadlineMode::Soft
                             ? input.modelling.softDeadlinePenaltyGPerHour / 3600.0
                             : 0.0) {
        for (std::size_t s = 0; s < m_segments.size(); ++s)
            if (m_segments[s].cleanestCi != kInf)
                priceSegment(costs, s);
    }

    // The least cost - lambda x work over the relaxed schedules: not started, then started (training or
    // idle, both at their cheapest), then done; any of the three may be empty.
    PathValue solve(double lambda) const {
        PathValue notStarted{0.0, 0.0};
        PathValue started;
        PathValue done;
        for (std::size_t s = 0; s < m_segments.size(); ++s) {
            const Segment& segment = m_segments[s];
            started = better(started, notStarted);
            done = better(done, started);
            if (segment.cleanestCi == kInf) { // no region's trace covers it: the job cannot be here
                started = PathValue{};
                notStarted.value += segment.late ? kInf : 0.0;
                continue;
            }
            const double penalty = segment.late ? m_penaltyGPerS * segment.seconds : 0.0;
            notStarted.value += penalty;
            const PathValue step = cheapestStartedStep(s, lambda);
            started.value += step.value + penalty;
            started.work += step.work;
        }
        done = better(done, started);
        return better(done, notStarted);
    }

private:
    // Holding the job costs the least of a pause and any overhead (an overhead may draw less than a pause:
    // its target may park fewer GPUs); training at option k costs its carbon and does its work.
    void priceSegment(const CostModel& costs, std::size_t s) {
        Segment& segment = m_segments[s];
        const double ci = segment.cleanestCi;
        double holdRate = costs.costRateGPerS(kPaused, ci);
        for (int k = 0; k < costs.optionCount(); ++k)
            holdRate = std::min(holdRate, costs.overheadCostRateGPerS(k, ci));
        segment.holdG = holdRate * segment.seconds;
        for (std::size_t k = 0; k < m_options; ++k) {
            m_optionG[s * m_options + k] = costs.costRateGPerS(static_cast<int>(k), ci) * segment.seconds;
            m_optionWork[s * m_options + k] = costs.workRate(static_cast<int>(k)) * segment.seconds;
        }
    }

    // The cheapest way to spend one segment once started: train at some option, or hold.
    PathValue cheapestStartedStep(std::size_t s, double lambda) const {
        PathValue best{m_segments[s].holdG, 0.0};
        const double* g = m_optionG.data() + s * m_options;
        const double* work = m_optionWork.data() + s * m_options;
        for (std::size_t k = 0; k < m_options; ++k) {
            const double value = g[k] - lambda * work[k];
            if (value < best.value)
                best = PathValue{value, work[k]};
        }
        return best;
    }

    std::vector<Segment> m_segments;
    std::size_t m_options;
    std::vector<double> m_optionG;    // [segment x option]: the option's carbon in the segment, g
    std::vector<double> m_optionWork; // [segment x option]: its work there
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
