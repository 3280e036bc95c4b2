// SPDX-License-Identifier: MIT
#include "engine/policies/ScheduleGraph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d {

namespace {

bool transitionAllowed(int from, int to) {
    switch (from) {
    case kNotStarted:
        return to == kNotStarted || to >= 0; // the job starts by running
    case kPaused:
        return to == kPaused || to >= 0;
    case kFinished:
        return to == kFinished;
    default:
        return to != kNotStarted; // running: continue, reconfigure, pause or finish
    }
}

} // namespace

ScheduleGraph::ScheduleGraph(const CostModel& costs, std::vector<ForecastPiece> pieces, int current,
                             bool canFinish)
    : m_pieces(std::move(pieces))
    , m_canFinish(canFinish) {
    m_states = {kNotStarted, kPaused};
    if (canFinish)
        m_states.push_back(kFinished);
    for (int k = 0; k < costs.optionCount(); ++k)
        m_states.push_back(k);
    m_initial = indexOf(current);
    const std::size_t n = m_states.size();
    m_table.resize(m_pieces.size() * n * n);
    for (std::size_t s = 0; s < m_pieces.size(); ++s) {
        const double d = m_pieces[s].durationS;
        const double ci = m_pieces[s].ciGPerKwh;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const int from = m_states[i];
                const int to = m_states[j];
                if (!transitionAllowed(from, to))
                    continue;
                SlotTransition t;
                if (to == kPaused) {
                    t.carbonG = costs.costRateGPerS(kPaused, ci) * d; // held GPUs idle
                } else if (to >= 0) {
                    const double overheadS = std::min(d, costs.transitionSeconds(from, to));
                    const double run = costs.costRateGPerS(to, ci);
                    t.carbonG = run * d + (costs.overheadCostRateGPerS(to, ci) - run) * overheadS;
                    t.usableS = d - overheadS;
                    t.work = costs.workRate(to) * t.usableS;
                }
                m_table[(s * n + i) * n + j] = t;
            }
    }
}

std::size_t ScheduleGraph::indexOf(int state) const {
    return static_cast<std::size_t>(std::find(m_states.begin(), m_states.end(), state) - m_states.begin());
}

const SlotTransition* ScheduleGraph::transition(int slot, std::size_t from, std::size_t to) const {
    const std::size_t n = m_states.size();
    const auto& entry = m_table[(static_cast<std::size_t>(slot) * n + from) * n + to];
    return entry ? &*entry : nullptr;
}

SchedulePath cheapestPath(const ScheduleGraph& graph, double lambda) {
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    const std::size_t n = graph.stateCount();
    const auto slots = static_cast<std::size_t>(graph.slotCount());
    std::vector<double> value(n, kInfinity);
    value[graph.initialState()] = 0.0;
    std::vector<std::size_t> predecessor(slots * n, 0); // [slot][state]: the state before, on the best path
    for (std::size_t s = 0; s < slots; ++s) {
        std::vector<double> next(n, kInfinity);
        for (std::size_t i = 0; i < n; ++i) {
            if (value[i] == kInfinity)
                continue;
            for (std::size_t j = 0; j < n; ++j) {
                const SlotTransition* t = graph.transition(static_cast<int>(s), i, j);
                if (t == nullptr)
                    continue;
                const double candidate = value[i] + t->carbonG - lambda * t->work;
                if (candidate < next[j]) {
                    next[j] = candidate;
                    predecessor[s * n + j] = i;
                }
            }
        }
        value = std::move(next);
    }
    SchedulePath path;
    path.states.resize(slots);
    auto state = static_cast<std::size_t>(std::min_element(value.begin(), value.end()) - value.begin());
    for (std::size_t s = slots; s-- > 0;) {
        const std::size_t before = predecessor[s * n + state];
        const SlotTransition* t = graph.transition(static_cast<int>(s), before, state);
        path.states[s] = state;
        path.carbonG += t->carbonG;
        path.work += t->work;
        state = before;
    }
    return path;
}

namespace {

// Carbon and work of the arcs into slot s and out of it, were slot s in state `at`; false if not allowed.
bool localCost(const ScheduleGraph& graph, const SchedulePath& path, int s, std::size_t at, double& carbonG,
               double& work) {
    const std::size_t before = s == 0 ? graph.initialState() : path.states[static_cast<std::size_t>(s - 1)];
    const SlotTransition* in = graph.transition(s, before, at);
    if (in == nullptr)
        return false;
    carbonG = in->carbonG;
    work = in->work;
    if (s + 1 < graph.slotCount()) {
        const SlotTransition* out = graph.transition(s + 1, at, path.states[static_cast<std::size_t>(s) + 1]);
        if (out == nullptr)
            return false;
        carbonG += out->carbonG;
        work += out->work;
    }
    return true;
}

// Applies the single-slot change of state with the least carbon among those that leave the path
// meeting the target (an infeasible path counts as infinitely costly). False when none improves.
bool applyBestMove(const ScheduleGraph& graph, double target, SchedulePath& path) {
    double bestCarbon = path.work >= target ? path.carbonG : std::numeric_limits<double>::infinity();
    int bestSlot = -1;
    std::size_t bestState = 0;
    double bestWork = 0.0;
    for (int s = 0; s < graph.slotCount(); ++s) {
        const std::size_t now = path.states[static_cast<std::size_t>(s)];
        double oldCarbon = 0.0;
        double oldWork = 0.0;
        localCost(graph, path, s, now, oldCarbon, oldWork);
        for (std::size_t at = 0; at < graph.stateCount(); ++at) {
            double carbon = 0.0;
            double work = 0.0;
            if (at == now || !localCost(graph, path, s, at, carbon, work))
                continue;
            const double newWork = path.work - oldWork + work;
            const double newCarbon = path.carbonG - oldCarbon + carbon;
            if (newWork >= target && newCarbon < bestCarbon - 1e-12 * std::abs(bestCarbon)) {
                bestCarbon = newCarbon;
                bestSlot = s;
                bestState = at;
                bestWork = newWork;
            }
        }
    }
    if (bestSlot < 0)
        return false;
    path.states[static_cast<std::size_t>(bestSlot)] = bestState;
    path.carbonG = bestCarbon;
    path.work = bestWork;
    return true;
}

} // namespace

SchedulePath lagrangianSchedule(const ScheduleGraph& graph, double target, double lambdaScale) {
    double bound = -std::numeric_limits<double>::infinity();
    auto cheapest = [&](double lambda) {
        SchedulePath path = cheapestPath(graph, lambda);
        bound = std::max(bound, path.carbonG - lambda * (path.work - target));
        return path;
    };
    SchedulePath below = cheapest(0.0);
    SchedulePath above = below;
    if (below.work < target) {
        double low = 0.0;
        double high = std::max(lambdaScale, 1e-300);
        for (int i = 0; i < 60; ++i, high *= 2.0) {
            above = cheapest(high);
            if (above.work >= target)
                break;
        }
        for (int i = 0; i < 40 && above.work >= target; ++i) {
            const double middle = 0.5 * (low + high);
            SchedulePath path = cheapest(middle);
            (path.work >= target ? high : low) = middle;
            (path.work >= target ? above : below) = std::move(path);
        }
    }
    SchedulePath best;
    best.carbonG = std::numeric_limits<double>::infinity();
    for (SchedulePath start : {above, below}) {
        // Each move lowers carbon or (from an infeasible start) reaches the target; the cap is a guard.
        for (int moves = 0; moves < 4 * graph.slotCount() && applyBestMove(graph, target, start); ++moves) {
        }
        if (start.work >= target && start.carbonG < best.carbonG)
            best = std::move(start);
    }
    if (best.states.empty())
        best.carbonG = 0.0;
    best.lagrangianBoundG = bound;
    return best;
}

double multiplierScale(const ScheduleGraph& graph, const CostModel& costs) {
    const int fastest = costs.fastestOption();
    double dirtiest = 0.0;
    for (int s = 0; s < graph.slotCount(); ++s)
        dirtiest = std::max(dirtiest, graph.piece(s).ciGPerKwh);
    return costs.costRateGPerS(fastest, dirtiest) / costs.workRate(fastest);
}

} // namespace carbon3d
