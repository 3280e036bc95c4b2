// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "domain/RunResult.h"

#include <string>
#include <variant>
#include <vector>

namespace carbon3d {

// The run metrics as one table: each RunMetrics field's SI name (the results database's metrics column and
// the metrics CSV's header), its key and unit in `--json` output (simulate and runs), and whether the
// database stores it. The store's bind and read, the CSV export and both JSON writers iterate this table,
// so a metric is named, scaled and stored the same way everywhere (docs/DATABASE.md, docs/ENGINE.md).
struct MetricField {
    std::string name;    // SI, e.g. "total_g"
    std::string jsonKey; // display units, e.g. "emissions_kg"
    double jsonDivisor;  // jsonKey's value = the SI value / jsonDivisor (g -> kg: 1000; J -> kWh: 3.6e6)
    bool stored;         // a column of the database's metrics table (schema version 2 and later)
    std::variant<double RunMetrics::*, int RunMetrics::*, bool RunMetrics::*> member;
    int sinceSchema = 1; // the results database's schema version that added it: older rows lack it
};

const std::vector<MetricField>& metricFields();
// The field with this SI name; a std::logic_error when there is none (callers name fields of the table).
const MetricField& metricField(const std::string& name);

// The field's value as a number (booleans 1/0, counts as doubles), in SI units.
double metricValue(const MetricField& field, const RunMetrics& metrics);

// Adds every field (storedOnly: those the database keeps) to a JSON object under its jsonKey, in display
// units; booleans as true/false. The one metrics vocabulary of `simulate --json` and `runs ... --json`.
void insertMetricsJson(JsonValue& object, const RunMetrics& metrics, bool storedOnly);

} // namespace carbon3d
