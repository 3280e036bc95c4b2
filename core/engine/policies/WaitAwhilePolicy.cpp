// SPDX-License-Identifier: MIT
#include "engine/policies/WaitAwhilePolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/PlanningTools.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d {

namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

int offsetAt(const std::string& zone, UtcSeconds t) {
    return utcOffsetSeconds(zone, t).value_or(0);
}

// 0 = Monday ... 6 = Sunday for a day number since 1970-01-01 (a Thursday).
int weekday(std::int64_t day) {
    return static_cast<int>(((day + 3) % 7 + 7) % 7);
}

// The UTC instant of 09:00 local time on local day `day`: converted with the offset in force at that
// instant (two passes handle a daylight-saving change between the ready time and the deadline).
UtcSeconds nineAmLocal(std::int64_t day, const std::string& zone) {
    const std::int64_t local = day * kSecondsPerDay + 9 * kSecondsPerHour;
    UtcSeconds utc = local - offsetAt(zone, local);
    utc = local - offsetAt(zone, utc);
    return utc;
}

} // namespace

UtcSeconds waitAwhileDeadline(WaitDeadlineRule rule, UtcSeconds readyUtc, double durationS,
                              const std::string& timeZone, UtcSeconds scenarioDeadlineUtc) {
    if (rule == WaitDeadlineRule::Scenario)
        return scenarioDeadlineUtc;
    const std::int64_t readyDay = floorDiv(readyUtc + offsetAt(timeZone, readyUtc), kSecondsPerDay);
    const double earliestEnd = static_cast<double>(readyUtc) + durationS;
    // Day after the ready day for the next workday; the ready day itself may hold a Monday/Thursday 09:00
    // still ahead for the semi-weekly rule.
    std::int64_t day = rule == WaitDeadlineRule::NextWorkday ? readyDay + 1 : readyDay;
    for (int guard = 0; guard < 3660; ++guard, ++day) {
        const int wd = weekday(day);
        const bool eligible = rule == WaitDeadlineRule::NextWorkday ? wd < 5 : (wd == 0 || wd == 3);
        if (!eligible)
            continue;
        const UtcSeconds candidate = nineAmLocal(day, timeZone);
        if (candidate > readyUtc && static_cast<double>(candidate) >= earliestEnd)
            return std::min(candidate, scenarioDeadlineUtc);
    }
    return scenarioDeadlineUtc;
}

std::map<std::string, std::string> WaitAwhilePolicy::options() const {
    const char* rule = m_rule == WaitDeadlineRule::Scenario      ? "scenario"
                       : m_rule == WaitDeadlineRule::NextWorkday ? "next-workday"
                                                                 : "semi-weekly";
    return {{"deadline_rule", rule}};
}

void WaitAwhilePolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_fastest = context.costs.fastestOption();
    const SimulationInput& input = context.input;
    const double durationS = input.totalWork / context.costs.workRate(m_fastest);
    m_windowEndUtc = waitAwhileDeadline(m_rule, input.startUtc, durationS, input.regions.front().timeZone,
                                        input.deadlineUtc);
    const UtcSeconds windowEnd = std::min(m_windowEndUtc, input.deadlineUtc);
    m_trueSlots.reset();
    if (m_interruptible &&
        forecastIsTheTruth(input.forecast, input.regions.front(), input.startUtc, windowEnd))
        m_trueSlots.emplace(input.regions.front(), input.startUtc, windowEnd);
}

Decision WaitAwhilePolicy::decide(const DecisionState& state) {
    if (!m_interruptible && state.currentOption >= 0) // started: never stops
        return {state.currentOption, state.region,
                state.explain ? "started: runs to the end without a break" : ""};
    const auto now = static_cast<double>(state.nowUtc);
    const auto windowEnd = static_cast<double>(std::min(m_windowEndUtc, state.deadlineUtc));
    const double needS = state.workRemaining / m_costs->workRate(m_fastest);
    if (now + needS >= windowEnd) // no slack left in the window
        return {m_fastest, state.region, state.explain ? "no slack left in the window: runs" : ""};
    // The truth's own slots answer without a forecast (in the start region: inside multi-region the job may
    // be elsewhere); a run that explains itself takes the path below, whose reason names the cut-off.
    if (m_trueSlots && state.region == 0 && !state.explain)
        return {m_trueSlots->currentAmongTheCheapest(state.nowUtc, needS) ? m_fastest : kPaused,
                state.region};
    const Forecast& forecast = state.forecast();
    const ReasonUnits units(objective());
    if (!m_interruptible) {
        const std::vector<ForecastPiece> pieces = forecast.pieces(now, windowEnd, false);
        // Candidate starts: now and every slot boundary after it while the job still fits.
        double bestStart = now;
        double bestMean = std::numeric_limits<double>::infinity();
        for (const ForecastPiece& piece : pieces) {
            const double start = piece.startUtc;
            if (start + needS > windowEnd + 1e-9)
                break;
            const double mean = rankingValue(forecast.integral(start, start + needS) / needS);
            if (mean < bestMean) { // ties: the earlier start
                bestMean = mean;
                bestStart = start;
            }
        }
        if (!state.explain)
            return {bestStart <= now ? m_fastest : kNotStarted, state.region};
        return {bestStart <= now ? m_fastest : kNotStarted, state.region,
                bestStart <= now
                    ? "now is the start of least mean forecast " + std::string(units.signal()) + " (" +
                          units.perKwh(bestMean) + ") over the job's " + hoursText(needS)
                    : "waits: starting " + hoursText(bestStart - now) + " later gives a mean forecast of " +
                          units.perKwh(bestMean) + " over the job's " + hoursText(needS) + " against " +
                          units.perKwh(forecast.integral(now, now + needS) / needS) + " now"};
    }
    // Interruptible: cheapest slots first (ties to the earlier slot) until the remaining time is covered.
    const std::vector<ForecastPiece> pieces = windowPieces(forecast, now, windowEnd);
    const double current = forecast.valueAt(now);
    if (amongTheCheapest(pieces, current, needS))
        return {m_fastest, state.region,
                state.explain ? "this slot (" + units.perKwh(current) + ") is among the " + units.cleanest() +
                                    " slots of the window that cover the remaining " + hoursText(needS)
                              : ""};
    return {kPaused, state.region,
            state.explain ? "pauses: " + std::string(units.cleaner()) + " slots up to " +
                                units.perKwh(dirtiestNeeded(pieces, needS)) + " cover the remaining " +
                                hoursText(needS) + "; this one forecasts " + units.perKwh(current)
                          : ""};
}

bool amongTheCheapest(const std::vector<ForecastPiece>& pieces, double current, double needS) {
    // The earliest slot wins ties, and the current slot is the earliest: only strictly cheaper slots come
    // before it. One pass, no sort: the rule needs their total, not their order.
    const double rank = rankingValue(current);
    double cheaper = 0.0;
    for (const ForecastPiece& piece : pieces)
        if (rankingValue(piece.ciGPerKwh) < rank)
            cheaper += piece.durationS;
    return cheaper < needS;
}

double dirtiestNeeded(const std::vector<ForecastPiece>& pieces, double needS) {
    std::vector<std::size_t> order(pieces.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&pieces](std::size_t a, std::size_t b) {
        return rankingValue(pieces[a].ciGPerKwh) < rankingValue(pieces[b].ciGPerKwh);
    });
    double covered = 0.0;
    double cutoff = 0.0;
    for (std::size_t i : order) {
        if (covered >= needS)
            break;
        covered += pieces[i].durationS;
        cutoff = pieces[i].ciGPerKwh;
    }
    return cutoff;
}

namespace {

PolicyOptionInfo deadlineRuleOption() {
    return choiceOption("deadline_rule", "scenario", {"scenario", "next-workday", "semi-weekly"},
                        "scenario | next-workday (09:00 local, next working day) | semi-weekly (next Mon/Thu "
                        "09:00 local)");
}

WaitDeadlineRule deadlineRule(const PolicyOptions& options) {
    const std::string& rule = options.text("deadline_rule");
    return rule == "next-workday"  ? WaitDeadlineRule::NextWorkday
           : rule == "semi-weekly" ? WaitDeadlineRule::SemiWeekly
                                   : WaitDeadlineRule::Scenario;
}

} // namespace

PolicyInfo waitAwhilePolicyInfo() {
    PolicyInfo info{
        "wait-awhile",
        "Non-interruptible shifting: start (fastest option) at the time of least mean forecast CI over the "
        "job's duration inside the window, then run to completion.",
        "Let's Wait Awhile (Wiesner et al., Middleware 2021)",
        {deadlineRuleOption(), objectiveOption()},
        {},
        {0xE69F00, LineDash::Solid, PlotMarker::Diamond},
        [](const PolicyOptions& o) { return std::make_unique<WaitAwhilePolicy>(false, deadlineRule(o)); }};
    info.traits.simplerPlan = SimplerPlan::Timing;
    return info;
}

PolicyInfo waitAwhileInterruptiblePolicyInfo() {
    PolicyInfo info{
        "wait-awhile-interruptible",
        "Interruptible shifting: run the fastest option in the K cheapest forecast slots of the window.",
        "Let's Wait Awhile (Wiesner et al., Middleware 2021)",
        {deadlineRuleOption(), objectiveOption()},
        {},
        {0xE69F00, LineDash::Dashed, PlotMarker::TriangleInverted},
        [](const PolicyOptions& o) { return std::make_unique<WaitAwhilePolicy>(true, deadlineRule(o)); }};
    info.traits.simplerPlan = SimplerPlan::Timing;
    return info;
}

} // namespace carbon3d
