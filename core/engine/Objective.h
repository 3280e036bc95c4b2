// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/PriceModel.h"
#include "engine/SimulationInput.h"

#include <optional>
#include <string>

namespace carbon3d {

// What an optimising policy minimises (its "objective" option): emissions (the default), cost, or cost plus
// the carbon price times emissions. Policies plan in grams; for another objective the engine hands them a
// planning view whose traces and charges are priced in that objective instead (docs/ENGINE.md
// "Objectives"), so every planner, the oracle included, optimises it without knowing which it is.
enum class Objective { Carbon, Cost, CostPlusCarbon };

const char* objectiveName(Objective objective); // "carbon", "cost", "cost+carbon"
std::optional<Objective> parseObjective(const std::string& text);

// A planning view's objective unit per USD: thousandths of a dollar, so that a kWh's price and the rates
// per second sit in the same numeric range as the grams the planners were written for.
inline constexpr double kObjectiveUnitsPerUsd = 1000.0;

// What a policy plans on under an objective, in its units. `input`: every region's trace replaced by the
// objective's price of a kWh in each slot (electricity, plus the carbon price of its emissions for
// cost+carbon), the marginal companions dropped (they are grams). `costs`: the same powers, rates and
// overheads, with the fixed charges beside energy replaced by what the capacity pays for GPUs
// (engine/PriceModel.h) plus, for cost+carbon, the carbon price of the embodied emissions.
struct PlanningView {
    SimulationInput input;
    CostModel costs;
};

// The view of `input` under `objective`, priced by `prices` (the engine's own PriceModel of `input`).
PlanningView planningView(const SimulationInput& input, const PriceModel& prices, Objective objective);

} // namespace carbon3d
