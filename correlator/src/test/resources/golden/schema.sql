CREATE TABLE calibration (
  process_id INTEGER NOT NULL REFERENCES process(id),
  measured_at_ns INTEGER NOT NULL,
  inner_ps INTEGER NOT NULL, per_event_ps INTEGER NOT NULL, per_iter_ps INTEGER NOT NULL, clock_ps INTEGER NOT NULL
, per_event_spread_ps INTEGER NOT NULL DEFAULT 0, count_ps INTEGER NOT NULL DEFAULT 0, loop_flush_ps INTEGER NOT NULL DEFAULT 0);
CREATE TABLE call_tree (
  process_id INTEGER NOT NULL, tid INTEGER NOT NULL, node INTEGER NOT NULL, parent INTEGER NOT NULL,
  probe_id INTEGER NOT NULL, kind INTEGER NOT NULL,
  calls INTEGER NOT NULL, count_only_calls INTEGER NOT NULL,
  incl_raw_ns INTEGER NOT NULL, excl_raw_ns INTEGER NOT NULL, incl_ns INTEGER NOT NULL, excl_ns INTEGER NOT NULL,
  min_ns INTEGER NOT NULL, max_ns INTEGER NOT NULL, iterations INTEGER NOT NULL, throws INTEGER NOT NULL,
  native_instr INTEGER NOT NULL, native_cycles INTEGER NOT NULL, native_est_ns INTEGER NOT NULL, native_energy_pj INTEGER NOT NULL,
  cpu_incl_ns INTEGER, cpu_excl_ns INTEGER, cpu_clock INTEGER, hist BLOB,
  PRIMARY KEY (process_id, tid, node)
);
CREATE TABLE call_tree_info (
  process_id INTEGER PRIMARY KEY, node_budget INTEGER NOT NULL, nodes INTEGER NOT NULL
);
CREATE TABLE event_chunk (
  process_id INTEGER NOT NULL, tid INTEGER NOT NULL, seq INTEGER NOT NULL,
  base_ns INTEGER NOT NULL, data BLOB NOT NULL, crc32 INTEGER,
  PRIMARY KEY (process_id, tid, seq)
);
CREATE TABLE import_note (
  process_id INTEGER, severity TEXT NOT NULL, message TEXT NOT NULL
);
CREATE TABLE native_block (
  process_id INTEGER NOT NULL, library TEXT NOT NULL, block_index INTEGER NOT NULL,
  address INTEGER NOT NULL,n  function TEXT, size INTEGER NOT NULL, instructions INTEGER NOT NULL,
  categories TEXT NOT NULL,n  disassembly TEXT NOT NULL,n  PRIMARY KEY (process_id, library, block_index)
);
CREATE TABLE native_block_count (
  process_id INTEGER NOT NULL, library TEXT NOT NULL, block_index INTEGER NOT NULL,
  probe_id INTEGER NOT NULL,n  executions INTEGER NOT NULL,
  PRIMARY KEY (process_id, library, block_index, probe_id)
);
CREATE TABLE native_epoch (
  process_id INTEGER NOT NULL, epoch_id INTEGER NOT NULL, tid INTEGER NOT NULL, probe_id INTEGER NOT NULL,
  symbol TEXT NOT NULL, blocks INTEGER NOT NULL, instructions INTEGER NOT NULL, cycles INTEGER NOT NULL,
  est_ns INTEGER NOT NULL, energy_pj INTEGER NOT NULL, wall_ns INTEGER NOT NULL,
  PRIMARY KEY (process_id, epoch_id)
);
CREATE TABLE native_info (
  process_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (process_id, key)
);
CREATE TABLE native_library_cost (
  process_id INTEGER NOT NULL, library TEXT NOT NULL, code_library TEXT NOT NULL, system INTEGER NOT NULL,
  probe_id INTEGER NOT NULL,
  blocks INTEGER NOT NULL, instructions INTEGER NOT NULL, cycles INTEGER NOT NULL, est_ns INTEGER NOT NULL,
  energy_pj INTEGER NOT NULL,
  PRIMARY KEY (process_id, library, code_library, probe_id)
);
CREATE TABLE native_run (
  run_id INTEGER PRIMARY KEY AUTOINCREMENT,
  library TEXT NOT NULL, symbol TEXT NOT NULL, args TEXT NOT NULL,
  abi TEXT NOT NULL, cpu_profile TEXT NOT NULL, engine TEXT NOT NULL,
  return_value INTEGER NOT NULL, blocks INTEGER NOT NULL, instructions INTEGER NOT NULL,
  cycles INTEGER NOT NULL, est_ns INTEGER NOT NULL, energy_pj INTEGER NOT NULL, emulated_ns INTEGER NOT NULL,
  categories TEXT NOT NULL,n  recorded_wall_millis INTEGER NOT NULL
);
CREATE TABLE native_run_block (
  run_id INTEGER NOT NULL, address INTEGER NOT NULL, function TEXT,
  executions INTEGER NOT NULL, instructions INTEGER NOT NULL, cycles INTEGER NOT NULL,
  disassembly TEXT NOT NULL,n  PRIMARY KEY (run_id, address)
);
CREATE TABLE native_run_function (
  run_id INTEGER NOT NULL, function TEXT NOT NULL,
  instructions INTEGER NOT NULL, cycles INTEGER NOT NULL, est_ns INTEGER NOT NULL, energy_pj INTEGER NOT NULL,
  PRIMARY KEY (run_id, function)
);
CREATE TABLE probe (
  process_id INTEGER NOT NULL REFERENCES process(id),
  id INTEGER NOT NULL,
  kind TEXT NOT NULL, resolution TEXT NOT NULL,
  class TEXT NOT NULL, method TEXT NOT NULL, descriptor TEXT NOT NULL,
  owner_id INTEGER NOT NULL, loop_index INTEGER NOT NULL, line INTEGER NOT NULL, source TEXT,
  PRIMARY KEY (process_id, id)
);
CREATE TABLE probe_stats (
  process_id INTEGER NOT NULL, tid INTEGER NOT NULL, probe_id INTEGER NOT NULL,
  calls INTEGER NOT NULL, incl_raw_ns INTEGER NOT NULL, excl_raw_ns INTEGER NOT NULL,
  incl_ns INTEGER NOT NULL, excl_ns INTEGER NOT NULL, min_ns INTEGER NOT NULL, max_ns INTEGER NOT NULL,
  outer_calls INTEGER NOT NULL, events_inside INTEGER NOT NULL, iters_inside INTEGER NOT NULL,
  child_calls INTEGER NOT NULL, direct_loop_events INTEGER NOT NULL, direct_iters INTEGER NOT NULL,
  iterations INTEGER NOT NULL, throws INTEGER NOT NULL, seen INTEGER NOT NULL,
  hist BLOB NOT NULL, native_instr INTEGER NOT NULL DEFAULT 0, native_cycles INTEGER NOT NULL DEFAULT 0, native_est_ns INTEGER NOT NULL DEFAULT 0, native_energy_pj INTEGER NOT NULL DEFAULT 0, native_instr_incl INTEGER NOT NULL DEFAULT 0, native_cycles_incl INTEGER NOT NULL DEFAULT 0, native_est_ns_incl INTEGER NOT NULL DEFAULT 0, native_energy_pj_incl INTEGER NOT NULL DEFAULT 0, count_only_calls INTEGER NOT NULL DEFAULT 0, clamped INTEGER NOT NULL DEFAULT 0, tiny_calls INTEGER NOT NULL DEFAULT 0, count_only_median_ns INTEGER NOT NULL DEFAULT 0, cpu_incl_ns INTEGER, cpu_excl_ns INTEGER, cpu_clock INTEGER,n  PRIMARY KEY (process_id, tid, probe_id)
);
CREATE TABLE process (
  id INTEGER PRIMARY KEY,
  pid INTEGER, name TEXT, vm TEXT, mode TEXT, budget_bytes INTEGER,
  start_wall_ms INTEGER, start_ns INTEGER, end_wall_ms INTEGER,
  status TEXT NOT NULL,n  event_drops INTEGER NOT NULL DEFAULT 0,
  source TEXTn);
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE session_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE skipped (
  process_id INTEGER NOT NULL REFERENCES process(id),
  class TEXT NOT NULL, method TEXT NOT NULL, descriptor TEXT NOT NULL, reason TEXT NOT NULL
);
CREATE TABLE sqlite_sequence(name,seq);
CREATE TABLE thread (
  process_id INTEGER NOT NULL REFERENCES process(id),
  tid INTEGER NOT NULL, name TEXT NOT NULL,
  event_drops INTEGER NOT NULL DEFAULT 0, depth_drops INTEGER NOT NULL DEFAULT 0, top_incl_ns INTEGER NOT NULL DEFAULT 0, top_native_est_ns INTEGER NOT NULL DEFAULT 0, top_native_energy_pj INTEGER NOT NULL DEFAULT 0, top_cpu_ns INTEGER,
  PRIMARY KEY (process_id, tid)
);
CREATE TABLE thread_os_id (
  process_id INTEGER NOT NULL REFERENCES process(id),
  tid INTEGER NOT NULL,
  os_tid INTEGER NOT NULL,
  PRIMARY KEY (process_id, tid)
);
CREATE INDEX native_block_count_probe ON native_block_count(process_id, probe_id);
CREATE INDEX probe_stats_probe ON probe_stats(process_id, probe_id);
