// SPDX-License-Identifier: MIT
#include "engine/policies/GreedyLookaheadPolicy.h"

#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"

#include <limits>

namespace carbon3d {

// Recorded with the run in the shortest text that reads back to the same number (a run re-run from its
// record must decide the same); step_work as in force, the job's own step when the option left it 0.
std::map<std::string, std::string> GreedyLookaheadPolicy::options() const {
    return {{"horizon_steps", shortestNumber(m_p.horizonSteps)},
            {"decide_every_steps", shortestNumber(m_p.decideEverySteps)},
            {"switch_s", shortestNumber(m_p.switchSeconds)},
            {"switch_w", shortestNumber(m_p.switchPowerW)},
            {"ema_alpha", shortestNumber(m_p.emaAlpha)},
            {"step_work", shortestNumber(m_stepWork > 0.0 ? m_stepWork : m_p.stepWork)},
            {"count_switch_time", m_p.countSwitchTime ? "true" : "false"}};
}

void GreedyLookaheadPolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_warnings.clear();
    m_stepWork = m_p.stepWork;
    if (!(m_stepWork > 0.0)) {
        m_stepWork = context.input.workPerStep;
        if (!(m_stepWork > 0.0)) {
            // A measured table's unit: one unit is taken as one step (a table measured in steps/s).
            m_stepWork = 1.0;
            m_warnings.emplace_back("greedy-lookahead: the menu is a measured table, whose unit says nothing "
                                    "of a training step; one unit of its work is taken as one step (set "
                                    "step_work to the work of one step otherwise)");
        }
    }
    m_powerW.clear();
    m_stepS.clear();
    for (int k = 0; k < context.costs.optionCount(); ++k) {
        m_powerW.push_back(context.costs.powerW(k));
        m_stepS.push_back(m_stepWork / context.costs.workRate(k));
    }
    m_lastDecisionUtc = -1.0;
    m_choice = kNotStarted;
}

Decision GreedyLookaheadPolicy::decide(const DecisionState& state) {
    const CostModel& costs = *m_costs;
    const auto now = static_cast<double>(state.nowUtc);
    const int current = state.currentOption;
    if (current >= 0) {
        // Measurement of the interval just run (the engine's numbers): refine the estimates.
        const auto c = static_cast<std::size_t>(current);
        m_powerW[c] = (1.0 - m_p.emaAlpha) * m_powerW[c] + m_p.emaAlpha * costs.powerW(current);
        m_stepS[c] = (1.0 - m_p.emaAlpha) * m_stepS[c] + m_p.emaAlpha * m_stepWork / costs.workRate(current);
        // Re-decide only after k steps of the running option.
        if (m_lastDecisionUtc >= 0.0 && now - m_lastDecisionUtc < m_p.decideEverySteps * m_stepS[c])
            return {current, state.region,
                    state.explain ? "keeps its option until " + fixedNumber(m_p.decideEverySteps, 0) +
                                        " training steps have run"
                                  : ""};
    }
    const Forecast& forecast = state.forecast();
    const auto deadline = static_cast<double>(state.deadlineUtc);
    int best = -1;
    double bestCost = std::numeric_limits<double>::infinity();
    for (int k = 0; k < costs.optionCount(); ++k) {
        const auto uk = static_cast<std::size_t>(k);
        const bool switching = current >= 0 && k != current;
        const double switchS = switching && m_p.countSwitchTime ? m_p.switchSeconds : 0.0;
        const double finish = now + switchS + state.workRemaining / m_stepWork * m_stepS[uk];
        if (finish > deadline)
            continue;
        const double span = m_p.horizonSteps * m_stepS[uk];
        double cost = m_powerW[uk] * forecast.integral(now, now + span) / 3.6e6;
        if (switching)
            cost += m_p.switchPowerW * m_p.switchSeconds * forecast.valueAt(now) / 3.6e6;
        if (cost < bestCost) {
            bestCost = cost;
            best = k;
        }
    }
    m_choice = best >= 0 ? best : costs.fastestOption();
    m_lastDecisionUtc = now;
    if (!state.explain)
        return {m_choice, state.region};
    return {m_choice, state.region,
            best >= 0
                ? "of the options that still meet the deadline, the one of least forecast emissions over its "
                  "next " +
                      fixedNumber(m_p.horizonSteps, 0) + " steps (" + carbonText(bestCost) + ")"
                : std::string("no option meets the deadline: the fastest")};
}

PolicyInfo greedyLookaheadPolicyInfo() {
    return {
        "greedy-lookahead",
        "Every k steps, the option that can still meet the deadline with the least forecast carbon over the "
        "next H steps, counting a switch cost (the authors' prototype; faithful: feasibility ignores switch "
        "time).",
        "Prototype policy of the dynamic-parallelism authors (Aboualim and Lee; docs/MODEL.md 9.4)",
        {numberOption("horizon_steps", "200", 1, 1e9, "lookahead H, training steps"),
         numberOption("decide_every_steps", "50", 0, 1e9, "re-decide after k steps, training steps"),
         numberOption("switch_s", "60", 0, 1e6, "switch cost assumed by the policy: time, s"),
         numberOption("switch_w", "600", 0, 1e9, "switch cost assumed by the policy: power, W"),
         numberOption("ema_alpha", "0.3", 0, 1, "EMA weight of new power / step-time measurements"),
         numberOption("step_work", "0", 0, 1e18,
                      "work units per training step; 0: the job's (its global batch's tokens; one unit of a "
                      "measured table, with a warning)"),
         flagOption("count_switch_time", false,
                    "true: the corrected form (feasibility counts the switch time)")},
        {},
        {0xD55E00, LineDash::Dashed, PlotMarker::Plus},
        [](const PolicyOptions& o) {
            LookaheadParameters p;
            p.horizonSteps = o.number("horizon_steps");
            p.decideEverySteps = o.number("decide_every_steps");
            p.switchSeconds = o.number("switch_s");
            p.switchPowerW = o.number("switch_w");
            p.emaAlpha = o.number("ema_alpha");
            p.stepWork = o.number("step_work");
            p.countSwitchTime = o.flag("count_switch_time");
            return std::make_unique<GreedyLookaheadPolicy>(p);
        }};
}

} // namespace carbon3d
