-- version 2: hybrid runs (native code in bb-tracer: costs per method, blocks, epochs), per-thread
-- top-level totals (for the check that Σ exclusive = total), session-level settings (power).
-- Native time is estimated device time (ns), energy picojoules.
ALTER TABLE probe_stats ADD COLUMN native_instr INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_cycles INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_est_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_energy_pj INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_instr_incl INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_cycles_incl INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_est_ns_incl INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN native_energy_pj_incl INTEGER NOT NULL DEFAULT 0;
ALTER TABLE thread ADD COLUMN top_incl_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE thread ADD COLUMN top_native_est_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE thread ADD COLUMN top_native_energy_pj INTEGER NOT NULL DEFAULT 0;
CREATE TABLE native_info (
  process_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (process_id, key)
);
CREATE TABLE native_block (
  process_id INTEGER NOT NULL, library TEXT NOT NULL, block_index INTEGER NOT NULL,
  address INTEGER NOT NULL,        -- offset in the library (as objdump shows it)
  function TEXT, size INTEGER NOT NULL, instructions INTEGER NOT NULL,
  categories TEXT NOT NULL,        -- name=count,name=count (per execution)
  disassembly TEXT NOT NULL,       -- one instruction per line
  PRIMARY KEY (process_id, library, block_index)
);
CREATE TABLE native_block_count (
  process_id INTEGER NOT NULL, library TEXT NOT NULL, block_index INTEGER NOT NULL,
  probe_id INTEGER NOT NULL,       -- the native method whose calls executed it
  executions INTEGER NOT NULL,
  PRIMARY KEY (process_id, library, block_index, probe_id)
);
CREATE TABLE native_epoch (
  process_id INTEGER NOT NULL, epoch_id INTEGER NOT NULL, tid INTEGER NOT NULL, probe_id INTEGER NOT NULL,
  symbol TEXT NOT NULL, blocks INTEGER NOT NULL, instructions INTEGER NOT NULL, cycles INTEGER NOT NULL,
  est_ns INTEGER NOT NULL, energy_pj INTEGER NOT NULL, wall_ns INTEGER NOT NULL,
  PRIMARY KEY (process_id, epoch_id)
);
CREATE INDEX native_block_count_probe ON native_block_count(process_id, probe_id);
