// SPDX-License-Identifier: MIT
#include "engine/CostModel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace carbon3d {

CostModel::CostModel(const SimulationInput& input)
    : CostModel(input, FixedCharges{input.embodiedGPerGpuSecond, 0.0}) {}

CostModel::CostModel(const SimulationInput& input, const FixedCharges& charges)
    : m_held(input.gpusHeld)
    , m_gpusPerNode(std::max(1, input.gpusPerNode))
    , m_idleW(input.idlePowerPerGpuW)
    , m_nodeIdleW(input.idlePowerPerNodeW)
    , m_pue(input.pue)
    , m_embodiedGPerGpuS(charges.perChargedGpuS)
    , m_allocationPerS(charges.allocationPerS)
    , m_backfill(input.modelling.backfill)
    , m_overheadFraction(input.modelling.overheadPowerFraction)
    , m_overheadW(input.modelling.overheadPowerW)
    , m_reconfigurationS(std::round(input.modelling.reconfigurationSeconds))
    , m_resizeS(std::round(input.modelling.resizeSeconds))
    , m_preemptionS(std::round(input.modelling.preemptionSeconds)) {
    for (const ExecutionOption& option : input.menu) {
        m_rate.push_back(option.workPerSecond);
        m_activePowerW.push_back(option.activePowerW);
        m_active.push_back(option.gpusActive);
        m_configs.push_back(option.config);
    }
    m_byRate.resize(m_rate.size());
    std::iota(m_byRate.begin(), m_byRate.end(), 0);
    // Stable: equal throughputs keep menu order, so every tie-break below is deterministic.
    std::stable_sort(m_byRate.begin(), m_byRate.end(), [this](int a, int b) {
        return m_rate[static_cast<std::size_t>(a)] < m_rate[static_cast<std::size_t>(b)];
    });
    numberGroups();
    for (int k = 0; k < optionCount(); ++k) {
        const auto uk = static_cast<std::size_t>(k);
        const auto uf = static_cast<std::size_t>(m_fastest);
        // Fastest; among equally fast options the one drawing less power.
        if (m_rate[uk] > m_rate[uf] || (m_rate[uk] == m_rate[uf] && m_activePowerW[uk] < m_activePowerW[uf]))
            m_fastest = k;
    }
}

void CostModel::numberGroups() {
    // Each option joins the first earlier group whose first option it matches. Menus hold few distinct
    // configurations (the best per GPU count, times power limits that share them), so the search is short.
    std::vector<std::size_t> liveFirst;
    std::vector<std::size_t> shardFirst;
    const auto join = [](std::vector<std::size_t>& firsts, std::size_t option, auto&& same) {
        for (std::size_t g = 0; g < firsts.size(); ++g)
            if (same(firsts[g], option))
                return static_cast<int>(g);
        firsts.push_back(option);
        return static_cast<int>(firsts.size() - 1);
    };
    for (std::size_t k = 0; k < m_configs.size(); ++k) {
        m_liveGroup.push_back(join(liveFirst, k, [this](std::size_t a, std::size_t b) {
            return m_configs[a] == m_configs[b] && m_active[a] == m_active[b];
        }));
        // Everything but the replica count: what decides whether the model state must be resharded.
        m_shardGroup.push_back(join(shardFirst, k, [this](std::size_t a, std::size_t b) {
            ParallelConfig withReplicasOfB = m_configs[a];
            withReplicasOfB.dp = m_configs[b].dp;
            return withReplicasOfB == m_configs[b];
        }));
    }
    m_liveGroups = static_cast<int>(liveFirst.size());
    m_shardGroups = static_cast<int>(shardFirst.size());
}

int CostModel::activeGpus(int state) const {
    return state >= 0 ? m_active[static_cast<std::size_t>(state)] : 0;
}

int CostModel::heldGpus(int state) const {
    if (state == kNotStarted)
        return 0;
    // Fully backfilled parked GPUs go back to the pool: the job holds only the active ones.
    return m_backfill >= 1.0 ? activeGpus(state) : m_held;
}

int CostModel::parkedGpus(int state) const {
    return state == kNotStarted ? 0 : m_held - activeGpus(state);
}

double CostModel::chargedParkedShare() const {
    return 1.0 - m_backfill;
}

double CostModel::parkedItPowerW(int state) const {
    if (state == kNotStarted)
        return 0.0;
    const int parkedNodes = std::max(0, nodesFor(m_held) - nodesFor(activeGpus(state)));
    return parkedGpus(state) * m_idleW + parkedNodes * m_nodeIdleW;
}

double CostModel::powerW(int state) const {
    if (state == kNotStarted)
        return 0.0;
    const double active = state >= 0 ? m_activePowerW[static_cast<std::size_t>(state)] : 0.0;
    return (active + chargedParkedShare() * parkedItPowerW(state)) * m_pue;
}

double CostModel::overheadPowerW(int target) const {
    // The target's GPUs and nodes at idle (nothing computes while a checkpoint is saved, moved or
    // restored), plus the chosen share of what training adds on top of that.
    const double parked = chargedParkedShare() * parkedItPowerW(target);
    if (m_overheadW > 0.0)
        return (m_overheadW + parked) * m_pue;
    const double active = m_activePowerW[static_cast<std::size_t>(target)];
    const int gpus = activeGpus(target);
    const double idle = std::min(active, gpus * m_idleW + nodesFor(gpus) * m_nodeIdleW);
    return (idle + m_overheadFraction * (active - idle) + parked) * m_pue;
}

double CostModel::chargedGpus(int state) const {
    if (state == kNotStarted)
        return 0.0;
    return activeGpus(state) + chargedParkedShare() * parkedGpus(state);
}

double CostModel::embodiedGPerS(int state) const {
    return chargedGpus(state) * m_embodiedGPerGpuS + m_allocationPerS;
}

double CostModel::parkedCostRateGPerS(int state, double ciGPerKwh) const {
    return parkedItPowerW(state) * m_pue * ciGPerKwh / 3.6e6 + parkedGpus(state) * m_embodiedGPerGpuS;
}

double CostModel::transitionSeconds(int from, int to) const {
    if (to < 0 || from == to || from == kNotStarted)
        return 0.0; // pausing is instant (its checkpoint is charged at resume); the first start is free
    if (from == kPaused)
        return m_preemptionS; // restore from the checkpoint into the new configuration
    if (liveGroup(from) == liveGroup(to))
        return 0.0; // the same job at another power limit: nvidia-smi sets it while the job runs
    return shardGroup(from) == shardGroup(to) ? m_resizeS : m_reconfigurationS;
}

std::vector<double> CostModel::transitionDurations() const {
    std::vector<double> durations{0.0, m_preemptionS, m_resizeS, m_reconfigurationS};
    std::sort(durations.begin(), durations.end());
    durations.erase(std::unique(durations.begin(), durations.end()), durations.end());
    return durations;
}

} // namespace carbon3d
