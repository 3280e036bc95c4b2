// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "storage/StoredRun.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace carbon3d {

// The one per-interval CSV writer, shared by `carbon3d-cli simulate --series-out`, `carbon3d-cli runs export
// --csv` and the studio's series export, so that a saved run exports exactly what a fresh run writes.
// Columns:
//   start,end,region,activity,dp,tp,pp,gpus_active,power_limit_w,facility_power_w,ci_g_per_kwh,work_done,
//   emissions_g,gpus_held,energy_j,embodied_g,marginal_emissions_g,forecast_ci_g_per_kwh,
//   electricity_usd_per_kwh,gpu_cost_usd,energy_cost_usd,carbon_cost_usd,cost_usd
// (gpus_held to forecast_ci_g_per_kwh added with schema version 3, the cost columns with version 5, after
// the others so that readers keep their positions; cost_usd is the sum of the three before it).
// Every total of the metrics CSV is the sum of a column: energy_j, emissions_g (operational), embodied_g,
// marginal_emissions_g, work_done, gpu_cost_usd, energy_cost_usd, carbon_cost_usd, cost_usd; their sum of
// emissions and embodied is total_g.
// start/end are ISO-8601 UTC ("2022-06-01T00:00:00Z"); region is regionIds[regionIndex] (the index itself
// when regionIds is too short); activity is what the interval was (training, waiting (not started),
// paused, reconfiguring, preempting, migrating; RunResult.h); an absent signal (no marginal companion, no
// forecast issued) is an empty cell;
// dp, tp and pp are 0 when no configuration trains; numbers are the shortest text that reads back to the
// same double.
// With SeriesUnits::Analyst the quantities analysts (and CodeCarbon) read in larger units are written in
// them, the column named after its unit: facility_power_kw, emissions_kg, energy_kwh, embodied_kg,
// marginal_emissions_kg; every other column is as above.
void writeSeriesCsv(std::ostream& out, const std::vector<IntervalRecord>& series,
                    const std::vector<std::string>& regionIds, SeriesUnits units = SeriesUnits::Si);

// One header line and one value line, SI units in the column names (the same names as the database's
// metrics table): operational_g,marginal_g,embodied_g,total_g,energy_j,work_done,completion_s,finished,...
void writeMetricsCsv(std::ostream& out, const RunMetrics& metrics);

// Writes DIRECTORY/PREFIXseries.csv and DIRECTORY/PREFIXmetrics.csv, each atomically (a reader never sees
// half a file); creates DIRECTORY if needed. InputError naming the file when it cannot be written.
ExportedRunFiles writeRunCsvFiles(const RunResult& run, const std::vector<std::string>& regionIds,
                                  const std::string& directory, const std::string& prefix,
                                  SeriesUnits units = SeriesUnits::Si);

// Saved runs as one tidy table, a row per run, for pandas or R: run_id,name,scenario,scenario_hash,policy,
// region,start,deadline,created,status,charged_parked_share (1 - the run's backfill), then every stored
// metric under its `--json` key and in its units (emissions_kg, energy_kwh, completion_hours, cost_usd, ...:
// MetricFields.h), booleans as true/false and an absent value as an empty cell.
void writeRunTableCsv(std::ostream& out, const std::vector<RunSummary>& runs);

// Writes one run's series CSV to `path` atomically (a reader never sees half a file). InputError naming the
// file when it cannot be written.
void writeSeriesCsvFile(const RunResult& run, const std::vector<std::string>& regionIds,
                        const std::string& path);

// Creates `directory` if needed; InputError when it cannot be created or a file of that name is in the way.
// Called before the work whose output goes there, so that a bad path costs nothing.
void ensureOutputDirectory(const std::string& directory);

// Shortest round-trip decimal text of a double; "" for NaN (a CSV reader's missing value).
std::string csvNumber(double value);

} // namespace carbon3d
