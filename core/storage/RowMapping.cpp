// SPDX-License-Identifier: MIT
#include "storage/RowMapping.h"

#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/MetricFields.h"
#include "domain/ModellingFields.h"
#include "domain/TextList.h"
#include "storage/ColumnTable.h"

#include <variant>

namespace carbon3d::storage_detail {

namespace {

// ---------------------------------------------------------------------------------------------------------
// The tables. A column's position in its table is its position in every statement built from it.
// ---------------------------------------------------------------------------------------------------------

using I = IntervalRecord;
using P = ParallelConfig;
using M = RunMetrics;

// The series table after its key (run_id, idx), in the schema's order.
constexpr Column<IntervalRecord> kIntervalColumns[] = {
    column<&I::start>("start_utc"),
    column<&I::end>("end_utc"),
    column<&I::regionIndex>("region_index"),
    column<&I::activity>("activity"),
    column<&I::config, &P::dp>("dp"),
    column<&I::config, &P::tp>("tp"),
    column<&I::config, &P::pp>("pp"),
    column<&I::config, &P::cp>("cp"),
    column<&I::config, &P::microBatch>("micro_batch"),
    column<&I::config, &P::interleave>("interleave"),
    column<&I::config, &P::recompute>("recompute"),
    column<&I::config, &P::sequenceParallel>("sequence_parallel"),
    column<&I::config, &P::distributedOptimizer>("distributed_optimizer"),
    column<&I::config, &P::fullySharded>("fully_sharded"),
    column<&I::config, &P::recomputeLayers>("recompute_layers"),
    column<&I::config, &P::ep>("ep"),
    column<&I::config, &P::expertTp>("expert_tp"),
    column<&I::gpusActive>("gpus_active"),
    column<&I::gpusHeld>("gpus_held"),
    column<&I::powerLimitW>("power_limit_w"),
    column<&I::facilityPowerW>("facility_power_w"),
    column<&I::ciGPerKwh>("ci_g_per_kwh"),
    column<&I::forecastCiGPerKwh>("forecast_ci_g_per_kwh"),
    column<&I::marginalCiGPerKwh>("marginal_ci_g_per_kwh"),
    column<&I::workDone>("work_done"),
    column<&I::energyJ>("energy_j"),
    column<&I::emissionsG>("emissions_g"),
    column<&I::marginalEmissionsG>("marginal_emissions_g"),
    column<&I::embodiedG>("embodied_g"),
    column<&I::electricityUsdPerKwh>("electricity_usd_per_kwh"),
    column<&I::gpuCostUsd>("gpu_cost_usd"),
    column<&I::energyCostUsd>("energy_cost_usd"),
    column<&I::carbonCostUsd>("carbon_cost_usd"),
};

// The metrics table after its key (run_id): the stored fields of the metrics table (domain/MetricFields.h).
std::string metricsColumnList(std::string_view prefix, std::string_view parameterPrefix = {}) {
    std::string out;
    for (const MetricField& field : metricFields()) {
        if (field.stored)
            appendSeparated(out, std::string(prefix).append(parameterPrefix).append(field.name));
    }
    return out;
}

// Read only: the run's own summary columns over kSummaryJoins; its stored metrics follow (metricFields()).
constexpr Column<RunSummary> kSummaryColumns[] = {
    column<&RunSummary::id>("r.id"),
    column<&RunSummary::name>("r.name"),
    column<&RunSummary::scenarioName>("s.name"),
    column<&RunSummary::scenarioHash>("s.content_hash"),
    column<&RunSummary::policy>("r.policy"),
    column<&RunSummary::regionId>("COALESCE(t.region_id, '')"), // a run saved without traces has none
    column<&RunSummary::startUtc>("r.start_utc"),
    column<&RunSummary::deadlineUtc>("r.deadline_utc"),
    column<&RunSummary::createdUtc>("r.created_at"),
    column<&RunSummary::status>("r.status"),
    // 1 - backfill from the modelling record; 1 when it lacks one (a damaged record is not a listing error).
    column<&RunSummary::chargedParkedShare>("1.0 - COALESCE(CASE WHEN json_valid(r.modelling_json) THEN "
                                            "CAST(json_extract(r.modelling_json, '$." CARBON3D_BACKFILL_KEY
                                            "') AS REAL) END, 0.0)"),
};
constexpr const char* kSummaryJoins = R"sql(
FROM runs r
JOIN scenarios s ON s.id = r.scenario_id
JOIN metrics m ON m.run_id = r.id
LEFT JOIN run_traces rt ON rt.run_id = r.id AND rt.region_index = 0
LEFT JOIN traces t ON t.id = rt.trace_id
)sql";

// The scenarios table after its id; created_at is bound by the insert alone.
constexpr Column<StoredScenario> kScenarioColumns[] = {
    column<&StoredScenario::name>("name"),
    column<&StoredScenario::canonicalJson>("canonical_json"),
    column<&StoredScenario::contentHash>("content_hash", true),
};

// The traces table after its id. The key is the table's UNIQUE constraint (the order does not matter).
constexpr Column<StoredTrace> kTraceColumns[] = {
    column<&StoredTrace::regionId>("region_id", true),
    column<&StoredTrace::contentSha256>("content_sha256", true),
    column<&StoredTrace::sourceColumn>("source_column", true),
    column<&StoredTrace::sourceFile>("source_file"),
    column<&StoredTrace::format>("format"),
    column<&StoredTrace::signal>("signal", true),
    column<&StoredTrace::stepSeconds>("step_seconds", true),
    column<&StoredTrace::startUtc>("start_utc", true),
    column<&StoredTrace::rows>("rows", true),
    column<&StoredTrace::attribution>("attribution"),
};

// The runs table after its id.
constexpr Column<RunRow> kRunColumns[] = {
    column<&RunRow::scenarioId>("scenario_id"),
    column<&RunRow::name>("name"),
    column<&RunRow::policy>("policy"),
    column<&RunRow::optionsJson>("options_json"),
    column<&RunRow::modellingJson>("modelling_json"),
    column<&RunRow::forecastKind>("forecast_kind"),
    column<&RunRow::forecastMape>("forecast_mape"),
    column<&RunRow::programVersion>("program_version"),
    column<&RunRow::createdUtc>("created_at"),
    column<&RunRow::status>("status"),
    column<&RunRow::startUtc>("start_utc"),
    column<&RunRow::deadlineUtc>("deadline_utc"),
};

} // namespace

const std::string& summarySelectSql() {
    static const std::string sql =
        "SELECT " + nameList(kSummaryColumns, "") + ", " + metricsColumnList("m.") + kSummaryJoins;
    return sql;
}

RunSummary readSummary(const SqliteStatement& s) {
    RunSummary r;
    int column = readColumns(s, kSummaryColumns, 0, r, {});
    for (const MetricField& field : metricFields()) {
        if (field.stored)
            std::visit([&](auto member) { readValue(s, column++, r.metrics.*member, {}); }, field.member);
    }
    return r;
}

const std::string& insertMetricsSql() {
    static const std::string sql = "INSERT INTO metrics (run_id, " + metricsColumnList("") +
                                   ") VALUES (:run_id, " + metricsColumnList("", ":") + ")";
    return sql;
}

void bindMetrics(SqliteStatement& s, const RunMetrics& metrics) {
    for (const MetricField& field : metricFields()) {
        if (!field.stored)
            continue;
        const int parameter = s.parameterIndex((":" + field.name).c_str());
        std::visit([&](auto member) { bindValue(s, parameter, metrics.*member); }, field.member);
    }
}

const std::string& insertScenarioSql() {
    static const std::string sql = insertSql("scenarios", kScenarioColumns, {"created_at"}) +
                                   " ON CONFLICT (" + nameList(kScenarioColumns, "", true) + ") DO NOTHING";
    return sql;
}

const std::string& selectScenarioIdSql() {
    static const std::string sql = "SELECT id FROM scenarios WHERE " + keyCondition(kScenarioColumns);
    return sql;
}

void bindScenario(SqliteStatement& s, const StoredScenario& scenario) {
    bindColumns(s, kScenarioColumns, scenario);
}

void bindScenarioKey(SqliteStatement& s, const StoredScenario& scenario) {
    bindColumns(s, kScenarioColumns, scenario, true);
}

const std::string& insertTraceSql() {
    static const std::string sql = insertSql("traces", kTraceColumns) + " ON CONFLICT (" +
                                   nameList(kTraceColumns, "", true) + ") DO NOTHING";
    return sql;
}

const std::string& selectTraceIdSql() {
    static const std::string sql = "SELECT id FROM traces WHERE " + keyCondition(kTraceColumns);
    return sql;
}

void bindTrace(SqliteStatement& s, const StoredTrace& trace) {
    bindColumns(s, kTraceColumns, trace);
}

void bindTraceKey(SqliteStatement& s, const StoredTrace& trace) {
    bindColumns(s, kTraceColumns, trace, true);
}

const std::string& selectRunTracesSql() {
    static const std::string sql = "SELECT " + nameList(kTraceColumns, "t.") +
                                   " FROM run_traces rt JOIN traces t ON t.id = rt.trace_id "
                                   "WHERE rt.run_id = :id ORDER BY rt.region_index";
    return sql;
}

StoredTrace readTrace(const SqliteStatement& s) {
    StoredTrace trace;
    readColumns(s, kTraceColumns, 0, trace, {});
    return trace;
}

const std::string& insertRunSql() {
    static const std::string sql = insertSql("runs", kRunColumns);
    return sql;
}

void bindRun(SqliteStatement& s, const RunRow& row) {
    bindColumns(s, kRunColumns, row);
}

const std::string& selectStoredRunSql() {
    static const std::string sql = "SELECT " + nameList(kScenarioColumns, "s.") + ", " +
                                   nameList(kRunColumns, "r.") +
                                   " FROM runs r JOIN scenarios s ON s.id = r.scenario_id WHERE r.id = :id";
    return sql;
}

void readStoredRun(const SqliteStatement& s, StoredRun& stored, const std::string& where) {
    RunRow row;
    const int runFrom = readColumns(s, kScenarioColumns, 0, stored.scenario, where);
    readColumns(s, kRunColumns, runFrom, row, where);
    RunResult& result = stored.result;
    result.policy = row.policy;
    result.options = mapFromJson(row.optionsJson, where + " options_json");
    result.modelling = mapFromJson(row.modellingJson, where + " modelling_json");
    result.forecastKind = row.forecastKind;
    result.forecastMape = row.forecastMape;
    stored.programVersion = row.programVersion;
    result.startUtc = row.startUtc;
    result.deadlineUtc = row.deadlineUtc;
}

SeriesInsert::SeriesInsert(sqlite3* db, const std::string& dbPath)
    : m_statement(db, insertSql("series", kIntervalColumns, {"run_id", "idx"}), dbPath)
    , m_runId(m_statement.parameterIndex(":run_id"))
    , m_index(m_statement.parameterIndex(":idx")) {
    for (const Column<IntervalRecord>& c : kIntervalColumns)
        m_parameters.push_back(m_statement.parameterIndex(std::string(":").append(c.name).c_str()));
}

void SeriesInsert::insert(RunId run, std::size_t index, const IntervalRecord& interval) {
    m_statement.bindInt(m_runId, run);
    m_statement.bindInt(m_index, static_cast<std::int64_t>(index));
    for (std::size_t c = 0; c < m_parameters.size(); ++c)
        kIntervalColumns[c].bind(m_statement, m_parameters[c], interval);
    m_statement.exec();
}

const std::string& selectSeriesSql() {
    static const std::string sql =
        "SELECT " + nameList(kIntervalColumns, "") + " FROM series WHERE run_id = :run_id ORDER BY idx";
    return sql;
}

IntervalRecord readInterval(const SqliteStatement& s, const std::string& where) {
    IntervalRecord interval;
    readColumns(s, kIntervalColumns, 0, interval, where);
    return interval;
}

std::string mapToJson(const std::map<std::string, std::string>& map) {
    JsonValue object = JsonValue::makeObject();
    for (const auto& [key, value] : map)
        object.insert(key, JsonValue::makeString(value));
    return object.dump(-1);
}

std::map<std::string, std::string> mapFromJson(const std::string& text, const std::string& where) {
    const JsonValue object = parseJson(text, where);
    if (!object.isObject())
        throw InputError(where, 1, 1,
                         std::string("expected a JSON object, found ") + JsonValue::typeName(object.type()));
    std::map<std::string, std::string> map;
    for (const JsonValue::Member& member : object.members()) {
        if (!member.value.isString())
            throw InputError(where, member.value.line(), member.value.column(),
                             "expected a string value for '" + member.key + "'");
        map[member.key] = member.value.toString();
    }
    return map;
}

} // namespace carbon3d::storage_detail
