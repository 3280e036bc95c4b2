// SPDX-License-Identifier: MIT
#include "engine/PriceModel.h"

#include <cmath>

namespace carbon3d {

PriceModel::PriceModel(const SimulationInput& input, const CostModel& costs)
    : m_in(input)
    , m_costs(costs)
    , m_carbonUsdPerG(input.modelling.carbonPriceUsdPerT / 1e6)
    , m_reserved(input.modelling.gpuCapacity == ModellingOptions::GpuCapacity::Reserved)
    , m_gpusPriced(std::isfinite(input.modelling.gpuPriceUsdPerHour)) {
    if (m_gpusPriced)
        m_gpuUsdPerGpuS = input.modelling.gpuPriceUsdPerHour / 3600.0;
}

double PriceModel::gpuUsdPerS(int state) const {
    const double gpus = m_reserved ? static_cast<double>(m_in.gpusHeld) : m_costs.chargedGpus(state);
    return gpus * m_gpuUsdPerGpuS;
}

double PriceModel::electricityUsdPerKwh(int region, std::size_t slot) const {
    const auto r = static_cast<std::size_t>(region);
    if (r < m_in.electricityUsdPerKwh.size() && !m_in.electricityUsdPerKwh[r].empty())
        return m_in.electricityUsdPerKwh[r][slot];
    return m_in.modelling.electricityUsdPerKwh;
}

} // namespace carbon3d
