// SPDX-License-Identifier: MIT
#include "storage/Schema.h"

#include "storage/ResultsStore.h"

#include <iterator>
#include <stdexcept>
#include <string>

namespace carbon3d::storage_detail {

namespace {

// ---------------------------------------------------------------------------------------------------------
// Schema migrations. Migration N takes a database from user_version N-1 to N; each runs in its own
// transaction. Never edit a released migration: add the next one (docs/DATABASE.md "Migrations").
// ---------------------------------------------------------------------------------------------------------

// v1: the tables. Instants are integer seconds since the Unix epoch, UTC; REAL columns are SI units named
// in the column; NULL in a REAL column means NaN (SQLite stores NaN as NULL). The series table's CHECKs are
// spelled as OR chains, not IN lists: SQLite builds an ephemeral table for an IN list once per statement
// run, i.e. once per inserted row here, which made a one-year save 2.5x slower (docs/PERFORMANCE.md).
constexpr const char* kMigration1 = R"sql(
CREATE TABLE scenarios (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    canonical_json TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
CREATE TABLE traces (
    id INTEGER PRIMARY KEY,
    region_id TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    source_column TEXT NOT NULL,
    source_file TEXT NOT NULL,
    format TEXT NOT NULL,
    signal TEXT NOT NULL CHECK (signal IN ('average', 'marginal')),
    step_seconds INTEGER NOT NULL,
    start_utc INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    attribution TEXT NOT NULL,
    UNIQUE (content_sha256, source_column, signal, region_id, step_seconds, start_utc, rows)
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    policy TEXT NOT NULL,
    options_json TEXT NOT NULL,
    modelling_json TEXT NOT NULL,
    forecast_kind TEXT NOT NULL,
    forecast_mape REAL,
    program_version TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('met-deadline', 'missed-deadline', 'unfinished')),
    start_utc INTEGER NOT NULL,
    deadline_utc INTEGER NOT NULL
);
CREATE TABLE run_traces (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    region_index INTEGER NOT NULL CHECK (region_index >= 0),
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE RESTRICT,
    PRIMARY KEY (run_id, region_index)
) WITHOUT ROWID;
CREATE TABLE metrics (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    operational_g REAL,
    marginal_g REAL,
    embodied_g REAL,
    total_g REAL,
    energy_j REAL,
    work_done REAL,
    completion_s REAL,
    finished INTEGER NOT NULL CHECK (finished IN (0, 1)),
    deadline_met INTEGER NOT NULL CHECK (deadline_met IN (0, 1)),
    reconfigurations INTEGER NOT NULL,
    reconfiguration_s REAL,
    preemptions INTEGER NOT NULL,
    preemption_s REAL,
    migrations INTEGER NOT NULL,
    migration_s REAL,
    average_power_w REAL,
    work_per_g REAL
);
CREATE TABLE series (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_utc INTEGER NOT NULL,
    end_utc INTEGER NOT NULL,
    region_index INTEGER NOT NULL,
    activity TEXT NOT NULL CHECK (activity = 'training' OR activity = 'paused' OR activity = 'reconfiguring'
                                  OR activity = 'preempting' OR activity = 'migrating'),
    dp INTEGER NOT NULL,
    tp INTEGER NOT NULL,
    pp INTEGER NOT NULL,
    micro_batch INTEGER NOT NULL,
    interleave INTEGER NOT NULL,
    recompute TEXT NOT NULL CHECK (recompute = 'none' OR recompute = 'selective' OR recompute = 'full'),
    sequence_parallel INTEGER NOT NULL CHECK (sequence_parallel = 0 OR sequence_parallel = 1),
    distributed_optimizer INTEGER NOT NULL CHECK (distributed_optimizer = 0 OR distributed_optimizer = 1),
    gpus_active INTEGER NOT NULL,
    gpus_held INTEGER NOT NULL,
    power_limit_w REAL,
    facility_power_w REAL,
    ci_g_per_kwh REAL,
    forecast_ci_g_per_kwh REAL,
    marginal_ci_g_per_kwh REAL,
    work_done REAL,
    energy_j REAL,
    emissions_g REAL,
    marginal_emissions_g REAL,
    embodied_g REAL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE warnings (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
)sql";

// v2: renamable run names (backfilled as "<scenario> / <policy>"), the indexes behind the foreign keys
// that lacked one, and the views for sqlite3 users (display units: kg, kWh, hours, ISO-8601 text).
constexpr const char* kMigration2 = R"sql(
ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
UPDATE runs SET name = (SELECT s.name FROM scenarios s WHERE s.id = runs.scenario_id) || ' / ' || policy;
CREATE INDEX runs_by_scenario ON runs(scenario_id, created_at);
CREATE INDEX run_traces_by_trace ON run_traces(trace_id);
CREATE VIEW run_summary AS
SELECT r.id AS run_id,
       r.name AS name,
       s.name AS scenario,
       r.policy AS policy,
       t.region_id AS region,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.start_utc, 'unixepoch') AS start,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.deadline_utc, 'unixepoch') AS deadline,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.created_at, 'unixepoch') AS created,
       r.status AS status,
       m.total_g / 1000.0 AS total_kg,
       m.operational_g / 1000.0 AS operational_kg,
       m.embodied_g / 1000.0 AS embodied_kg,
       m.marginal_g / 1000.0 AS marginal_kg,
       m.energy_j / 3.6e6 AS energy_kwh,
       m.completion_s / 3600.0 AS completion_h,
       m.average_power_w / 1000.0 AS average_power_kw,
       m.work_done AS work_done,
       m.work_per_g * 1000.0 AS work_per_kg,
       m.reconfigurations AS reconfigurations,
       m.preemptions AS preemptions,
       m.migrations AS migrations,
       m.deadline_met AS deadline_met
FROM runs r
JOIN scenarios s ON s.id = r.scenario_id
JOIN metrics m ON m.run_id = r.id
LEFT JOIN run_traces rt ON rt.run_id = r.id AND rt.region_index = 0
LEFT JOIN traces t ON t.id = rt.trace_id;
CREATE VIEW run_savings AS
SELECT r.id AS run_id,
       r.name AS name,
       r.policy AS policy,
       b.id AS baseline_id,
       b.policy AS baseline_policy,
       s.name AS scenario,
       mb.total_g / 1000.0 AS baseline_total_kg,
       mr.total_g / 1000.0 AS total_kg,
       (mb.total_g - mr.total_g) / 1000.0 AS saved_kg,
       100.0 * (mb.total_g - mr.total_g) / NULLIF(mb.total_g, 0) AS saved_pct,
       (mb.operational_g - mr.operational_g) / 1000.0 AS saved_operational_kg,
       (mr.energy_j - mb.energy_j) / 3.6e6 AS extra_energy_kwh,
       (mr.completion_s - mb.completion_s) / 3600.0 AS extra_hours
FROM runs r
JOIN runs b ON b.scenario_id = r.scenario_id AND b.id <> r.id
JOIN metrics mr ON mr.run_id = r.id
JOIN metrics mb ON mb.run_id = b.id
JOIN scenarios s ON s.id = r.scenario_id;
)sql";

// v3: series.activity takes 'waiting' (not started; earlier runs called it 'paused'). SQLite cannot widen a
// CHECK in place, so the table is rebuilt with the same columns in the same order. And every run's totals at
// both ends of the attribution of parked GPUs (dedicated_g with them charged whole, shared_g with them
// free), also in run_summary; runs saved before have no such totals: NULL.
constexpr const char* kMigration3 = R"sql(
CREATE TABLE series_v3 (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_utc INTEGER NOT NULL,
    end_utc INTEGER NOT NULL,
    region_index INTEGER NOT NULL,
    activity TEXT NOT NULL CHECK (activity IN ('training', 'waiting', 'paused', 'reconfiguring', 'preempting',
                                               'migrating')),
    dp INTEGER NOT NULL,
    tp INTEGER NOT NULL,
    pp INTEGER NOT NULL,
    micro_batch INTEGER NOT NULL,
    interleave INTEGER NOT NULL,
    recompute TEXT NOT NULL CHECK (recompute = 'none' OR recompute = 'selective' OR recompute = 'full'),
    sequence_parallel INTEGER NOT NULL CHECK (sequence_parallel = 0 OR sequence_parallel = 1),
    distributed_optimizer INTEGER NOT NULL CHECK (distributed_optimizer = 0 OR distributed_optimizer = 1),
    gpus_active INTEGER NOT NULL,
    gpus_held INTEGER NOT NULL,
    power_limit_w REAL,
    facility_power_w REAL,
    ci_g_per_kwh REAL,
    forecast_ci_g_per_kwh REAL,
    marginal_ci_g_per_kwh REAL,
    work_done REAL,
    energy_j REAL,
    emissions_g REAL,
    marginal_emissions_g REAL,
    embodied_g REAL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
INSERT INTO series_v3 SELECT * FROM series;
DROP TABLE series;
ALTER TABLE series_v3 RENAME TO series;
ALTER TABLE metrics ADD COLUMN dedicated_g REAL;
ALTER TABLE metrics ADD COLUMN shared_g REAL;
DROP VIEW run_summary;
CREATE VIEW run_summary AS
SELECT r.id AS run_id,
       r.name AS name,
       s.name AS scenario,
       r.policy AS policy,
       t.region_id AS region,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.start_utc, 'unixepoch') AS start,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.deadline_utc, 'unixepoch') AS deadline,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.created_at, 'unixepoch') AS created,
       r.status AS status,
       m.total_g / 1000.0 AS total_kg,
       m.dedicated_g / 1000.0 AS dedicated_kg,
       m.shared_g / 1000.0 AS shared_kg,
       m.operational_g / 1000.0 AS operational_kg,
       m.embodied_g / 1000.0 AS embodied_kg,
       m.marginal_g / 1000.0 AS marginal_kg,
       m.energy_j / 3.6e6 AS energy_kwh,
       m.completion_s / 3600.0 AS completion_h,
       m.average_power_w / 1000.0 AS average_power_kw,
       m.work_done AS work_done,
       m.work_per_g * 1000.0 AS work_per_kg,
       m.reconfigurations AS reconfigurations,
       m.preemptions AS preemptions,
       m.migrations AS migrations,
       m.deadline_met AS deadline_met
FROM runs r
JOIN scenarios s ON s.id = r.scenario_id
JOIN metrics m ON m.run_id = r.id
LEFT JOIN run_traces rt ON rt.run_id = r.id AND rt.region_index = 0
LEFT JOIN traces t ON t.id = rt.trace_id;
)sql";

// v4: studies (docs/STUDIES.md). A study is one row; each finished cell one row of study_cells, keyed by
// (study, index) and carrying its content hash, its axis values (a JSON array in the order of the study's
// columns_json) and, when it ran, every metric as a JSON object of SI names and shortest round-trip numbers
// (the metrics table's names, domain/MetricFields.h): exact, so merged shards compare byte for byte. A cell
// whose series was kept also points at its run. study_cell_summary reads the main metrics out for SQL users.
constexpr const char* kMigration4 = R"sql(
CREATE TABLE studies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    study_hash TEXT NOT NULL UNIQUE,
    source_file TEXT NOT NULL,
    definition_json TEXT NOT NULL,
    columns_json TEXT NOT NULL,
    cell_count INTEGER NOT NULL CHECK (cell_count >= 0),
    program_version TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE study_cells (
    study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    cell_hash TEXT NOT NULL,
    values_json TEXT NOT NULL,
    feasible INTEGER NOT NULL CHECK (feasible = 0 OR feasible = 1),
    reason TEXT NOT NULL,
    metrics_json TEXT,
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    PRIMARY KEY (study_id, idx)
) WITHOUT ROWID;
CREATE VIEW study_cell_summary AS
SELECT c.study_id AS study_id,
       st.name AS study,
       c.idx AS idx,
       c.values_json AS axis_values,
       c.feasible AS feasible,
       c.reason AS reason,
       json_extract(c.metrics_json, '$.total_g') / 1000.0 AS emissions_kg,
       json_extract(c.metrics_json, '$.operational_g') / 1000.0 AS operational_kg,
       json_extract(c.metrics_json, '$.embodied_g') / 1000.0 AS embodied_kg,
       json_extract(c.metrics_json, '$.energy_j') / 3.6e6 AS energy_kwh,
       json_extract(c.metrics_json, '$.completion_s') / 3600.0 AS completion_hours,
       json_extract(c.metrics_json, '$.deadline_met') AS deadline_met
FROM study_cells c
JOIN studies st ON st.id = c.study_id;
)sql";

// v5: cost (docs/ENGINE.md "Cost"). Each interval's electricity price and what its GPUs, energy and
// emissions cost; each run's totals and its spot strikes; run_summary and study_cell_summary show the cost.
// Runs and cells saved before have no cost: NULL.
constexpr const char* kMigration5 = R"sql(
ALTER TABLE series ADD COLUMN electricity_usd_per_kwh REAL;
ALTER TABLE series ADD COLUMN gpu_cost_usd REAL;
ALTER TABLE series ADD COLUMN energy_cost_usd REAL;
ALTER TABLE series ADD COLUMN carbon_cost_usd REAL;
ALTER TABLE metrics ADD COLUMN gpu_cost_usd REAL;
ALTER TABLE metrics ADD COLUMN energy_cost_usd REAL;
ALTER TABLE metrics ADD COLUMN carbon_cost_usd REAL;
ALTER TABLE metrics ADD COLUMN cost_usd REAL;
ALTER TABLE metrics ADD COLUMN spot_preemptions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE metrics ADD COLUMN spot_preemption_s REAL;
DROP VIEW run_summary;
CREATE VIEW run_summary AS
SELECT r.id AS run_id,
       r.name AS name,
       s.name AS scenario,
       r.policy AS policy,
       t.region_id AS region,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.start_utc, 'unixepoch') AS start,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.deadline_utc, 'unixepoch') AS deadline,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.created_at, 'unixepoch') AS created,
       r.status AS status,
       m.total_g / 1000.0 AS total_kg,
       m.dedicated_g / 1000.0 AS dedicated_kg,
       m.shared_g / 1000.0 AS shared_kg,
       m.operational_g / 1000.0 AS operational_kg,
       m.embodied_g / 1000.0 AS embodied_kg,
       m.marginal_g / 1000.0 AS marginal_kg,
       m.energy_j / 3.6e6 AS energy_kwh,
       m.completion_s / 3600.0 AS completion_h,
       m.average_power_w / 1000.0 AS average_power_kw,
       m.work_done AS work_done,
       m.work_per_g * 1000.0 AS work_per_kg,
       m.reconfigurations AS reconfigurations,
       m.preemptions AS preemptions,
       m.migrations AS migrations,
       m.deadline_met AS deadline_met,
       m.cost_usd AS cost_usd,
       m.gpu_cost_usd AS gpu_cost_usd,
       m.energy_cost_usd AS energy_cost_usd,
       m.carbon_cost_usd AS carbon_cost_usd,
       m.spot_preemptions AS spot_preemptions
FROM runs r
JOIN scenarios s ON s.id = r.scenario_id
JOIN metrics m ON m.run_id = r.id
LEFT JOIN run_traces rt ON rt.run_id = r.id AND rt.region_index = 0
LEFT JOIN traces t ON t.id = rt.trace_id;
DROP VIEW study_cell_summary;
CREATE VIEW study_cell_summary AS
SELECT c.study_id AS study_id,
       st.name AS study,
       c.idx AS idx,
       c.values_json AS axis_values,
       c.feasible AS feasible,
       c.reason AS reason,
       json_extract(c.metrics_json, '$.total_g') / 1000.0 AS emissions_kg,
       json_extract(c.metrics_json, '$.operational_g') / 1000.0 AS operational_kg,
       json_extract(c.metrics_json, '$.embodied_g') / 1000.0 AS embodied_kg,
       json_extract(c.metrics_json, '$.energy_j') / 3.6e6 AS energy_kwh,
       json_extract(c.metrics_json, '$.completion_s') / 3600.0 AS completion_hours,
       json_extract(c.metrics_json, '$.deadline_met') AS deadline_met,
       json_extract(c.metrics_json, '$.cost_usd') AS cost_usd
FROM study_cells c
JOIN studies st ON st.id = c.study_id;
)sql";

// v6: context parallelism (TrainingJob::contextParallel). Each interval's cp; runs saved before ran without
// it, which is what the default says.
constexpr const char* kMigration6 = R"sql(
ALTER TABLE series ADD COLUMN cp INTEGER NOT NULL DEFAULT 1;
)sql";

// v7: the rest of the configuration (ParallelConfig): FSDP and a recomputed block of layers (Megatron's
// block method; 0 = every layer when recompute is 'full'). Runs saved before used neither.
constexpr const char* kMigration7 = R"sql(
ALTER TABLE series ADD COLUMN fully_sharded INTEGER NOT NULL DEFAULT 0 CHECK (fully_sharded = 0 OR fully_sharded = 1);
ALTER TABLE series ADD COLUMN recompute_layers INTEGER NOT NULL DEFAULT 0 CHECK (recompute_layers >= 0);
)sql";

// v8: where a run's saving comes from (runner/SavingSplit.h), at both ends of the attribution. Runs saved
// before were not split: NULL (unknown).
constexpr const char* kMigration8 = R"sql(
ALTER TABLE metrics ADD COLUMN saving_configuration_dedicated_g REAL;
ALTER TABLE metrics ADD COLUMN saving_timing_dedicated_g REAL;
ALTER TABLE metrics ADD COLUMN saving_beyond_dedicated_g REAL;
ALTER TABLE metrics ADD COLUMN saving_configuration_shared_g REAL;
ALTER TABLE metrics ADD COLUMN saving_timing_shared_g REAL;
ALTER TABLE metrics ADD COLUMN saving_beyond_shared_g REAL;
)sql";

// v9: expert parallelism (ParallelConfig::ep, expertTp) of a mixture of experts. Runs saved before trained
// dense models, which is what the defaults say.
constexpr const char* kMigration9 = R"sql(
ALTER TABLE series ADD COLUMN ep INTEGER NOT NULL DEFAULT 1 CHECK (ep >= 1);
ALTER TABLE series ADD COLUMN expert_tp INTEGER NOT NULL DEFAULT 1 CHECK (expert_tp >= 1);
)sql";

constexpr const char* kMigrations[] = {kMigration1, kMigration2, kMigration3, kMigration4, kMigration5,
                                       kMigration6, kMigration7, kMigration8, kMigration9};
static_assert(std::size(kMigrations) == ResultsStore::kSchemaVersion, "one migration per schema version");

} // namespace

const char* migrationSql(int version) {
    if (version < 1 || version > ResultsStore::kSchemaVersion)
        throw std::out_of_range("no schema migration to version " + std::to_string(version));
    return kMigrations[version - 1];
}

} // namespace carbon3d::storage_detail
