-- hyprof session schema, version 1. Times are nanoseconds (deducted unless *_raw_ns),
-- calibration values picoseconds. One file holds one session; a session holds processes.
CREATE TABLE session_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE process (
  id INTEGER PRIMARY KEY,
  pid INTEGER, name TEXT, vm TEXT, mode TEXT, budget_bytes INTEGER,
  start_wall_ms INTEGER, start_ns INTEGER, end_wall_ms INTEGER,
  status TEXT NOT NULL,            -- running | ended | crashed | damaged
  event_drops INTEGER NOT NULL DEFAULT 0,
  source TEXT                      -- the session file or connection it came from
);
CREATE TABLE probe (
  process_id INTEGER NOT NULL REFERENCES process(id),
  id INTEGER NOT NULL,
  kind TEXT NOT NULL, resolution TEXT NOT NULL,
  class TEXT NOT NULL, method TEXT NOT NULL, descriptor TEXT NOT NULL,
  owner_id INTEGER NOT NULL, loop_index INTEGER NOT NULL, line INTEGER NOT NULL, source TEXT,
  PRIMARY KEY (process_id, id)
);
CREATE TABLE skipped (
  process_id INTEGER NOT NULL REFERENCES process(id),
  class TEXT NOT NULL, method TEXT NOT NULL, descriptor TEXT NOT NULL, reason TEXT NOT NULL
);
CREATE TABLE thread (
  process_id INTEGER NOT NULL REFERENCES process(id),
  tid INTEGER NOT NULL, name TEXT NOT NULL,
  event_drops INTEGER NOT NULL DEFAULT 0, depth_drops INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (process_id, tid)
);
CREATE TABLE calibration (
  process_id INTEGER NOT NULL REFERENCES process(id),
  measured_at_ns INTEGER NOT NULL,
  inner_ps INTEGER NOT NULL, per_event_ps INTEGER NOT NULL, per_iter_ps INTEGER NOT NULL, clock_ps INTEGER NOT NULL
);
CREATE TABLE probe_stats (
  process_id INTEGER NOT NULL, tid INTEGER NOT NULL, probe_id INTEGER NOT NULL,
  calls INTEGER NOT NULL, incl_raw_ns INTEGER NOT NULL, excl_raw_ns INTEGER NOT NULL,
  incl_ns INTEGER NOT NULL, excl_ns INTEGER NOT NULL, min_ns INTEGER NOT NULL, max_ns INTEGER NOT NULL,
  outer_calls INTEGER NOT NULL, events_inside INTEGER NOT NULL, iters_inside INTEGER NOT NULL,
  child_calls INTEGER NOT NULL, direct_loop_events INTEGER NOT NULL, direct_iters INTEGER NOT NULL,
  iterations INTEGER NOT NULL, throws INTEGER NOT NULL, seen INTEGER NOT NULL,
  hist BLOB NOT NULL,             -- log2 buckets of per-call deducted inclusive time, 48 x int64 little-endian
  PRIMARY KEY (process_id, tid, probe_id)
);
CREATE TABLE event_chunk (
  process_id INTEGER NOT NULL, tid INTEGER NOT NULL, seq INTEGER NOT NULL,
  base_ns INTEGER NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY (process_id, tid, seq)
);
CREATE TABLE import_note (
  process_id INTEGER, severity TEXT NOT NULL, message TEXT NOT NULL
);
CREATE INDEX probe_stats_probe ON probe_stats(process_id, probe_id);
