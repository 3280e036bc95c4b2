// SPDX-License-Identifier: MIT
#include "engine/policies/PlanningTools.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace carbon3d {

namespace {

// Weighted quickselect: in the order `less` defines, the first element at which the cumulative weight
// reaches `target` (among equivalent elements, any one of them); `last` when the total falls short.
// Linear on average where a sort is n log n: policies that decide at every 5-minute slot run this over
// ~900 forecast pieces (or ~3,500 breakpoints) 100,000 times a year (docs/PERFORMANCE.md). Reorders the
// range.
template <class Iterator, class Less, class Weight>
Iterator firstReaching(Iterator first, Iterator last, double target, Less less, Weight weight) {
    double before = 0.0; // weight of the elements known to come before [lo, hi)
    Iterator lo = first;
    Iterator hi = last;
    while (lo != hi) {
        const auto pivot = *(lo + (hi - lo) / 2);
        const Iterator lessEnd = std::partition(lo, hi, [&](const auto& x) { return less(x, pivot); });
        const Iterator equalEnd = std::partition(lessEnd, hi, [&](const auto& x) { return !less(pivot, x); });
        double below = 0.0;
        for (Iterator it = lo; it != lessEnd; ++it)
            below += weight(*it);
        if (lessEnd != lo && before + below >= target) {
            hi = lessEnd;
            continue;
        }
        double equal = 0.0;
        for (Iterator it = lessEnd; it != equalEnd; ++it)
            equal += weight(*it);
        if (before + below + equal >= target)
            return lessEnd;
        before += below + equal;
        lo = equalEnd;
    }
    return last;
}

} // namespace

double contiguousCostG(const CostModel& costs, const Forecast& forecast, int from, int option, double t,
                       double work) {
    const double overhead = costs.transitionSeconds(from, option);
    const double runS = work / costs.workRate(option);
    double cost = 0.0;
    if (overhead > 0.0)
        cost += costs.overheadPowerW(option) * forecast.integral(t, t + overhead) / 3.6e6 +
                costs.embodiedGPerS(option) * overhead;
    cost += costs.powerW(option) * forecast.integral(t + overhead, t + overhead + runS) / 3.6e6 +
            costs.embodiedGPerS(option) * runS;
    return cost;
}

ContiguousChoice cheapestContiguousOption(const CostModel& costs, const Forecast& forecast, int from,
                                          double t, double work, double deadline) {
    ContiguousChoice best{-1, std::numeric_limits<double>::infinity()};
    for (int k = 0; k < costs.optionCount(); ++k) {
        if (t + costs.transitionSeconds(from, k) + work / costs.workRate(k) > deadline)
            continue;
        const double cost = contiguousCostG(costs, forecast, from, k, t, work);
        if (cost < best.costG)
            best = {k, cost};
    }
    return best;
}

int bestStaticOption(const CostModel& costs, const Forecast& forecast, int from, double t, double work,
                     double deadline) {
    const int best = cheapestContiguousOption(costs, forecast, from, t, work, deadline).option;
    return best >= 0 ? best : costs.fastestOption();
}

int mostEfficientOption(const CostModel& costs) {
    int best = 0;
    for (int k = 1; k < costs.optionCount(); ++k) {
        if (costs.powerW(k) / costs.workRate(k) < costs.powerW(best) / costs.workRate(best))
            best = k;
    }
    return best;
}

double weightedQuantile(const std::vector<ForecastPiece>& pieces, double q) {
    if (pieces.empty())
        return 0.0;
    // The smallest value whose cumulative duration (values in ascending order) reaches q x total.
    std::vector<std::pair<double, double>> values; // (ci, duration)
    values.reserve(pieces.size());
    double total = 0.0;
    for (const ForecastPiece& piece : pieces) {
        values.emplace_back(piece.ciGPerKwh, piece.durationS);
        total += piece.durationS;
    }
    const auto found = firstReaching(
        values.begin(), values.end(), q * total,
        [](const auto& a, const auto& b) { return a.first < b.first; },
        [](const auto& v) { return v.second; });
    // Rounding left the target unreached: the largest value, as a full ascending walk would return.
    return found != values.end() ? found->first : std::max_element(values.begin(), values.end())->first;
}

int argminAtLambda(const CostModel& costs, double ci, double lambda, int pauseState) {
    int best = pauseState;
    double bestValue = costs.costRateGPerS(pauseState, ci);
    for (int k : costs.optionsByRate()) {
        const double value = costs.costRateGPerS(k, ci) - lambda * costs.workRate(k);
        if (value <= bestValue) { // ties: the faster state (progress is never worse)
            bestValue = value;
            best = k;
        }
    }
    return best;
}

namespace {

// One step up a piece's lower envelope: at multiplier `lambda` the piece moves from one state to a
// faster one, doing dWork more work for dCostG more carbon. `order` is the creation index, which
// breaks ties between equal multipliers as a stable sort by (lambda, piece) would.
struct Breakpoint {
    double lambda = 0.0;
    std::size_t order = 0;
    std::size_t piece = 0;
    int to = 0;
    double dWork = 0.0;
    double dCostG = 0.0;
};

bool before(const Breakpoint& x, const Breakpoint& y) {
    return x.lambda < y.lambda || (x.lambda == y.lambda && x.order < y.order);
}

// The first breakpoint in (lambda, order) order at which the cumulative work reaches `deficit`; empty
// when all of them together fall short.
std::optional<Breakpoint> crossing(std::vector<Breakpoint> points, double deficit) {
    const auto found = firstReaching(
        points.begin(), points.end(), deficit,
        [](const Breakpoint& x, const Breakpoint& y) { return before(x, y); },
        [](const Breakpoint& b) { return b.dWork; });
    if (found == points.end())
        return std::nullopt;
    return *found;
}

} // namespace

LambdaPlan planByLambda(const CostModel& costs, const std::vector<ForecastPiece>& pieces, double work,
                        int pauseState) {
    // The pause state, then the options in ascending throughput (ties of the envelope go to the later,
    // faster one): their power, embodied rate and throughput, looked up once rather than per piece.
    std::vector<int> states{pauseState};
    for (int k : costs.optionsByRate())
        states.push_back(k);
    const std::size_t n = states.size();
    std::vector<double> powerW(n);
    std::vector<double> embodiedGPerS(n);
    std::vector<double> rate(n);
    for (std::size_t i = 0; i < n; ++i) {
        powerW[i] = costs.powerW(states[i]);
        embodiedGPerS[i] = costs.embodiedGPerS(states[i]);
        rate[i] = costs.workRate(states[i]);
    }
    std::vector<Breakpoint> breakpoints;
    breakpoints.reserve(pieces.size() * n);
    std::vector<double> value(n); // gCO2e/s of each state at the piece's CI (as CostModel::costRateGPerS)
    LambdaPlan plan;
    int firstPieceState = pauseState;
    double doneWork = 0.0;
    double cost = 0.0;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        const double ci = pieces[p].ciGPerKwh;
        const double d = pieces[p].durationS;
        for (std::size_t i = 0; i < n; ++i)
            value[i] = powerW[i] * ci / 3.6e6 + embodiedGPerS[i];
        // The cheapest state at lambda = 0 (ties: the faster), then up the lower envelope of the lines
        // value - lambda x rate to ever faster states at increasing crossing points.
        std::size_t current = 0;
        for (std::size_t i = 1; i < n; ++i)
            if (value[i] <= value[current])
                current = i;
        if (p == 0)
            firstPieceState = states[current];
        doneWork += rate[current] * d;
        cost += value[current] * d;
        double lambda = 0.0;
        while (true) {
            std::size_t next = n;
            double nextLambda = std::numeric_limits<double>::infinity();
            for (std::size_t i = 1; i < n; ++i) {
                const double dr = rate[i] - rate[current];
                if (dr <= 0.0)
                    continue;
                const double at = std::max(lambda, (value[i] - value[current]) / dr);
                if (at <= nextLambda) { // ties: the faster option
                    nextLambda = at;
                    next = i;
                }
            }
            if (next == n)
                break;
            breakpoints.push_back({nextLambda, breakpoints.size(), p, states[next],
                                   (rate[next] - rate[current]) * d, (value[next] - value[current]) * d});
            current = next;
            lambda = nextLambda;
        }
    }
    if (doneWork >= work) {
        plan.feasible = true;
        plan.firstState = pieces.empty() ? pauseState : firstPieceState;
        plan.forecastCostG = cost;
        return plan;
    }
    // Every breakpoint before the crossing one is taken in full, the crossing one in part.
    const std::optional<Breakpoint> cross = crossing(breakpoints, work - doneWork);
    const Breakpoint* lastOfFirstPiece = nullptr;
    const Breakpoint* last = nullptr;
    for (const Breakpoint& b : breakpoints) {
        if (cross && !before(b, *cross))
            continue;
        doneWork += b.dWork;
        cost += b.dCostG;
        if (b.piece == 0 && (lastOfFirstPiece == nullptr || before(*lastOfFirstPiece, b)))
            lastOfFirstPiece = &b;
        if (last == nullptr || before(*last, b))
            last = &b;
    }
    if (cross) {
        cost += cross->dCostG * (work - doneWork) / cross->dWork;
        plan.feasible = true;
        plan.lambda = cross->lambda;
        if (cross->piece == 0) // after every other breakpoint taken
            firstPieceState = cross->to;
        else if (lastOfFirstPiece != nullptr)
            firstPieceState = lastOfFirstPiece->to;
    } else if (last != nullptr) {
        plan.lambda = last->lambda;
    }
    plan.firstState = plan.feasible ? firstPieceState : costs.fastestOption();
    plan.forecastCostG = cost;
    return plan;
}

double rankingValue(double value) {
    if (value == 0.0 || !std::isfinite(value))
        return value;
    const double scale = std::pow(10.0, 9.0 - std::ceil(std::log10(std::abs(value))));
    return std::round(value * scale) / scale;
}

} // namespace carbon3d
