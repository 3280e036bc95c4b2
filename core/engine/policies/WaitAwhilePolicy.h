// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"
#include "engine/policies/CheaperSlots.h"

#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// Let's Wait Awhile's deadline rules (Wiesner et al., Middleware 2021), in the region's local time:
// Scenario = the scenario's deadline; NextWorkday = 09:00 local on a working day (Mon-Fri) after the day
// the job becomes ready; SemiWeekly = 09:00 local on the next Monday or Thursday after the ready time
// (results are collected twice a week). Our reading: the first such time by which the job can still
// finish at full speed (a job longer than the gap rolls to the next occurrence), capped by the scenario
// deadline.
enum class WaitDeadlineRule { Scenario, NextWorkday, SemiWeekly };

// The deadline a rule gives a job ready at `readyUtc` that needs `durationS` seconds, in zone `timeZone`
// (IANA; unknown zones are treated as UTC). Scenario returns scenarioDeadlineUtc.
UtcSeconds waitAwhileDeadline(WaitDeadlineRule rule, UtcSeconds readyUtc, double durationS,
                              const std::string& timeZone, UtcSeconds scenarioDeadlineUtc);

// Interruptible Wait Awhile's rule at one decision: true when the current slot, forecast at `current`, is
// among the cheapest slots of the window that cover `needS` seconds, ties going to the earlier slot (the
// current one is the earliest). That is when the strictly cheaper slots cover less than needS, so the rule
// reads values and durations only: the pieces may group a slot of day's days (windowPieces), and one pass
// decides (a sort of the whole window at every decision made 5-minute quarter-years take minutes).
bool amongTheCheapest(const std::vector<ForecastPiece>& pieces, double current, double needS);
// The dirtiest value the cheapest slots covering needS reach (the rule's cut-off, for its reason).
double dirtiestNeeded(const std::vector<ForecastPiece>& pieces, double needS);

// Non-interruptible: start at the slot boundary that minimises the mean forecast CI over the job's
// duration (at the fastest option) inside the window, then run to completion. Interruptible: run the
// fastest option in the K cheapest forecast slots of the window, K the slots the remaining work needs.
// Both plan on the forecast at every decision (the interruptible plan with the work still remaining);
// neither counts pause/resume overheads, as in the paper: the engine charges them and its deadline
// guard forces the job to run when overheads have eaten the slack.
class WaitAwhilePolicy : public Policy {
public:
    WaitAwhilePolicy(bool interruptible, WaitDeadlineRule rule)
        : m_interruptible(interruptible)
        , m_rule(rule) {}
    std::string name() const override {
        return m_interruptible ? "wait-awhile-interruptible" : "wait-awhile";
    }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;

private:
    bool m_interruptible;
    WaitDeadlineRule m_rule;
    const CostModel* m_costs = nullptr;
    int m_fastest = 0;
    UtcSeconds m_windowEndUtc = 0;
    // Interruptible, on a forecast that is the truth to the window's end: the start region's slots, ready
    // to answer the rule in O(log n) a decision instead of a pass over the window.
    std::optional<CheaperSlots> m_trueSlots;
};

// The two policies' entries in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo waitAwhilePolicyInfo();
PolicyInfo waitAwhileInterruptiblePolicyInfo();

} // namespace carbon3d
