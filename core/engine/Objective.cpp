// SPDX-License-Identifier: MIT
#include "engine/Objective.h"

#include <iterator>

namespace carbon3d {

namespace {

constexpr const char* kNames[] = {"carbon", "cost", "cost+carbon"};

} // namespace

const char* objectiveName(Objective objective) {
    return kNames[static_cast<int>(objective)];
}

std::optional<Objective> parseObjective(const std::string& text) {
    for (std::size_t i = 0; i < std::size(kNames); ++i) {
        if (text == kNames[i])
            return static_cast<Objective>(i);
    }
    return std::nullopt;
}

PlanningView planningView(const SimulationInput& input, const PriceModel& prices, Objective objective) {
    if (objective == Objective::Carbon)
        return {input, CostModel(input)};
    SimulationInput view = input;
    const double carbonUsdPerG = objective == Objective::CostPlusCarbon ? prices.carbonUsdPerG() : 0.0;
    for (std::size_t r = 0; r < view.regions.size(); ++r) {
        CarbonTrace& trace = view.regions[r];
        for (std::size_t s = 0; s < trace.size(); ++s)
            trace.gPerKwh[s] = kObjectiveUnitsPerUsd * (prices.electricityUsdPerKwh(static_cast<int>(r), s) +
                                                        carbonUsdPerG * trace.gPerKwh[s]);
        trace.marginalGPerKwh.clear();
    }
    // GPU-hours as PriceModel::gpuUsdPerS charges them: per charged GPU, or the whole allocation in every
    // state when reserved.
    const double gpu = prices.gpuUsdPerGpuS();
    const CostModel::FixedCharges charges{
        kObjectiveUnitsPerUsd *
            (carbonUsdPerG * input.embodiedGPerGpuSecond + (prices.reserved() ? 0.0 : gpu)),
        kObjectiveUnitsPerUsd * (prices.reserved() ? gpu * input.gpusHeld : 0.0)};
    CostModel costs(view, charges);
    return {std::move(view), std::move(costs)};
}

} // namespace carbon3d
