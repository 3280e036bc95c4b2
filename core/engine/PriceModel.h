// SPDX-License-Identifier: MIT
#pragma once

#include "engine/CostModel.h"
#include "engine/SimulationInput.h"

#include <cstddef>
#include <string>

namespace carbon3d {

// What a run pays, as the engine charges it (docs/ENGINE.md "Cost"): GPU-hours by the scenario's capacity,
// facility energy at the region's electricity price, and emissions at the carbon price. Policies planning
// for cost see the same numbers through engine/Objective.h.
class PriceModel {
public:
    PriceModel(const SimulationInput& input, const CostModel& costs);

    // USD per second for the GPUs in `state`. On demand and spot: the GPUs the attribution charges
    // (CostModel::chargedGpus, nothing before the start). Reserved: every GPU of the allocation, in every
    // state from the scenario's start, waiting and paused included: a reservation is paid whether used or
    // not.
    double gpuUsdPerS(int state) const;
    // USD per kWh in `region` during slot `slot` of its carbon trace: its price trace, else the flat price.
    double electricityUsdPerKwh(int region, std::size_t slot) const;
    double carbonUsdPerG() const { return m_carbonUsdPerG; }
    // The price of one GPU for a second (0 when unpriced), and whether the capacity is reserved: what
    // gpuUsdPerS charges, for the planning view of engine/Objective.h.
    double gpuUsdPerGpuS() const { return m_gpuUsdPerGpuS; }
    bool reserved() const { return m_reserved; }
    // False when neither the scenario nor the cluster gives a GPU-hour price: GPU cost is then 0.
    bool gpusPriced() const { return m_gpusPriced; }

private:
    const SimulationInput& m_in;
    const CostModel& m_costs;
    double m_gpuUsdPerGpuS = 0.0;
    double m_carbonUsdPerG = 0.0;
    bool m_reserved = false;
    bool m_gpusPriced = false;
};

} // namespace carbon3d
