// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "storage/SqliteStatement.h"
#include "storage/StoredRun.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

struct sqlite3;

// How the store's value types map to table rows. Each row kind has one table of {column name, accessor}
// (RowMapping.cpp, built with ColumnTable.h) from which its INSERT list, its SELECT list and its reader are
// all built, so a column cannot be added to one and not the others, nor read at another column's position.
// Only core/storage includes this header.
namespace carbon3d::storage_detail {

// listRuns() and findSummary(): "SELECT ... FROM ... JOIN ...\n", ready for a WHERE clause.
const std::string& summarySelectSql();
RunSummary readSummary(const SqliteStatement& s);

// The metrics row of a run (:run_id and every metrics column).
const std::string& insertMetricsSql();
void bindMetrics(SqliteStatement& s, const RunMetrics& metrics);

// The scenarios row; a scenario already stored (same content_hash) is kept as it is. selectScenarioIdSql()
// finds it by its key, bound with bindScenarioKey().
const std::string& insertScenarioSql(); // the caller binds :created_at
const std::string& selectScenarioIdSql();
void bindScenario(SqliteStatement& s, const StoredScenario& scenario);
void bindScenarioKey(SqliteStatement& s, const StoredScenario& scenario);

// The traces row; a trace already stored (same UNIQUE key) is kept as it is. selectTraceIdSql() finds it
// by its key, bound with bindTraceKey().
const std::string& insertTraceSql();
const std::string& selectTraceIdSql();
void bindTrace(SqliteStatement& s, const StoredTrace& trace);
void bindTraceKey(SqliteStatement& s, const StoredTrace& trace);
// The traces of run :id in region order.
const std::string& selectRunTracesSql();
StoredTrace readTrace(const SqliteStatement& s);

// A row of the runs table as saveRun() writes it; the options and modelling maps as JSON objects.
struct RunRow {
    std::int64_t scenarioId = 0;
    std::string name;
    std::string policy;
    std::string optionsJson;
    std::string modellingJson;
    std::string forecastKind;
    double forecastMape = 0.0;
    std::string programVersion;
    UtcSeconds createdUtc = 0;
    std::string status;
    UtcSeconds startUtc = 0;
    UtcSeconds deadlineUtc = 0;
};
const std::string& insertRunSql();
void bindRun(SqliteStatement& s, const RunRow& row);
// Run :id with its scenario. readStoredRun() fills stored.scenario, stored.programVersion and the run's
// own fields of stored.result (not its metrics, series or warnings); `where` names it in errors.
const std::string& selectStoredRunSql();
void readStoredRun(const SqliteStatement& s, StoredRun& stored, const std::string& where);

// The series of one run through one prepared statement, its parameter indexes looked up once: the hot loop
// of a save.
class SeriesInsert {
public:
    SeriesInsert(sqlite3* db, const std::string& dbPath);
    void insert(RunId run, std::size_t index, const IntervalRecord& interval);

private:
    SqliteStatement m_statement;
    int m_runId;
    int m_index;
    std::vector<int> m_parameters; // one per interval column
};
// The intervals of run :run_id in order; readInterval() reads one (`where` names the file in errors).
const std::string& selectSeriesSql();
IntervalRecord readInterval(const SqliteStatement& s, const std::string& where);

// A string map as a JSON object of strings (the runs table's options_json and modelling_json), and back.
std::string mapToJson(const std::map<std::string, std::string>& map);
std::map<std::string, std::string> mapFromJson(const std::string& text, const std::string& where);

} // namespace carbon3d::storage_detail
