// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"

#include <string>

namespace carbon3d {

// Numbers and names as a decision's reason prints them (Decision::reason): short, with their unit, so the
// studio's "why" panel reads "forecast 312 g/kWh above the threshold 280 g/kWh".
std::string intensityText(double gPerKwh);             // "312 g/kWh"
std::string carbonText(double grams);                  // "840 kg", "3.2 t"
std::string hoursText(double seconds);                 // "6 h", "1.5 h"
std::string perMillionTokensText(double gPerWorkUnit); // "41.3 g per million tokens"
// A state as the reason names it: "paused", "not started" or the option's label ("d16 t8 p4 b1 v1 full").
std::string stateText(const SimulationInput& input, int state);

} // namespace carbon3d
