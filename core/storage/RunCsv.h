// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "storage/StoredRun.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace carbon3d {

// The per-interval CSV shared by `carbon3d-cli simulate --series-out` and `carbon3d-cli runs export --csv`,
// so that a saved run exports exactly what a fresh run writes. Columns:
//   start,end,region,dp,tp,pp,gpus_active,power_limit_w,facility_power_w,ci_g_per_kwh,work_done,emissions_g
// start/end are ISO-8601 UTC ("2022-06-01T00:00:00Z"); region is regionIds[regionIndex] (the index itself
// when regionIds is too short); numbers are the shortest text that reads back to the same double.
void writeSeriesCsv(std::ostream& out, const std::vector<IntervalRecord>& series,
                    const std::vector<std::string>& regionIds);

// One header line and one value line, SI units in the column names (the same names as the database's
// metrics table): operational_g,marginal_g,embodied_g,total_g,energy_j,work_done,completion_s,finished,...
void writeMetricsCsv(std::ostream& out, const RunMetrics& metrics);

// Writes DIRECTORY/PREFIXseries.csv and DIRECTORY/PREFIXmetrics.csv, each atomically (a reader never sees
// half a file); creates DIRECTORY if needed. InputError naming the file when it cannot be written.
ExportedRunFiles writeRunCsvFiles(const RunResult& run, const std::vector<std::string>& regionIds,
                                  const std::string& directory, const std::string& prefix);

// Shortest round-trip decimal text of a double; "" for NaN (a CSV reader's missing value).
std::string csvNumber(double value);

} // namespace carbon3d
