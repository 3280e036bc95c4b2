// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/forecast/Forecast.h"

#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace carbon3d {

// A job's state in one slot of a plan besides kNotStarted, kPaused and the menu options.
constexpr int kFinished = -3;

// What moving from one state (in slot s - 1) into another (in slot s) costs and yields, as the engine
// charges it (CostModel): a switch or resume pays overhead power and trains nothing for its seconds.
struct SlotTransition {
    double carbonG = 0.0;
    double work = 0.0;    // work units done in the slot
    double usableS = 0.0; // seconds of the slot the new option trains (0 unless it runs)
};

// The planning problem of the ILP over a rolling horizon as a layered graph: one layer of states per
// forecast piece, one arc per allowed transition. A schedule is a path from the current state through
// every layer. States are dense indices; stateOf() maps them back to the engine's numbers.
class ScheduleGraph {
public:
    // canFinish: the horizon reaches the deadline, so the plan may end in kFinished (holding nothing).
    ScheduleGraph(const CostModel& costs, std::vector<ForecastPiece> pieces, int current, bool canFinish);

    int slotCount() const { return static_cast<int>(m_pieces.size()); }
    std::size_t stateCount() const { return m_states.size(); }
    std::size_t initialState() const { return m_initial; }
    int stateOf(std::size_t index) const { return m_states[index]; }
    std::size_t indexOf(int state) const;
    const ForecastPiece& piece(int slot) const { return m_pieces[static_cast<std::size_t>(slot)]; }
    bool canFinish() const { return m_canFinish; }
    // The transition into `to` in `slot` from `from` in the slot before; nullptr when not allowed.
    const SlotTransition* transition(int slot, std::size_t from, std::size_t to) const;

private:
    std::vector<ForecastPiece> m_pieces;
    std::vector<int> m_states;
    std::size_t m_initial = 0;
    bool m_canFinish = false;
    std::vector<std::optional<SlotTransition>> m_table; // [slot][from][to]
};

// A path through the graph: the state of each slot, its carbon and work.
struct SchedulePath {
    std::vector<std::size_t> states;
    double carbonG = 0.0;
    double work = 0.0;
    // lagrangianSchedule's: the highest (least carbon - lambda x work) + lambda x target over the
    // multipliers it tried. On a graph that cannot finish (no unused tail to credit) that is a lower bound
    // on every schedule meeting the target: the program's LP bound when the multiplier is the best one.
    double lagrangianBoundG = -std::numeric_limits<double>::infinity();
};

// The path of least carbon - lambda x work (a shortest path; lambda in g per work unit).
SchedulePath cheapestPath(const ScheduleGraph& graph, double lambda);

// A good schedule meeting `target` work, for seeding the branch and bound. The paths minimising
// carbon - lambda x work bracket the target as lambda is bisected (more lambda buys more work); the
// LP optimum mixes the two paths at the bracket, so the integer optimum is usually a few slot changes
// away from either, and both are improved by best single-slot changes. lambdaScale: a starting
// multiplier (g per work unit), widened until the target is met. Empty states when none meets it.
SchedulePath lagrangianSchedule(const ScheduleGraph& graph, double target, double lambdaScale);

// The scale of the work row's multiplier (its price, g per work unit) both the heuristic and the label
// search start from: the fastest option's grams per work unit in the graph's dirtiest slot.
double multiplierScale(const ScheduleGraph& graph, const CostModel& costs);

} // namespace carbon3d
