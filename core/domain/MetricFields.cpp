// SPDX-License-Identifier: MIT
#include "domain/MetricFields.h"

#include <stdexcept>

namespace carbon3d {

const std::vector<MetricField>& metricFields() {
    using M = RunMetrics;
    // Divisors, not factors: 1e-3 is not exact in binary, and g / 1000 is what the docs' numbers always were.
    constexpr double kg = 1000.0;   // g -> kg
    constexpr double kwh = 3.6e6;   // J -> kWh
    constexpr double hour = 3600.0; // s -> h
    // The order is the metrics table's and the CSV's column order (stored fields) and --json's key order.
    static const std::vector<MetricField> fields{
        {"operational_g", "operational_kg", kg, true, &M::operationalG},
        {"marginal_g", "marginal_kg", kg, true, &M::marginalG},
        {"embodied_g", "embodied_kg", kg, true, &M::embodiedG},
        {"total_g", "emissions_kg", kg, true, &M::totalG}, // operational + embodied: what a run emits
        {"energy_j", "energy_kwh", kwh, true, &M::energyJ},
        {"work_done", "work_done", 1.0, true, &M::workDone},
        {"completion_s", "completion_hours", hour, true, &M::completionSeconds},
        {"finished", "finished", 1.0, true, &M::finished},
        {"deadline_met", "deadline_met", 1.0, true, &M::deadlineMet},
        {"reconfigurations", "reconfigurations", 1.0, true, &M::reconfigurations},
        {"reconfiguration_s", "reconfiguration_hours", hour, true, &M::reconfigurationSeconds},
        {"preemptions", "preemptions", 1.0, true, &M::preemptions},
        {"preemption_s", "preemption_hours", hour, true, &M::preemptionSeconds},
        {"migrations", "migrations", 1.0, true, &M::migrations},
        {"migration_s", "migration_hours", hour, true, &M::migrationSeconds},
        {"average_power_w", "average_power_kw", 1000.0, true, &M::averagePowerW},
        {"work_per_g", "tokens_per_gco2", 1.0, true, &M::workPerGram},
        // Added in schema version 3, so after the older columns: CSV readers keep their column positions.
        {"dedicated_g", "dedicated_kg", kg, true, &M::dedicatedG}, // total_g with parked GPUs charged whole
        {"shared_g", "shared_kg", kg, true, &M::sharedG},          // total_g with parked GPUs free
        // Added in schema version 5.
        {"gpu_cost_usd", "gpu_cost_usd", 1.0, true, &M::gpuCostUsd, 5},
        {"energy_cost_usd", "energy_cost_usd", 1.0, true, &M::energyCostUsd, 5},
        {"carbon_cost_usd", "carbon_cost_usd", 1.0, true, &M::carbonCostUsd, 5},
        {"cost_usd", "cost_usd", 1.0, true, &M::costUsd, 5}, // the sum of the three
        {"spot_preemptions", "spot_preemptions", 1.0, true, &M::spotPreemptions, 5},
        {"spot_preemption_s", "spot_preemption_hours", hour, true, &M::spotPreemptionSeconds, 5},
        // Added in schema version 8: where the saving comes from, at both ends (runner/SavingSplit.h).
        {"saving_configuration_dedicated_g", "saving_configuration_dedicated_kg", kg, true,
         &M::savingConfigurationDedicatedG, 8},
        {"saving_timing_dedicated_g", "saving_timing_dedicated_kg", kg, true, &M::savingTimingDedicatedG, 8},
        {"saving_beyond_dedicated_g", "saving_beyond_dedicated_kg", kg, true, &M::savingBeyondDedicatedG, 8},
        {"saving_configuration_shared_g", "saving_configuration_shared_kg", kg, true,
         &M::savingConfigurationSharedG, 8},
        {"saving_timing_shared_g", "saving_timing_shared_kg", kg, true, &M::savingTimingSharedG, 8},
        {"saving_beyond_shared_g", "saving_beyond_shared_kg", kg, true, &M::savingBeyondSharedG, 8},
        // Not in the database's metrics table: a saved run reads them as their defaults (0, the bound NaN).
        {"late_s", "late_hours", hour, false, &M::lateSeconds},
        {"deadline_penalty_g", "deadline_penalty_kg", kg, false, &M::deadlinePenaltyG},
        {"forced_decisions", "forced_decisions", 1.0, false, &M::forcedDecisions},
        {"lower_bound_g", "lower_bound_kg", kg, false, &M::lowerBoundG}, // recomputable from the scenario
    };
    return fields;
}

const MetricField& metricField(const std::string& name) {
    for (const MetricField& field : metricFields()) {
        if (field.name == name)
            return field;
    }
    throw std::logic_error("no run metric named '" + name + "'");
}

double metricValue(const MetricField& field, const RunMetrics& metrics) {
    return std::visit([&](auto member) { return static_cast<double>(metrics.*member); }, field.member);
}

void insertMetricsJson(JsonValue& object, const RunMetrics& metrics, bool storedOnly) {
    for (const MetricField& field : metricFields()) {
        if (storedOnly && !field.stored)
            continue;
        if (const auto* flag = std::get_if<bool RunMetrics::*>(&field.member))
            object.insert(field.jsonKey, JsonValue::makeBool(metrics.**flag));
        else
            object.insert(field.jsonKey,
                          JsonValue::makeNumber(metricValue(field, metrics) / field.jsonDivisor));
    }
}

} // namespace carbon3d
