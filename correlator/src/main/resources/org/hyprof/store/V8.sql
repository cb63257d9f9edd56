-- version 8: the calling-context tree (issue 22). One row per (thread, node): node 0 is the thread
-- itself (never stored), parent 0 a top-level frame. kind: 0 method, 1 loop, 2 "(other paths)", the
-- pseudo-frame that holds the calls on paths past the node budget. Times of every activation at the
-- node (a path never contains itself, so there is no outermost rule); native_* are the node's own
-- (exclusive) native cost; cpu_* NULL when the run recorded no CPU time; hist: per-call deducted
-- inclusive time, encoded as probe_stats.hist, NULL when not recorded.
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
-- per process: the node budget the runtime ran with and the nodes it kept (overflow pseudo-frames included)
CREATE TABLE call_tree_info (
  process_id INTEGER PRIMARY KEY, node_budget INTEGER NOT NULL, nodes INTEGER NOT NULL
);
