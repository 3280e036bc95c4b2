// SPDX-License-Identifier: MIT
#include "engine/policies/PlanningTools.h"

#include <algorithm>
#include <limits>

namespace carbon3d {

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

int bestStaticOption(const CostModel& costs, const Forecast& forecast, int from, double t, double work,
                     double deadline) {
    int best = -1;
    double bestCost = std::numeric_limits<double>::infinity();
    for (int k = 0; k < costs.optionCount(); ++k) {
        if (t + costs.transitionSeconds(from, k) + work / costs.workRate(k) > deadline)
            continue;
        const double cost = contiguousCostG(costs, forecast, from, k, t, work);
        if (cost < bestCost) {
            bestCost = cost;
            best = k;
        }
    }
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

double weightedQuantile(std::vector<ForecastPiece> pieces, double q) {
    if (pieces.empty())
        return 0.0;
    std::sort(pieces.begin(), pieces.end(),
              [](const ForecastPiece& a, const ForecastPiece& b) { return a.ciGPerKwh < b.ciGPerKwh; });
    double total = 0.0;
    for (const ForecastPiece& piece : pieces)
        total += piece.durationS;
    const double target = q * total;
    double cumulative = 0.0;
    for (const ForecastPiece& piece : pieces) {
        cumulative += piece.durationS;
        if (cumulative >= target)
            return piece.ciGPerKwh;
    }
    return pieces.back().ciGPerKwh;
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

struct Breakpoint {
    double lambda = 0.0;
    std::size_t piece = 0;
    int from = 0;
    int to = 0;
};

} // namespace

LambdaPlan planByLambda(const CostModel& costs, const std::vector<ForecastPiece>& pieces, double work,
                        int pauseState) {
    LambdaPlan plan;
    std::vector<Breakpoint> breakpoints;
    breakpoints.reserve(pieces.size() * static_cast<std::size_t>(costs.optionCount()));
    std::vector<int> assigned(pieces.size(), pauseState);
    double doneWork = 0.0;
    double cost = 0.0;
    std::vector<double> a(static_cast<std::size_t>(costs.optionCount()));
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        const double ci = pieces[p].ciGPerKwh;
        const double d = pieces[p].durationS;
        for (int k = 0; k < costs.optionCount(); ++k)
            a[static_cast<std::size_t>(k)] = costs.costRateGPerS(k, ci);
        auto value = [&](int state) {
            return state >= 0 ? a[static_cast<std::size_t>(state)] : costs.costRateGPerS(state, ci);
        };
        // Lower envelope of the lines value(x) - lambda x rate(x) for lambda >= 0: start at the cheapest
        // state, then walk to ever faster states at increasing crossing points.
        int current = argminAtLambda(costs, ci, 0.0, pauseState);
        double lambda = 0.0;
        while (true) {
            int next = -3;
            double nextLambda = std::numeric_limits<double>::infinity();
            for (int k : costs.optionsByRate()) {
                const double dr = costs.workRate(k) - costs.workRate(current);
                if (dr <= 0.0)
                    continue;
                const double crossing = std::max(lambda, (value(k) - value(current)) / dr);
                if (crossing <= nextLambda) { // ties: the faster option (later in optionsByRate)
                    nextLambda = crossing;
                    next = k;
                }
            }
            if (next == -3)
                break;
            breakpoints.push_back({nextLambda, p, current, next});
            current = next;
            lambda = nextLambda;
        }
        const int first = argminAtLambda(costs, ci, 0.0, pauseState);
        assigned[p] = first;
        doneWork += costs.workRate(first) * d;
        cost += value(first) * d;
    }
    std::stable_sort(breakpoints.begin(), breakpoints.end(), [](const Breakpoint& x, const Breakpoint& y) {
        return x.lambda < y.lambda || (x.lambda == y.lambda && x.piece < y.piece);
    });
    if (doneWork >= work) {
        plan.feasible = true;
        plan.firstState = pieces.empty() ? pauseState : assigned[0];
        plan.forecastCostG = cost;
        return plan;
    }
    for (const Breakpoint& b : breakpoints) {
        const ForecastPiece& piece = pieces[b.piece];
        const double dWork = (costs.workRate(b.to) - costs.workRate(b.from)) * piece.durationS;
        const double dCost =
            (costs.costRateGPerS(b.to, piece.ciGPerKwh) - costs.costRateGPerS(b.from, piece.ciGPerKwh)) *
            piece.durationS;
        assigned[b.piece] = b.to;
        plan.lambda = b.lambda;
        if (doneWork + dWork >= work) {
            cost += dCost * (work - doneWork) / dWork;
            plan.feasible = true;
            break;
        }
        doneWork += dWork;
        cost += dCost;
    }
    plan.firstState = plan.feasible ? assigned[0] : costs.fastestOption();
    plan.forecastCostG = cost;
    return plan;
}

} // namespace carbon3d
