// SPDX-License-Identifier: MIT
#include "engine/policies/OracleSeeds.h"

#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "engine/policies/Dynamic3dPolicy.h"

#include <algorithm>
#include <map>
#include <utility>

namespace carbon3d {

namespace {

// Runs a policy unchanged and writes down, per decision point, the state the engine put the job in: the
// state seen at the next decision (after any override of the hard-deadline guard), or for the last
// decision the one the policy returned.
class ScheduleRecorder : public Policy {
public:
    ScheduleRecorder(Policy& inner, std::vector<UtcSeconds> points)
        : m_inner(inner)
        , m_points(std::move(points)) {
        m_schedule.actions.assign(m_points.size(), kPaused);
        m_schedule.regions.assign(m_points.size(), 0);
    }
    std::string name() const override { return m_inner.name(); }
    void prepare(const PlanningContext& context) override { m_inner.prepare(context); }
    Decision decide(const DecisionState& state) override {
        record(m_last, state.currentOption, state.region); // what the previous decision became
        Decision decision = m_inner.decide(state);
        m_last = pointOf(state.nowUtc);
        // A pause keeps the job where it is; before the first start it waits, wherever it says.
        const bool started = state.currentOption != kNotStarted;
        record(m_last, decision.option < 0 ? (started ? kPaused : kNotStarted) : decision.option,
               decision.option < 0 && started ? state.region : decision.region);
        return decision;
    }
    OracleSchedule schedule() && { return std::move(m_schedule); }

private:
    std::optional<std::size_t> pointOf(UtcSeconds t) const {
        const auto it = std::lower_bound(m_points.begin(), m_points.end(), t);
        if (it == m_points.end() || *it != t)
            return std::nullopt;
        return static_cast<std::size_t>(it - m_points.begin());
    }
    void record(std::optional<std::size_t> point, int option, int region) {
        if (!point)
            return;
        m_schedule.actions[*point] = option;
        m_schedule.regions[*point] = region;
    }

    Policy& m_inner;
    std::vector<UtcSeconds> m_points;
    OracleSchedule m_schedule;
    std::optional<std::size_t> m_last; // the point of the previous decision, when it was on the grid
};

} // namespace

std::vector<OracleSchedule> catalogueSchedules(const PlanningContext& context) {
    const std::vector<UtcSeconds> points = context.decisionPoints();
    std::vector<OracleSchedule> schedules;
    for (const PolicyInfo& info : policyCatalog()) {
        // Not a planner on this input: the oracle itself, the ILP (seconds a run), and a policy whose runs
        // change the job or the menu (eadt: another input) unless what it changes is the price of moves,
        // which multi-region's default options leave as the scenario's.
        if (info.traits.perfectKnowledge || info.traits.solvesPrograms ||
            (info.traits.changesJobOrMenu && !info.traits.choosesRegion))
            continue;
        // dynamic-3d's own rule: the simpler plans it would weigh first are seeds of their own.
        std::map<std::string, std::string> options;
        if (info.name == "dynamic-3d")
            options[kComparePlansKey] = "false";
        const std::unique_ptr<Policy> policy = makePolicy({info.name, options});
        ScheduleRecorder recorder(*policy, points);
        SimulationHooks hooks;
        hooks.cancel = context.cancel;
        try {
            if (simulate(context.input, recorder, hooks).cancelled)
                throw PlanningCancelled{};
        } catch (const InputError&) {
            continue; // this policy cannot run the input: it offers no schedule
        }
        OracleSchedule schedule = std::move(recorder).schedule();
        schedule.source = info.name;
        schedules.push_back(std::move(schedule));
    }
    return schedules;
}

} // namespace carbon3d
