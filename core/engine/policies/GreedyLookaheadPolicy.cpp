// SPDX-License-Identifier: MIT
#include "engine/policies/GreedyLookaheadPolicy.h"

#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d {

// Recorded with the run in the shortest text that reads back to the same number (a run re-run from its
// record must decide the same); step_work and decide_on as in force (the job's own step when the option left
// it 0; the grid where steps are unknown or too short).
std::map<std::string, std::string> GreedyLookaheadPolicy::options() const {
    const auto flag = [](bool value) { return std::string(value ? "true" : "false"); };
    return {{"horizon_steps", shortestNumber(m_p.horizonSteps)},
            {"decide_every_steps", shortestNumber(m_p.decideEverySteps)},
            {"switch_s", shortestNumber(m_p.switchSeconds)},
            {"switch_w", shortestNumber(m_p.switchPowerW)},
            {"ema_alpha", shortestNumber(m_p.emaAlpha)},
            {"step_work", shortestNumber(m_stepWork > 0.0 ? m_stepWork : m_p.stepWork)},
            {"count_switch_time", flag(m_p.countSwitchTime)},
            {"launch", m_p.launchFastest ? "fastest" : "free"},
            {"cap_horizon", flag(m_p.capHorizon)},
            {"shift_window", flag(m_p.shiftWindow)},
            {"ci_sampling", m_p.perStepCarbon ? "per-step" : "integral"},
            {"decide_on", m_decideOnSteps ? "steps" : "grid"}};
}

void GreedyLookaheadPolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_warnings.clear();
    m_stepWork = m_p.stepWork;
    m_decideOnSteps = m_p.decideOnSteps;
    if (!(m_stepWork > 0.0)) {
        m_stepWork = context.input.workPerStep;
        if (!(m_stepWork > 0.0)) {
            // A measured table's unit: one unit is taken as one step (a table measured in steps/s). Decisions
            // every k such "steps" could come every microsecond (a table in tokens/s): they keep to the grid.
            m_stepWork = 1.0;
            m_decideOnSteps = false;
            m_warnings.emplace_back("greedy-lookahead: the menu is a measured table, whose unit says nothing "
                                    "of a training step; one unit of its work is taken as one step and it "
                                    "decides on the engine's decision points (set step_work to the work of "
                                    "one step otherwise)");
        }
    }
    m_powerW.clear();
    m_stepS.clear();
    for (int k = 0; k < context.costs.optionCount(); ++k) {
        m_powerW.push_back(context.costs.powerW(k));
        m_stepS.push_back(m_stepWork / context.costs.workRate(k));
    }
    const double fastestDecisionS = m_p.decideEverySteps * *std::min_element(m_stepS.begin(), m_stepS.end());
    if (m_decideOnSteps && !(fastestDecisionS >= kShortestStepDecisionS)) {
        m_decideOnSteps = false;
        m_warnings.emplace_back("greedy-lookahead: " + fixedNumber(m_p.decideEverySteps, 0) + " steps take " +
                                shortestNumber(fastestDecisionS) +
                                " s on the fastest option, less than a second: it decides on the engine's "
                                "decision points instead");
    }
    m_lastDecisionUtc = -1.0;
    m_launch = m_p.launchFastest ? context.costs.fastestOption() : kNotStarted;
}

void GreedyLookaheadPolicy::observe(int option) {
    // In this form an estimate equal to the measurement stays exactly what it was.
    const auto k = static_cast<std::size_t>(option);
    m_powerW[k] += m_p.emaAlpha * (m_costs->powerW(option) - m_powerW[k]);
    m_stepS[k] += m_p.emaAlpha * (m_stepWork / m_costs->workRate(option) - m_stepS[k]);
}

double GreedyLookaheadPolicy::stepsRemaining(double workRemaining) const {
    const double steps = workRemaining / m_stepWork;
    const double whole = std::round(steps);
    return std::abs(steps - whole) <= 1e-9 * std::max(1.0, whole) ? whole : std::ceil(steps);
}

double GreedyLookaheadPolicy::lookaheadCarbon(int option, int current, double now, double steps,
                                              const Forecast& forecast) const {
    const auto k = static_cast<std::size_t>(option);
    const bool switching = current >= 0 && option != current;
    double grams = switching ? m_p.switchPowerW * m_p.switchSeconds * (forecast.valueAt(now) / 3.6e6) : 0.0;
    const double from = now + (switching && m_p.shiftWindow ? m_p.switchSeconds : 0.0);
    if (!m_p.perStepCarbon)
        return grams + m_powerW[k] * forecast.integral(from, from + steps * m_stepS[k]) / 3.6e6;
    // The authors' sum: each step's energy at the intensity where that step starts.
    const double stepJ = m_powerW[k] * m_stepS[k];
    const auto n = static_cast<std::int64_t>(std::ceil(steps));
    return grams + stepJ * forecast.sampledSum(from, m_stepS[k], n) / 3.6e6;
}

int GreedyLookaheadPolicy::cheapestFeasible(const DecisionState& state, double& bestCost) const {
    const int current = state.currentOption;
    const double remaining = stepsRemaining(state.workRemaining);
    const double timeLeft = static_cast<double>(state.deadlineUtc) - state.nowSeconds;
    const double horizon = m_p.capHorizon ? std::min(m_p.horizonSteps, remaining) : m_p.horizonSteps;
    int best = -1;
    bestCost = std::numeric_limits<double>::infinity();
    for (int k = 0; k < m_costs->optionCount(); ++k) {
        const bool switching = current >= 0 && k != current;
        const double switchS = switching && m_p.countSwitchTime ? m_p.switchSeconds : 0.0;
        if (m_stepS[static_cast<std::size_t>(k)] * remaining > timeLeft - switchS)
            continue;
        const double cost = lookaheadCarbon(k, current, state.nowSeconds, horizon, state.forecast());
        if (cost < bestCost) {
            bestCost = cost;
            best = k;
        }
    }
    return best;
}

Decision GreedyLookaheadPolicy::decide(const DecisionState& state) {
    const int current = state.currentOption;
    if (current >= 0 && state.decisionIndex > 0) {
        observe(current);
        // On the engine's grid: re-decide only after k steps of the running option.
        if (!m_decideOnSteps && m_lastDecisionUtc >= 0.0 &&
            state.nowSeconds - m_lastDecisionUtc <
                m_p.decideEverySteps * m_stepS[static_cast<std::size_t>(current)])
            return {current, state.region,
                    state.explain ? "keeps its option until " + fixedNumber(m_p.decideEverySteps, 0) +
                                        " training steps have run"
                                  : ""};
    }
    double bestCost = 0.0;
    const int best = cheapestFeasible(state, bestCost);
    const int choice = best >= 0 ? best : m_costs->fastestOption();
    m_lastDecisionUtc = state.nowSeconds;
    Decision decision{choice, state.region};
    if (m_decideOnSteps)
        decision.trainWork = m_p.decideEverySteps * m_stepWork;
    if (state.explain)
        decision.reason = best >= 0
                              ? "of the options that still meet the deadline, the one of least forecast "
                                "emissions over its next " +
                                    fixedNumber(m_p.horizonSteps, 0) + " steps (" + carbonText(bestCost) + ")"
                              : std::string("no option meets the deadline: the fastest");
    return decision;
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
                    "true: the corrected form (feasibility counts the switch time)"),
         choiceOption("launch", "fastest", {"fastest", "free"},
                      "fastest: the job launches in the fastest option and a first choice of another pays "
                      "the switch (the authors'); free: it starts in its first choice"),
         flagOption("cap_horizon", true, "true: H is cut to the steps remaining (the authors')"),
         flagOption("shift_window", true,
                    "true: a switching option's window starts when its switch ends (the authors')"),
         choiceOption("ci_sampling", "per-step", {"per-step", "integral"},
                      "per-step: each step's energy at the intensity where it starts (the authors'); "
                      "integral: the exact integral over the window"),
         choiceOption("decide_on", "steps", {"steps", "grid"},
                      "steps: a decision exactly every k steps, at whatever time that is (the authors'); "
                      "grid: at the first of the engine's decision points after k steps")},
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
            p.launchFastest = o.text("launch") == "fastest";
            p.capHorizon = o.flag("cap_horizon");
            p.shiftWindow = o.flag("shift_window");
            p.perStepCarbon = o.text("ci_sampling") == "per-step";
            p.decideOnSteps = o.text("decide_on") == "steps";
            return std::make_unique<GreedyLookaheadPolicy>(p);
        }};
}

} // namespace carbon3d
