// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"
#include "engine/policies/CheaperSlots.h"

#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// CarbonScaler's plan over forecast pieces (Hanafy et al., SIGMETRICS 2024): `ladder` are menu options in
// increasing scale; item (piece i, step j) adds rate[j] - rate[j-1] work units/s at a marginal carbon rate
// cost(j, CI_i) - cost(j-1, CI_i) (step 0 is measured from a pause). Items are taken in decreasing
// value = marginal throughput / marginal carbon rate, each only as the next step of its piece, until the
// work is covered. With no embodied term that varies by scale the value is the paper's
// marginal throughput / (marginal power x CI).
struct ScalePlan {
    bool feasible = false;    // every piece at the top of the ladder still leaves work undone when false
    std::vector<int> steps;   // per piece: -1 = paused, else index into the ladder
    double plannedWork = 0.0; // work the taken items cover
};
ScalePlan planCarbonScaler(const CostModel& costs, const std::vector<int>& ladder,
                           const std::vector<ForecastPiece>& pieces, double work);

// Where the plan's surplus comes off, as the paper's code does it (umassos/carbonAdvisor, CarbonScaleAgent):
// the plan's last item covers more than the work left, and the piece of highest carbon per unit of work at
// its planned size (the earlier of equals) runs for that much less time. A surplus larger than that piece's
// whole work (the agent would give the piece a negative share) takes all of it and the rest from the next
// dirtiest piece, and so on. Empty when the plan covers the work exactly or covers too little.
struct OvershootTrim {
    std::size_t piece = 0;
    double cutWork = 0.0;    // work units taken off the piece
    double runSeconds = 0.0; // what is left of the piece's duration; 0: it pauses throughout
};
std::vector<OvershootTrim> overshootTrims(const CostModel& costs, const std::vector<int>& ladder,
                                          const std::vector<ForecastPiece>& pieces, const ScalePlan& plan,
                                          double work);

// One step up the ladder: what it adds in throughput, and the lower and upper states' facility power and
// embodied rate, looked up once.
struct ScaleStep {
    double rate; // what the step adds, work units/s
    double lowerPowerW;
    double lowerEmbodiedGPerS;
    double upperPowerW;
    double upperEmbodiedGPerS;
    // The item's worth at carbon intensity ci: added throughput / added carbon rate, to 9 significant
    // digits (rankingValue); infinite where the step adds no carbon.
    double valueAt(double ci) const;
};
std::vector<ScaleStep> scaleSteps(const CostModel& costs, const std::vector<int>& ladder);

// The scale ladder of a menu: per active GPU count the fastest option, kept only while throughput grows
// with the GPU count (a larger size that is not faster is never worth its power).
std::vector<int> scaleLadder(const ExecutionMenu& menu);

// Each decision re-plans the remaining work on the current forecast to the deadline and runs the size
// the plan gives the current slot. A deadline too tight for the plan (overheads have eaten the slack)
// runs the largest size and records one warning; an infeasible job is refused by the engine up front. When
// the forecast is the truth to the deadline and every step's worth falls with the carbon intensity, the
// current slot's step is read from the trace's slots ahead (CheaperSlots) with the same result, in
// O(steps^2 log n) a decision instead of a plan over the whole window.
class CarbonScalerPolicy : public Policy {
public:
    // How the plan's overshoot is spent: cut from the piece of highest carbon per unit of work (the
    // paper's code, the default), or left to the end, the job finishing part-way through its last slot.
    enum class Overshoot { TrimDirtiest, FinishEarly };
    explicit CarbonScalerPolicy(Overshoot overshoot = Overshoot::TrimDirtiest)
        : m_overshoot(overshoot) {}
    std::string name() const override { return "carbonscaler"; }
    std::map<std::string, std::string> options() const override;
    void prepare(const PlanningContext& context) override;
    Decision decide(const DecisionState& state) override;
    std::vector<std::string> warnings() const override { return m_warnings; }
    // Whether the last prepared run reads the truth's slots rather than planning at each decision.
    bool readsTheTruth() const { return m_trueSlots.has_value(); }

private:
    // The plan over the forecast to the deadline, and the current slot's share of it.
    Decision planned(const DecisionState& state);
    // Whether the decision at `now` decides afresh where the surplus comes off: at the first plan, and in
    // each slot the last such decision named.
    bool retrimsAt(UtcSeconds now) const;

    Overshoot m_overshoot;
    // The starts of the slots the last plan takes its surplus off: on the truth the plan is made again
    // there (the fast path reads the step, not the trim). Unknown before the first plan.
    std::vector<double> m_trimSlotsUtc;
    bool m_trimSlotsKnown = false;
    double m_slotSeconds = 0.0;  // the start region's trace step
    double m_reservedWork = 0.0; // the last plan's surplus still to come off later slots (work units)
    const CostModel* m_costs = nullptr;
    std::vector<int> m_ladder;
    std::vector<ScaleStep> m_steps;
    std::vector<std::string> m_warnings;
    std::optional<CheaperSlots> m_trueSlots; // the window's slots, when the forecast is the truth
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo carbonScalerPolicyInfo();

} // namespace carbon3d
