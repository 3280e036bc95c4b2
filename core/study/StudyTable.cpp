// SPDX-License-Identifier: MIT
#include "study/StudyTable.h"

#include "domain/CsvText.h"
#include "domain/MetricFields.h"
#include "domain/NumberText.h"
#include "domain/OutputFile.h"
#include "domain/TextList.h"

#include <cmath>
#include <limits>
#include <map>

namespace carbon3d {

int StudyTable::column(const std::string& name) const {
    for (std::size_t i = 0; i < axisColumns.size(); ++i)
        if (axisColumns[i] == name)
            return static_cast<int>(i);
    return -1;
}

StudyTable studyTable(std::vector<std::string> axisColumns, std::vector<StudyRow> rows,
                      const std::string& baselinePolicy) {
    StudyTable table;
    table.axisColumns = std::move(axisColumns);
    table.baselinePolicy = baselinePolicy;
    table.rows = std::move(rows);
    const int policy = table.column("policy");
    // The cell's values with the policy left out: the key its baseline shares.
    const auto siblings = [policy](std::vector<std::string> values) {
        if (policy >= 0)
            values[static_cast<std::size_t>(policy)].clear();
        return values;
    };
    std::map<std::vector<std::string>, double> baselineTotals;
    for (const StudyRow& row : table.rows)
        if (row.feasible && policy >= 0 && row.values[static_cast<std::size_t>(policy)] == baselinePolicy)
            baselineTotals[siblings(row.values)] = row.metrics.totalG;
    for (StudyRow& row : table.rows) {
        row.savingsVsBaseline = std::numeric_limits<double>::quiet_NaN();
        if (!row.feasible)
            continue;
        const auto baseline = baselineTotals.find(siblings(row.values));
        if (baseline != baselineTotals.end() && baseline->second > 0.0)
            row.savingsVsBaseline = 1.0 - row.metrics.totalG / baseline->second;
    }
    return table;
}

StudyTable studyTable(const StoredStudy& study, const std::vector<StoredCell>& cells,
                      const std::string& baselinePolicy) {
    std::vector<StudyRow> rows;
    rows.reserve(cells.size());
    for (const StoredCell& cell : cells) {
        StudyRow row;
        row.index = cell.index;
        row.values = cell.values;
        row.feasible = cell.feasible;
        row.reason = cell.reason;
        if (cell.feasible)
            row.metrics = metricsFromExactJson(cell.metricsJson, "study " + std::to_string(study.id));
        rows.push_back(std::move(row));
    }
    return studyTable(study.columns, std::move(rows), baselinePolicy);
}

namespace {

// Where each cell's saving comes from, at both attribution ends (a study with "split_savings"; empty
// otherwise), under the run metrics' own JSON keys and units (domain/MetricFields.h).
const std::vector<const MetricField*>& splitFields() {
    static const std::vector<const MetricField*> fields{
        &metricField("saving_configuration_dedicated_g"), &metricField("saving_timing_dedicated_g"),
        &metricField("saving_beyond_dedicated_g"),        &metricField("saving_configuration_shared_g"),
        &metricField("saving_timing_shared_g"),           &metricField("saving_beyond_shared_g")};
    return fields;
}

} // namespace

const std::vector<std::string>& studyMetricColumns() {
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> names{
            "emissions_kg", "operational_kg", "embodied_kg",      "savings_vs_baseline", "completion_hours",
            "deadline_met", "energy_kwh",     "reconfigurations", "preemptions",         "cost_usd"};
        for (const MetricField* field : splitFields())
            names.push_back(field->jsonKey);
        names.insert(names.end(), {"feasible", "reason"});
        return names;
    }();
    return columns;
}

std::vector<std::string> studyMetricTexts(const StudyRow& row) {
    const auto number = [&row](double value) {
        return row.feasible && std::isfinite(value) ? shortestNumber(value) : std::string();
    };
    const RunMetrics& m = row.metrics;
    std::vector<std::string> texts{number(m.totalG / 1e3),
                                   number(m.operationalG / 1e3),
                                   number(m.embodiedG / 1e3),
                                   number(row.savingsVsBaseline),
                                   number(m.completionSeconds / 3600.0),
                                   row.feasible ? (m.deadlineMet ? "true" : "false") : "",
                                   number(m.energyJ / 3.6e6),
                                   row.feasible ? std::to_string(m.reconfigurations) : "",
                                   row.feasible ? std::to_string(m.preemptions) : "",
                                   number(m.costUsd)}; // empty for a cell saved before cost was recorded
    for (const MetricField* field : splitFields())
        texts.push_back(number(metricValue(*field, m) / field->jsonDivisor));
    texts.insert(texts.end(), {row.feasible ? "true" : "false", row.reason});
    return texts;
}

namespace {

void appendLine(std::string& out, const std::vector<std::string>& fields) {
    out += joinedText(fields, ",", csvField);
    out += '\n';
}

} // namespace

void writeStudyCsv(const StudyTable& table, const std::string& path) {
    std::string text;
    std::vector<std::string> header = table.axisColumns;
    header.insert(header.end(), studyMetricColumns().begin(), studyMetricColumns().end());
    appendLine(text, header);
    for (const StudyRow& row : table.rows) {
        std::vector<std::string> fields = row.values;
        const std::vector<std::string> metrics = studyMetricTexts(row);
        fields.insert(fields.end(), metrics.begin(), metrics.end());
        appendLine(text, fields);
    }
    writeFileAtomically(path, text, "cannot write the study table");
}

} // namespace carbon3d
