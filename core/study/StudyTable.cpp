// SPDX-License-Identifier: MIT
#include "study/StudyTable.h"

#include "domain/CsvText.h"
#include "domain/MetricFields.h"
#include "domain/NumberText.h"
#include "domain/OutputFile.h"
#include "domain/TextList.h"

#include <cmath>
#include <limits>
#include <utility>

namespace carbon3d {

int StudyHeader::column(const std::string& name) const {
    for (std::size_t i = 0; i < axisColumns.size(); ++i)
        if (axisColumns[i] == name)
            return static_cast<int>(i);
    return -1;
}

BaselineTotals::BaselineTotals(const std::vector<std::string>& axisColumns, std::string baselinePolicy)
    : m_baselinePolicy(std::move(baselinePolicy))
    , m_codes(axisColumns.size()) {
    for (std::size_t i = 0; i < axisColumns.size(); ++i)
        if (axisColumns[i] == "policy")
            m_policyColumn = static_cast<int>(i);
}

namespace {

// The row's values but the policy's, as per-column codes, four bytes an axis; nullopt when `codeOf(column,
// value)` has no code for one of them.
template <typename CodeOf>
std::optional<std::string> codedKey(const std::vector<std::string>& values, int policyColumn,
                                    std::size_t columns, const CodeOf& codeOf) {
    std::string key;
    for (std::size_t column = 0; column < values.size() && column < columns; ++column) {
        if (static_cast<int>(column) == policyColumn)
            continue;
        const std::optional<std::uint32_t> code = codeOf(column, values[column]);
        if (!code)
            return std::nullopt;
        key.append(reinterpret_cast<const char*>(&*code), sizeof(*code)); // NOLINT: the code's bytes
    }
    return key;
}

} // namespace

void BaselineTotals::add(const StudyRow& row) {
    if (!row.feasible || m_policyColumn < 0 ||
        row.values[static_cast<std::size_t>(m_policyColumn)] != m_baselinePolicy)
        return;
    const auto codeOf = [this](std::size_t column, const std::string& value) {
        auto& codes = m_codes[column];
        return std::optional<std::uint32_t>(
            codes.try_emplace(value, static_cast<std::uint32_t>(codes.size())).first->second);
    };
    m_totals[*codedKey(row.values, m_policyColumn, m_codes.size(), codeOf)] = row.metrics.totalG;
}

double BaselineTotals::savingsOf(const StudyRow& row) const {
    if (!row.feasible)
        return std::numeric_limits<double>::quiet_NaN();
    const auto codeOf = [this](std::size_t column, const std::string& value) -> std::optional<std::uint32_t> {
        const auto code = m_codes[column].find(value);
        return code == m_codes[column].end() ? std::nullopt : std::optional<std::uint32_t>(code->second);
    };
    const std::optional<std::string> cell = codedKey(row.values, m_policyColumn, m_codes.size(), codeOf);
    const auto baseline = cell ? m_totals.find(*cell) : m_totals.end();
    if (baseline == m_totals.end() || !(baseline->second > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    return 1.0 - row.metrics.totalG / baseline->second;
}

StudyTable studyTable(std::vector<std::string> axisColumns, std::vector<StudyRow> rows,
                      const std::string& baselinePolicy) {
    StudyTable table;
    table.axisColumns = std::move(axisColumns);
    table.baselinePolicy = baselinePolicy;
    table.rows = std::move(rows);
    BaselineTotals totals(table.axisColumns, baselinePolicy);
    for (const StudyRow& row : table.rows)
        totals.add(row);
    for (StudyRow& row : table.rows)
        row.savingsVsBaseline = totals.savingsOf(row);
    return table;
}

StudyRow studyRowOf(const StoredStudy& study, StoredCell&& cell) {
    StudyRow row;
    row.index = cell.index;
    row.values = std::move(cell.values);
    row.feasible = cell.feasible;
    row.reason = std::move(cell.reason);
    if (cell.feasible)
        row.metrics = metricsFromExactJson(cell.metricsJson, "study " + std::to_string(study.id));
    return row;
}

StudyTable studyTable(const StoredStudy& study, const std::vector<StoredCell>& cells,
                      const std::string& baselinePolicy) {
    std::vector<StudyRow> rows;
    rows.reserve(cells.size());
    for (StoredCell cell : cells)
        rows.push_back(studyRowOf(study, std::move(cell)));
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

std::string studyCsvHeader(const std::vector<std::string>& axisColumns) {
    std::vector<std::string> header = axisColumns;
    header.insert(header.end(), studyMetricColumns().begin(), studyMetricColumns().end());
    return joinedText(header, ",", csvField) + '\n';
}

std::string studyCsvLine(const StudyRow& row) {
    std::vector<std::string> fields = row.values;
    const std::vector<std::string> metrics = studyMetricTexts(row);
    fields.insert(fields.end(), metrics.begin(), metrics.end());
    return joinedText(fields, ",", csvField) + '\n';
}

void writeStudyCsv(const StudyTable& table, const std::string& path) {
    AtomicTextOutput output(path, "cannot write the study table");
    output.write(studyCsvHeader(table.axisColumns));
    for (const StudyRow& row : table.rows)
        output.write(studyCsvLine(row));
    output.commit();
}

} // namespace carbon3d
