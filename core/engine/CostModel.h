// SPDX-License-Identifier: MIT
#pragma once

#include "engine/SimulationInput.h"

#include <vector>

namespace carbon3d {

// States of a job between decisions. Menu options are 0..K-1; these two are not on the menu.
constexpr int kNotStarted = -2; // queued: holds no GPUs, draws nothing (starting is free)
constexpr int kPaused = -1;     // started, then suspended from a checkpoint

// Power, embodied rate and throughput of every state, as the engine charges them. Policies and
// the oracle use the same numbers, so a plan's forecast cost and the engine's accounting agree.
class CostModel {
public:
    // What is charged per second beside energy: per charged GPU (embodied carbon: the input's embodied rate)
    // and, in every state from the start to the completion, for the whole allocation (nothing in grams; a
    // reservation when a policy plans for cost, engine/Objective.h).
    struct FixedCharges {
        double perChargedGpuS = 0.0;
        double allocationPerS = 0.0;
    };
    explicit CostModel(const SimulationInput& input);
    CostModel(const SimulationInput& input, const FixedCharges& charges);

    int optionCount() const { return static_cast<int>(m_rate.size()); }
    double workRate(int state) const { return state >= 0 ? m_rate[static_cast<std::size_t>(state)] : 0.0; }
    // Facility power (IT x PUE) while in `state`, W.
    double powerW(int state) const;
    // Facility power during a reconfiguration/preemption/migration into option `target`, W: its GPUs and
    // nodes at idle plus overhead_power_fraction of what training would add.
    double overheadPowerW(int target) const;
    // GPUs allocated to the job: every GPU once started, or only the active ones when backfill is 1.
    int heldGpus(int state) const;
    int activeGpus(int state) const;
    // GPUs allocated but not training in `state` (for an overhead: short of the target's active ones).
    int parkedGpus(int state) const;
    // The share of parked GPUs' idle power and embodied carbon this job is charged: 1 - backfill.
    double chargedParkedShare() const;
    // The GPUs `state` is charged for: the active ones and the charged share of the parked ones (0 before the
    // start). What embodied carbon and on-demand GPU-hours are charged by.
    double chargedGpus(int state) const;
    // Embodied carbon charged per second in `state`: embodiedGPerGpuSecond x chargedGpus(state). (In a
    // planning view, engine/Objective.h, every fixed charge of the objective, in its units.)
    double embodiedGPerS(int state) const;
    // What the parked GPUs of `state` emit per second, all of it (before the charged share): what
    // separates a run's dedicated end (backfill 0) from its shared end (backfill 1).
    double parkedCostRateGPerS(int state, double ciGPerKwh) const;
    // gCO2e per second in `state` at carbon intensity ci (g/kWh): operational + embodied.
    double costRateGPerS(int state, double ciGPerKwh) const {
        return powerW(state) * ciGPerKwh / 3.6e6 + embodiedGPerS(state);
    }
    double overheadCostRateGPerS(int target, double ciGPerKwh) const {
        return overheadPowerW(target) * ciGPerKwh / 3.6e6 + embodiedGPerS(target);
    }
    // Seconds of no progress when moving from `from` to `to` (same region): a restore from the checkpoint
    // after a pause; between two options, nothing within a live group (only the power limit changes, set
    // live), a resize within a shard group (only data parallelism changes, no reshard), else a
    // reconfiguration (docs/ENGINE.md).
    double transitionSeconds(int from, int to) const;
    // The groups transitionSeconds reads, numbered from 0 in menu order: options with the same
    // configuration on the same GPUs (they differ in power limit only), and options whose configurations
    // differ in data parallelism at most (every live group is inside one shard group). The oracle plans
    // with them in time linear in the menu (engine/policies/OracleSolver.cpp).
    int liveGroup(int option) const { return m_liveGroup[static_cast<std::size_t>(option)]; }
    int shardGroup(int option) const { return m_shardGroup[static_cast<std::size_t>(option)]; }
    int liveGroupCount() const { return m_liveGroups; }
    // The three durations transitionSeconds returns beside 0, s (rounded to whole seconds).
    double resumeSeconds() const { return m_preemptionS; }
    double resizeSeconds() const { return m_resizeS; }
    double reconfigurationSeconds() const { return m_reconfigurationS; }
    int shardGroupCount() const { return m_shardGroups; }
    // Every distinct value transitionSeconds can return, ascending, 0 first (the oracle tabulates by them).
    std::vector<double> transitionDurations() const;
    int fastestOption() const { return m_fastest; }
    const std::vector<int>& optionsByRate() const { return m_byRate; } // ascending throughput

private:
    void numberGroups();
    // Idle power of all parked GPUs in `state` and of the held nodes none of whose GPUs is active (an
    // active node's overhead is in its option's power), before PUE and the charged share.
    double parkedItPowerW(int state) const;
    int nodesFor(int gpus) const { return (gpus + m_gpusPerNode - 1) / m_gpusPerNode; }

    std::vector<double> m_rate;
    std::vector<double> m_activePowerW;
    std::vector<int> m_active;
    std::vector<ParallelConfig> m_configs;
    std::vector<int> m_byRate;
    std::vector<int> m_liveGroup;
    std::vector<int> m_shardGroup;
    int m_liveGroups = 0;
    int m_shardGroups = 0;
    int m_held = 0;
    int m_gpusPerNode = 1;
    double m_idleW = 0.0;
    double m_nodeIdleW = 0.0;
    double m_pue = 1.0;
    double m_embodiedGPerGpuS = 0.0;
    double m_allocationPerS = 0.0;
    double m_backfill = 0.0;
    double m_overheadFraction = 0.0;
    double m_overheadW = 0.0; // a stated overhead power, W; 0: by the fraction
    double m_reconfigurationS = 0.0;
    double m_resizeS = 0.0;
    double m_preemptionS = 0.0;
    int m_fastest = 0;
};

} // namespace carbon3d
