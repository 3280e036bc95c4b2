// SPDX-License-Identifier: MIT
#include "engine/Objective.h"

#include "engine/PriceModel.h"

#include <cmath>

namespace carbon3d {

namespace {

constexpr const char* kNames[] = {"carbon", "cost", "cost+carbon"};

double carbonUsdPerG(const SimulationInput& input, Objective objective) {
    return objective == Objective::CostPlusCarbon ? input.modelling.carbonPriceUsdPerT / 1e6 : 0.0;
}

double gpuUsdPerGpuS(const SimulationInput& input) {
    const double price = input.modelling.gpuPriceUsdPerHour;
    return std::isfinite(price) ? price / 3600.0
                                : 0.0; // unpriced GPUs cost nothing, as the engine counts them
}

} // namespace

const char* objectiveName(Objective objective) {
    return kNames[static_cast<int>(objective)];
}

std::optional<Objective> parseObjective(const std::string& text) {
    for (int i = 0; i < 3; ++i) {
        if (text == kNames[i])
            return static_cast<Objective>(i);
    }
    return std::nullopt;
}

SimulationInput planningInput(const SimulationInput& input, Objective objective) {
    SimulationInput view = input;
    if (objective == Objective::Carbon)
        return view;
    const CostModel costs(input);
    const PriceModel prices(input, costs);
    const double carbonPrice = carbonUsdPerG(input, objective);
    for (std::size_t r = 0; r < view.regions.size(); ++r) {
        CarbonTrace& trace = view.regions[r];
        for (std::size_t s = 0; s < trace.size(); ++s)
            trace.gPerKwh[s] = kObjectiveUnitsPerUsd * (prices.electricityUsdPerKwh(static_cast<int>(r), s) +
                                                        carbonPrice * trace.gPerKwh[s]);
        trace.marginalGPerKwh.clear();
    }
    return view;
}

CostModel::FixedCharges planningCharges(const SimulationInput& input, Objective objective) {
    if (objective == Objective::Carbon)
        return CostModel::FixedCharges{input.embodiedGPerGpuSecond, 0.0};
    const double embodied = carbonUsdPerG(input, objective) * input.embodiedGPerGpuSecond;
    const double gpu = gpuUsdPerGpuS(input);
    const bool reserved = input.modelling.gpuCapacity == ModellingOptions::GpuCapacity::Reserved;
    return CostModel::FixedCharges{kObjectiveUnitsPerUsd * (embodied + (reserved ? 0.0 : gpu)),
                                   kObjectiveUnitsPerUsd * (reserved ? gpu * input.gpusHeld : 0.0)};
}

} // namespace carbon3d
