// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/Objective.h"

#include <optional>
#include <string>

namespace carbon3d {

// Numbers and names as a decision's reason prints them (Decision::reason): short, with their unit, so the
// studio's "why" panel reads "forecast 312 g/kWh above the threshold 280 g/kWh".
std::string intensityText(double gPerKwh);             // "312 g/kWh"
std::string carbonText(double grams);                  // "840 kg", "3.2 t"
std::string hoursText(double seconds);                 // "6 h", "1.5 h"
std::string perMillionTokensText(double gPerWorkUnit); // "41.3 g per million tokens"
// What a planning policy's reasons say its planned numbers in. A policy plans in its objective's units
// (engine/Objective.h): grams for carbon, thousandths of a dollar for cost and cost+carbon. Reasons turn
// them back into what the user chose to minimise, so a cost plan's "why" reads "0.142 USD/kWh", not a
// price misread as grams.
class ReasonUnits {
public:
    explicit ReasonUnits(std::optional<Objective> objective);
    std::string perKwh(double value) const;           // "312 g/kWh" or "0.142 USD/kWh"
    std::string amount(double value) const;           // "840 kg" or "1.2 k USD"
    std::string perMillionTokens(double value) const; // "41.3 g per million tokens" or "0.53 USD per ..."
    const char* signal() const;                       // "intensity" or "price"
    const char* cleaner() const;                      // "cleaner" or "cheaper"
    const char* cleanest() const;                     // "cleanest" or "cheapest"
    const char* emissions() const;                    // "emissions" or "cost"
    const char* forecastUnit() const; // "gram of forecast carbon" or "dollar of forecast cost"

private:
    bool m_dollars = false;
};

// A state as the reason names it: "paused", "not started" or the option's label ("d16 t8 p4 b1 v1 full").
std::string stateText(const SimulationInput& input, int state);

} // namespace carbon3d
