// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"
#include "engine/CostModel.h"
#include "engine/Objective.h"
#include "engine/SimulationInput.h"
#include "engine/forecast/Forecast.h"

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace carbon3d {

// What a policy returns at a decision point: a menu index, or kPaused; and the region to run in.
struct Decision {
    int option = kPaused;
    int region = 0;
    // Why, in the policy's own terms (its threshold against the forecast, its price against the options'
    // carbon per token), for the studio's "why" panel. Filled only when DecisionState::explain is set:
    // a study's thousands of cells do not pay for text nobody reads.
    std::string reason = {};
    // How long to train before pausing until the next decision point, s (after the decision's overhead);
    // 0: to the next decision point. Part of a slot, as CarbonScaler runs the slot it trims its
    // overshoot from; rounded up to the engine's whole second.
    double trainSeconds = 0.0;
    // How much work to train (after the decision's overhead) before deciding again, work units; 0: to the
    // next decision point. The next decision comes the moment that work is done, inside a second if that is
    // where it ends, and the decision points in between are skipped: the dynamic-parallelism authors'
    // prototype decides every k training steps, whatever time that takes. Not with trainSeconds.
    double trainWork = 0.0;
};

// What a policy sees at a decision point. The forecast is computed on first use (static policies
// never pay for it) and is never the truth unless the forecast kind is the oracle.
struct DecisionState {
    UtcSeconds nowUtc = 0; // the whole second of nowSeconds
    // The exact time: a whole second unless the previous decision asked for an amount of work
    // (Decision::trainWork), which ends where it ends.
    double nowSeconds = 0.0;
    UtcSeconds deadlineUtc = 0;
    double workDone = 0.0;
    double workRemaining = 0.0;
    int currentOption = kNotStarted; // menu index, kPaused or kNotStarted
    int region = 0;
    std::size_t decisionIndex = 0; // 0 at the start, +1 per decision point reached
    bool explain = false;          // fill Decision::reason
    std::function<const Forecast&()> forecast;
};

// Fixed for the whole run: the input (with the true traces: only the oracle may look at their
// future) and the cost model the engine charges.
struct PlanningContext {
    const SimulationInput& input;
    const CostModel& costs;
    std::function<std::vector<UtcSeconds>()> decisionPoints; // every decision time in [start, deadline]
    // Set (from any thread) when the run is cancelled: long planners (the oracle) poll it and stop early;
    // the engine then ends the run without deciding anything.
    const std::atomic<bool>* cancel = nullptr;
};

// Thrown by a planner that saw PlanningContext::cancel; the engine turns it into a cancelled run.
struct PlanningCancelled {};

// What a policy may look at when it asks for a changed input: the scenario the input was made from, and
// whether its menu is a measured operating-points table (which no lever can rebuild).
struct InputAdaptation {
    const Scenario& scenario;
    bool measuredMenu = false;
};

// A scheduling policy. One instance per run (policies may keep state between decisions).
class Policy {
public:
    virtual ~Policy() = default;
    virtual std::string name() const = 0;
    // The options in force, defaults included (recorded in RunResult::options).
    virtual std::map<std::string, std::string> options() const { return {}; }
    // A changed input for this run, or nullopt to run the scenario's own. The engine charges its input's
    // menu, work and migration time, so a policy whose idea changes those (EADT's levers rebuild the menu
    // and add work; multi-region can price a checkpoint-sized migration) says so here. core/runner applies
    // it to every policy alike, before prepare().
    virtual std::optional<SimulationInput> adaptInput(const InputAdaptation& adaptation,
                                                      const SimulationInput& input) {
        (void)adaptation;
        (void)input;
        return std::nullopt;
    }
    // Called once before the first decision.
    virtual void prepare(const PlanningContext& context) { (void)context; }
    virtual Decision decide(const DecisionState& state) = 0;
    // The option the job is running in when the first decision comes, for a policy that models a launch
    // configuration (the authors' prototype starts in it and pays a switch to leave it); kNotStarted: the
    // job starts, free, in whatever the first decision picks. Read after prepare().
    virtual int launchOption() const { return kNotStarted; }
    // True for the offline optimum: it plans on the true traces, not on a forecast.
    virtual bool perfectKnowledge() const { return false; }
    // Messages for RunResult::warnings (e.g. the oracle's duality gap).
    virtual std::vector<std::string> warnings() const { return {}; }

    // What it minimises, when it declares an "objective" option (makePolicy sets it): the engine then hands
    // it a planning view priced in that objective (engine/Objective.h). Empty for the other policies.
    std::optional<Objective> objective() const { return m_objective; }
    void setObjective(Objective objective) { m_objective = objective; }

private:
    std::optional<Objective> m_objective;
};

} // namespace carbon3d
