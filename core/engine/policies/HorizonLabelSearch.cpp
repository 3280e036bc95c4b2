// SPDX-License-Identifier: MIT
#include "engine/policies/HorizonLabelSearch.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace carbon3d {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Work meets the target within this fraction of it: the tolerance GLPK's work row was solved to.
constexpr double kWorkTolerance = 1e-9;

// The per-second rates the unused tail of a completing slot gives back.
class TailRates {
public:
    TailRates(const ScheduleGraph& graph, const CostModel& costs)
        : m_graph(graph)
        , m_costs(costs) {}
    bool running(std::size_t state) const { return m_graph.stateOf(state) >= 0; }
    double workPerS(std::size_t state) const { return m_costs.workRate(m_graph.stateOf(state)); }
    double gramsPerS(std::size_t state, int slot) const {
        return m_costs.costRateGPerS(m_graph.stateOf(state), m_graph.piece(slot).ciGPerKwh);
    }
    // The seconds of a slot left unused when the job completes in it with `work` done: as many as the
    // work beyond the target allows, at most the seconds the option trained.
    double unusedS(std::size_t state, double work, double target, double usableS) const {
        const double rate = workPerS(state);
        return rate > 0.0 ? std::clamp((work - target) / rate, 0.0, usableS) : 0.0;
    }

private:
    const ScheduleGraph& m_graph;
    const CostModel& m_costs;
};

// Where a search ends: the slot in which the job last trains, and whether it must then finish (in the
// slot after, which only a horizon reaching the deadline allows). Fixing the completing slot keeps the
// Lagrangian bound from averaging schedules that complete at different times, which is what made the
// bound of the whole program 5 to 20 % weak on horizons that reach the deadline.
struct Scope {
    int last = 0;
    bool finishesAfter = false;
};

// Least (carbon - lambda x work) to go from each state at the end of each slot of a scope, the completing
// slot's unused tail credited as the relaxation allows (a whole slot's seconds at the rate that lowers
// the value): [slot][state].
class CostToGo {
public:
    CostToGo(const ScheduleGraph& graph, const TailRates& tails, Scope scope, double lambda)
        : m_n(graph.stateCount())
        , m_values(static_cast<std::size_t>(scope.last + 1) * m_n, 0.0)
        , m_lambda(lambda) {
        const std::size_t finished = graph.canFinish() ? graph.indexOf(kFinished) : m_n;
        for (std::size_t j = 0; j < m_n; ++j)
            at(scope.last, j) = endValue(graph, tails, scope, j, lambda);
        for (int s = scope.last - 1; s >= -1; --s) {
            for (std::size_t i = 0; i < m_n; ++i) {
                if (s < 0 && i != graph.initialState())
                    continue;
                double best = kInfinity;
                for (std::size_t j = 0; j < m_n; ++j) {
                    const SlotTransition* t = graph.transition(s + 1, i, j);
                    if (t != nullptr && j != finished)
                        best = std::min(best, t->carbonG - lambda * t->work + value(s + 1, j));
                }
                (s < 0 ? m_root : at(s, i)) = best;
            }
        }
    }
    double lambda() const { return m_lambda; }
    double value(int slot, std::size_t state) const {
        return m_values[static_cast<std::size_t>(slot) * m_n + state];
    }
    // The bound on every schedule of the scope: root value + lambda x target.
    double rootBound(double target) const { return m_root + m_lambda * target; }

    // The value of ending the scope in `state`: the tail it may leave unused, credited at the rate that
    // lowers the value; infinite for a state that cannot finish when the scope says it must.
    static double endValue(const ScheduleGraph& graph, const TailRates& tails, Scope scope, std::size_t state,
                           double lambda) {
        if (!tails.running(state))
            return scope.finishesAfter ? kInfinity : 0.0;
        if (!graph.canFinish())
            return 0.0;
        const double perS = lambda * tails.workPerS(state) - tails.gramsPerS(state, scope.last);
        return std::min(0.0, perS * graph.piece(scope.last).durationS);
    }

private:
    double& at(int slot, std::size_t state) { return m_values[static_cast<std::size_t>(slot) * m_n + state]; }

    std::size_t m_n;
    std::vector<double> m_values;
    double m_lambda;
    double m_root = 0.0;
};

// The multiplier that makes a scope's bound highest (the bound is concave in lambda), searched by golden
// sections from the best of a coarse grid.
CostToGo strongestBound(const ScheduleGraph& graph, const TailRates& tails, Scope scope, double target,
                        double startLambda, double gridRatio) {
    auto bound = [&](double lambda) { return CostToGo(graph, tails, scope, lambda).rootBound(target); };
    double low = startLambda / gridRatio;
    double high = startLambda * gridRatio;
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = high - ratio * (high - low);
    double b = low + ratio * (high - low);
    double boundA = bound(a);
    double boundB = bound(b);
    for (int i = 0; i < 24; ++i) {
        if (boundA < boundB) {
            low = a;
            a = b;
            boundA = boundB;
            b = low + ratio * (high - low);
            boundB = bound(b);
        } else {
            high = b;
            b = a;
            boundB = boundA;
            a = high - ratio * (high - low);
            boundA = bound(a);
        }
    }
    const CostToGo atStart(graph, tails, scope, startLambda);
    CostToGo refined(graph, tails, scope, boundA >= boundB ? a : b);
    return refined.rootBound(target) >= atStart.rootBound(target) ? refined : atStart;
}

// Every scope's bound on a grid of multipliers at once: a forward pass per multiplier gives the least
// (carbon - lambda x work) into each (slot, state), so the bound of any scope ending there.
struct ScopeBounds {
    std::vector<Scope> scopes;
    std::vector<double> bound;  // the best over the grid, per scope
    std::vector<double> lambda; // where on the grid
};

ScopeBounds boundScopes(const ScheduleGraph& graph, const TailRates& tails, double target,
                        const std::vector<double>& grid) {
    const int slots = graph.slotCount();
    ScopeBounds out;
    if (graph.canFinish())
        for (int f = 0; f + 1 < slots; ++f)
            out.scopes.push_back({f, true});
    out.scopes.push_back({slots - 1, false});
    out.bound.assign(out.scopes.size(), -kInfinity);
    out.lambda.assign(out.scopes.size(), 0.0);
    const std::size_t n = graph.stateCount();
    const std::size_t finished = graph.canFinish() ? graph.indexOf(kFinished) : n;
    for (double lambda : grid) {
        std::vector<double> into(n, kInfinity);
        into[graph.initialState()] = 0.0;
        for (int s = 0; s < slots; ++s) {
            std::vector<double> next(n, kInfinity);
            for (std::size_t i = 0; i < n; ++i) {
                if (into[i] == kInfinity)
                    continue; // not reachable
                for (std::size_t j = 0; j < n; ++j)
                    if (const SlotTransition* t = graph.transition(s, i, j); t != nullptr && j != finished)
                        next[j] = std::min(next[j], into[i] + t->carbonG - lambda * t->work);
            }
            into = std::move(next);
            for (std::size_t k = 0; k < out.scopes.size(); ++k) {
                if (out.scopes[k].last != s)
                    continue;
                double least = kInfinity;
                for (std::size_t j = 0; j < n; ++j)
                    least =
                        std::min(least, into[j] + CostToGo::endValue(graph, tails, out.scopes[k], j, lambda));
                if (least + lambda * target > out.bound[k]) {
                    out.bound[k] = least + lambda * target;
                    out.lambda[k] = lambda;
                }
            }
        }
    }
    return out;
}

struct Label {
    double carbonG = 0.0;
    double work = 0.0;
    double usableS = 0.0; // seconds the slot's option trains (what a completion may leave unused)
    std::uint32_t parent = 0;
    std::uint32_t state = 0;
};

// The forward search over one scope: one vector of labels per slot, each pointing at its parent in the
// slot before. The best schedule is shared by the scopes searched in turn.
class LabelSearch {
public:
    LabelSearch(const ScheduleGraph& graph, const TailRates& tails, double target, std::size_t maxLabels)
        : m_graph(graph)
        , m_tails(tails)
        , m_target(target)
        , m_maxLabels(maxLabels)
        , m_n(graph.stateCount()) {}

    void offer(const SchedulePath& incumbent) {
        if (!incumbent.states.empty() && meetsTarget(incumbent.work) && incumbent.carbonG < m_bestG) {
            m_bestG = incumbent.carbonG;
            m_best = incumbent.states;
        }
    }

    // What a schedule must emit less than to be kept: the best one's value.
    double pruneAt() const { return m_bestG; }

    // False when it stopped at the label cap. beamWidth > 0 keeps only that many labels per slot and state
    // (those of least bound): a quick search for a good schedule, not a proof.
    bool run(Scope scope, const CostToGo& bound, std::size_t beamWidth = 0) {
        m_scope = scope;
        m_bound = &bound;
        m_slots.assign(static_cast<std::size_t>(scope.last) + 1, {});
        const std::vector<Label> root{
            Label{0.0, 0.0, 0.0, 0, static_cast<std::uint32_t>(m_graph.initialState())}};
        const std::vector<Label>* before = &root;
        for (int s = 0; s <= scope.last; ++s) {
            std::vector<std::vector<Label>> candidates(m_n);
            for (std::size_t p = 0; p < before->size(); ++p)
                extend(s, (*before)[p], static_cast<std::uint32_t>(p), candidates);
            std::vector<Label>& kept = m_slots[static_cast<std::size_t>(s)];
            for (std::vector<Label>& bucket : candidates) {
                const std::size_t from = kept.size();
                keepUndominated(bucket, kept);
                if (beamWidth > 0 && kept.size() - from > beamWidth) {
                    auto first = kept.begin() + static_cast<std::ptrdiff_t>(from);
                    std::nth_element(
                        first, first + static_cast<std::ptrdiff_t>(beamWidth), kept.end(),
                        [&](const Label& a, const Label& b) { return boundOf(s, a) < boundOf(s, b); });
                    kept.resize(from + beamWidth);
                }
            }
            m_labels += kept.size();
            if (m_labels > m_maxLabels)
                return false;
            before = &kept;
        }
        return true;
    }

    double bestG() const { return m_bestG; }
    const std::vector<std::size_t>& best() const { return m_best; }

private:
    bool meetsTarget(double work) const { return work >= m_target * (1.0 - kWorkTolerance); }

    // The least any schedule through this label can emit (the label in slot s).
    double boundOf(int s, const Label& label) const {
        // Work still needed: before the scope's last slot a completion adds work, so at least none; in
        // that slot the tail it leaves unused takes work back, so the shortfall may be negative.
        const double shortfall =
            s < m_scope.last ? std::max(0.0, m_target - label.work) : m_target - label.work;
        return label.carbonG + m_bound->value(s, label.state) + m_bound->lambda() * shortfall;
    }

    void extend(int s, const Label& from, std::uint32_t parent, std::vector<std::vector<Label>>& candidates) {
        const std::size_t finished = m_graph.canFinish() ? m_graph.indexOf(kFinished) : m_n;
        for (std::size_t j = 0; j < m_n; ++j) {
            const SlotTransition* t = m_graph.transition(s, from.state, j);
            if (t == nullptr || j == finished)
                continue;
            const Label next{from.carbonG + t->carbonG, from.work + t->work, t->usableS, parent,
                             static_cast<std::uint32_t>(j)};
            if (boundOf(s, next) >= pruneAt())
                continue;
            if (s < m_scope.last)
                candidates[j].push_back(next);
            else if (meetsTarget(next.work))
                complete(next);
        }
    }

    // A schedule meeting the target that ends the scope in the label's state: the unused tail of its slot
    // credited, and (when the scope finishes) every later slot finished.
    void complete(const Label& label) {
        double value = label.carbonG;
        if (m_graph.canFinish() && m_tails.running(label.state))
            value -= m_tails.gramsPerS(label.state, m_scope.last) *
                     m_tails.unusedS(label.state, label.work, m_target, label.usableS);
        if (value >= m_bestG)
            return;
        m_bestG = value;
        const auto slots = static_cast<std::size_t>(m_graph.slotCount());
        m_best.assign(slots, m_graph.canFinish() ? m_graph.indexOf(kFinished) : label.state);
        m_best[static_cast<std::size_t>(m_scope.last)] = label.state;
        std::uint32_t parent = label.parent;
        for (auto k = static_cast<std::size_t>(m_scope.last); k-- > 0;) {
            const Label& up = m_slots[k][parent];
            m_best[k] = up.state;
            parent = up.parent;
        }
    }

    // Labels of one state: kept unless another has no more carbon, no less work and (for the tail a
    // completion may leave) no fewer usable seconds.
    static void keepUndominated(std::vector<Label>& bucket, std::vector<Label>& kept) {
        std::sort(bucket.begin(), bucket.end(), [](const Label& a, const Label& b) {
            if (a.carbonG != b.carbonG)
                return a.carbonG < b.carbonG;
            if (a.work != b.work)
                return a.work > b.work;
            return a.usableS > b.usableS;
        });
        std::vector<std::pair<double, double>>
            frontier; // (usable seconds, most work kept with at least them)
        for (const Label& label : bucket) {
            bool dominated = false;
            for (const auto& [usable, work] : frontier)
                dominated = dominated || (usable >= label.usableS && work >= label.work);
            if (dominated)
                continue;
            kept.push_back(label);
            auto same = std::find_if(frontier.begin(), frontier.end(),
                                     [&](const auto& entry) { return entry.first == label.usableS; });
            if (same == frontier.end())
                frontier.emplace_back(label.usableS, label.work);
            else
                same->second = std::max(same->second, label.work);
        }
    }

    const ScheduleGraph& m_graph;
    const TailRates& m_tails;
    double m_target;
    std::size_t m_maxLabels;
    std::size_t m_n;
    Scope m_scope;
    const CostToGo* m_bound = nullptr;
    std::vector<std::vector<Label>> m_slots;
    std::size_t m_labels = 0;
    double m_bestG = kInfinity;
    std::vector<std::size_t> m_best;
};

// The path's carbon and work as the graph charges them (no tail credited).
SchedulePath pathOf(const ScheduleGraph& graph, std::vector<std::size_t> states) {
    SchedulePath path;
    std::size_t before = graph.initialState();
    for (std::size_t s = 0; s < states.size(); ++s) {
        const SlotTransition* t = graph.transition(static_cast<int>(s), before, states[s]);
        path.carbonG += t->carbonG;
        path.work += t->work;
        before = states[s];
    }
    path.states = std::move(states);
    return path;
}

// The multipliers' grid: 0, then powers of kGridRatio around multiplierScale (ScheduleGraph.h): the price of
// work is rarely far above it, and far below it only when the target is nearly met anyway.
constexpr double kGridRatio = 2.0;
constexpr int kGridBelow = 20; // 2^-20 of the scale: the smallest positive multiplier tried
constexpr int kGridAbove = 6;

std::vector<double> multiplierGrid(double scale) {
    std::vector<double> grid{0.0};
    for (int k = -kGridBelow; k <= kGridAbove; ++k)
        grid.push_back(scale * std::pow(kGridRatio, k));
    return grid;
}

// A scope's strongest bound, refined from the grid's best multiplier.
CostToGo refinedBound(const ScheduleGraph& graph, const TailRates& tails, const ScopeBounds& scopes,
                      std::size_t k, double target, double scale) {
    const double start =
        scopes.lambda[k] > 0.0 ? scopes.lambda[k] : scale * std::pow(kGridRatio, -kGridBelow);
    return strongestBound(graph, tails, scopes.scopes[k], target, start, kGridRatio);
}

} // namespace

HorizonSearchResult searchHorizon(const ScheduleGraph& graph, const CostModel& costs, double target,
                                  const SchedulePath& incumbent, std::size_t maxLabels) {
    HorizonSearchResult result;
    if (graph.slotCount() == 0)
        return result;
    const TailRates tails(graph, costs);
    const double scale = multiplierScale(graph, costs);
    constexpr std::size_t kBeamWidth = 4;
    const ScopeBounds scopes = boundScopes(graph, tails, target, multiplierGrid(scale));
    std::vector<std::size_t> order(scopes.scopes.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scopes.bound[a] < scopes.bound[b]; });
    LabelSearch search(graph, tails, target, maxLabels);
    search.offer(incumbent);
    result.complete = true;
    for (std::size_t k : order) {
        if (scopes.bound[k] >= search.pruneAt())
            continue;
        const CostToGo bound = refinedBound(graph, tails, scopes, k, target, scale);
        if (bound.rootBound(target) >= search.pruneAt())
            continue;
        if (!search.run(scopes.scopes[k], bound, kBeamWidth) ||
            (bound.rootBound(target) < search.pruneAt() && !search.run(scopes.scopes[k], bound))) {
            result.complete = false;
            break;
        }
    }
    if (!search.best().empty()) {
        result.path = pathOf(graph, search.best());
        result.objectiveG = search.bestG();
    }
    return result;
}

} // namespace carbon3d
