-- SPDX-License-Identifier: MIT
-- A run as schema version 8 stored it (its saving split, before expert parallelism): loaded
-- into a file built by running only migrations 1 to 8, then opened with the current code
-- (tst_storagemigrations). The run is v7_data.sql's with its saving split at both ends.
INSERT INTO scenarios (id, name, canonical_json, content_hash, created_at)
VALUES (1, 'June CAISO', '{"name":"June CAISO"}', 'sha256:june', 1700000000);
INSERT INTO traces (id, region_id, content_sha256, source_column, source_file, format, signal, step_seconds,
                    start_utc, rows, attribution)
VALUES (1, 'US-CAL-CISO', 'abc123', 'Carbon Intensity gCO2eq/kWh (LCA)', 'US-CAL-CISO_2022.csv',
        'electricitymaps-csv', 'average', 3600, 1640995200, 8760, 'Electricity Maps, ODbL');
INSERT INTO runs (id, scenario_id, policy, options_json, modelling_json, forecast_kind, forecast_mape,
                  program_version, created_at, status, start_utc, deadline_utc, name)
VALUES (1, 1, 'static-max', '{"a":"1"}', '{"parked_gpus":"idle"}', 'oracle', 0.0, '0.0.9', 1700000100,
        'met-deadline', 1654041600, 1654052400, 'renamed in v8');
INSERT INTO run_traces (run_id, region_index, trace_id) VALUES (1, 0, 1);
INSERT INTO metrics (run_id, operational_g, marginal_g, embodied_g, total_g, energy_j, work_done, completion_s,
                     finished, deadline_met, reconfigurations, reconfiguration_s, preemptions, preemption_s,
                     migrations, migration_s, average_power_w, work_per_g, dedicated_g, shared_g,
                     gpu_cost_usd, energy_cost_usd, carbon_cost_usd, cost_usd, spot_preemptions, spot_preemption_s,
                     saving_configuration_dedicated_g, saving_timing_dedicated_g, saving_beyond_dedicated_g,
                     saving_configuration_shared_g, saving_timing_shared_g, saving_beyond_shared_g)
VALUES (1, 1400.0, 0.0, 100.0, 1500.0, 10800000.0, 3000.0, 7200.0, 1, 1, 0, 0.0, 0, 0.0, 0, 0.0, 1500.0, 2.0, 1600.0,
        1450.0, 8.0, 2.0, 1.0, 11.0, 0, 0.0, 50.0, 25.0, 25.0, 40.0, 20.0, 10.0);
INSERT INTO series (run_id, idx, start_utc, end_utc, region_index, activity, dp, tp, pp, micro_batch, interleave,
                    recompute, sequence_parallel, distributed_optimizer, gpus_active, gpus_held, power_limit_w,
                    facility_power_w, ci_g_per_kwh, forecast_ci_g_per_kwh, marginal_ci_g_per_kwh, work_done,
                    energy_j, emissions_g, marginal_emissions_g, embodied_g, electricity_usd_per_kwh, gpu_cost_usd,
                    energy_cost_usd, carbon_cost_usd, cp, fully_sharded, recompute_layers)
VALUES (1, 0, 1654041600, 1654045200, 0, 'training', 4, 8, 2, 1, 1, 'full', 1, 0, 64, 64, 0.0, 1500.0, 250.0,
        250.0, 0.0, 1500.0, 5400000.0, 375.0, 0.0, 50.0, 0.125, 4.0, 1.0, 0.5, 2, 0, 0),
       (1, 1, 1654045200, 1654048800, 0, 'training', 4, 8, 2, 1, 1, 'full', 1, 0, 64, 64, 0.0, 1500.0, 683.3333,
        683.3333, 0.0, 1500.0, 5400000.0, 1025.0, 0.0, 50.0, 0.125, 4.0, 1.0, 0.5, 2, 0, 0),
       (1, 2, 1654048800, 1654052400, 0, 'paused', 4, 8, 2, 1, 1, 'full', 1, 0, 0, 64, 0.0, 0.0, 300.0, 300.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.125, 0.0, 0.0, 0.0, 2, 0, 0);
INSERT INTO warnings (run_id, idx, message) VALUES (1, 0, 'saved by schema version 8');
