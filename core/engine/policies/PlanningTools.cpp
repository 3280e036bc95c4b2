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

std::vector<ForecastPiece> windowPieces(const Forecast& forecast, double now, double end) {
    std::vector<ForecastPiece> pieces = forecast.pieces(now, end, true);
    // Beyond the horizon the groups come in slot-of-day order; the one holding `now` (it starts there) goes
    // first, where plans look for the current slot. Inside the horizon it is first already.
    const auto current = std::find_if(pieces.begin(), pieces.end(),
                                      [now](const ForecastPiece& piece) { return piece.startUtc == now; });
    if (current != pieces.end())
        std::rotate(pieces.begin(), current, current + 1);
    return pieces;
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

// planByLambda's working state: the states' rates, looked up once rather than per piece, and the plan at
// lambda = 0 with the breakpoints that raise it, gathered piece by piece.
class LambdaPlanner {
public:
    // The pause state, then the options in ascending throughput (ties of the envelope go to the later,
    // faster one): their power, embodied rate and throughput.
    LambdaPlanner(const CostModel& costs, int pauseState, std::size_t pieceCount)
        : m_costs(costs)
        , m_pauseState(pauseState)
        , m_pieceCount(pieceCount)
        , m_firstPieceState(pauseState) {
        m_states.push_back(pauseState);
        for (int k : costs.optionsByRate())
            m_states.push_back(k);
        const std::size_t n = m_states.size();
        m_powerW.resize(n);
        m_embodiedGPerS.resize(n);
        m_rate.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            m_powerW[i] = costs.powerW(m_states[i]);
            m_embodiedGPerS[i] = costs.embodiedGPerS(m_states[i]);
            m_rate[i] = costs.workRate(m_states[i]);
        }
        m_breakpoints.reserve(pieceCount * n);
        m_value.resize(n);
    }

    // Piece p at lambda = 0: the cheapest state (ties: the faster) into the plan, then the breakpoints up
    // the lower envelope of the lines value - lambda x rate to ever faster states at increasing crossing
    // points.
    void addPiece(std::size_t p, const ForecastPiece& piece) {
        const std::size_t n = m_states.size();
        const double ci = piece.ciGPerKwh;
        const double d = piece.durationS;
        for (std::size_t i = 0; i < n; ++i)
            m_value[i] = m_powerW[i] * ci / 3.6e6 + m_embodiedGPerS[i];
        std::size_t current = 0;
        for (std::size_t i = 1; i < n; ++i)
            if (m_value[i] <= m_value[current])
                current = i;
        if (p == 0)
            m_firstPieceState = m_states[current];
        m_doneWork += m_rate[current] * d;
        m_cost += m_value[current] * d;
        addEnvelope(p, d, current);
    }

    // The plan that covers `work`: the lambda = 0 plan when it does, else raised by the breakpoints.
    LambdaPlan solve(double work) {
        if (m_doneWork >= work) {
            LambdaPlan plan;
            plan.feasible = true;
            plan.firstState = m_pieceCount == 0 ? m_pauseState : m_firstPieceState;
            plan.forecastCostG = m_cost;
            return plan;
        }
        return raisedPlan(work);
    }

private:
    // Piece p's steps up its lower envelope from state `current`, as breakpoints.
    void addEnvelope(std::size_t p, double d, std::size_t current) {
        const std::size_t n = m_states.size();
        double lambda = 0.0;
        while (true) {
            std::size_t next = n;
            double nextLambda = std::numeric_limits<double>::infinity();
            for (std::size_t i = 1; i < n; ++i) {
                const double dr = m_rate[i] - m_rate[current];
                if (dr <= 0.0)
                    continue;
                const double at = std::max(lambda, (m_value[i] - m_value[current]) / dr);
                if (at <= nextLambda) { // ties: the faster option
                    nextLambda = at;
                    next = i;
                }
            }
            if (next == n)
                break;
            m_breakpoints.push_back({nextLambda, m_breakpoints.size(), p, m_states[next],
                                     (m_rate[next] - m_rate[current]) * d,
                                     (m_value[next] - m_value[current]) * d});
            current = next;
            lambda = nextLambda;
        }
    }

    // The lambda = 0 plan falls short: every breakpoint before the crossing one is taken in full, the
    // crossing one in part. Without a crossing the work cannot be covered.
    LambdaPlan raisedPlan(double work) {
        LambdaPlan plan;
        const std::optional<Breakpoint> cross = crossing(m_breakpoints, work - m_doneWork);
        const Breakpoint* lastOfFirstPiece = nullptr;
        const Breakpoint* last = nullptr;
        for (const Breakpoint& b : m_breakpoints) {
            if (cross && !before(b, *cross))
                continue;
            m_doneWork += b.dWork;
            m_cost += b.dCostG;
            if (b.piece == 0 && (lastOfFirstPiece == nullptr || before(*lastOfFirstPiece, b)))
                lastOfFirstPiece = &b;
            if (last == nullptr || before(*last, b))
                last = &b;
        }
        if (cross) {
            m_cost += cross->dCostG * (work - m_doneWork) / cross->dWork;
            plan.feasible = true;
            plan.lambda = cross->lambda;
            if (cross->piece == 0) // after every other breakpoint taken
                m_firstPieceState = cross->to;
            else if (lastOfFirstPiece != nullptr)
                m_firstPieceState = lastOfFirstPiece->to;
        } else if (last != nullptr) {
            plan.lambda = last->lambda;
        }
        plan.firstState = plan.feasible ? m_firstPieceState : m_costs.fastestOption();
        plan.forecastCostG = m_cost;
        return plan;
    }

    const CostModel& m_costs;
    int m_pauseState;
    std::size_t m_pieceCount;
    // The states, pause first, and their power, embodied rate and throughput.
    std::vector<int> m_states;
    std::vector<double> m_powerW;
    std::vector<double> m_embodiedGPerS;
    std::vector<double> m_rate;
    std::vector<double> m_value; // gCO2e/s of each state at the piece's CI (as CostModel::costRateGPerS)
    std::vector<Breakpoint> m_breakpoints;
    // The plan so far: the first piece's state, its work and forecast cost.
    int m_firstPieceState;
    double m_doneWork = 0.0;
    double m_cost = 0.0;
};

} // namespace

LambdaPlan planByLambda(const CostModel& costs, const std::vector<ForecastPiece>& pieces, double work,
                        int pauseState) {
    LambdaPlanner planner(costs, pauseState, pieces.size());
    for (std::size_t p = 0; p < pieces.size(); ++p)
        planner.addPiece(p, pieces[p]);
    return planner.solve(work);
}

double rankingValue(double value) {
    if (value == 0.0 || !std::isfinite(value))
        return value;
    const double scale = std::pow(10.0, 9.0 - std::ceil(std::log10(std::abs(value))));
    return std::round(value * scale) / scale;
}

} // namespace carbon3d
