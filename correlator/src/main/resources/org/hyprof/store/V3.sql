-- version 3: runs of one native function ('hyprof native LIB --call SYMBOL -o S.db'), the raw
-- material of the AndroProf thesis' comparisons (CPU profiles, architectures). Time is estimated
-- device time (ns), energy picojoules; the emulator's own time is kept apart (emulated_ns).
CREATE TABLE native_run (
  run_id INTEGER PRIMARY KEY AUTOINCREMENT,
  library TEXT NOT NULL, symbol TEXT NOT NULL, args TEXT NOT NULL,
  abi TEXT NOT NULL, cpu_profile TEXT NOT NULL, engine TEXT NOT NULL,
  return_value INTEGER NOT NULL, blocks INTEGER NOT NULL, instructions INTEGER NOT NULL,
  cycles INTEGER NOT NULL, est_ns INTEGER NOT NULL, energy_pj INTEGER NOT NULL, emulated_ns INTEGER NOT NULL,
  categories TEXT NOT NULL,        -- name=count,name=count (executed instructions per category)
  recorded_wall_millis INTEGER NOT NULL
);
CREATE TABLE native_run_function (
  run_id INTEGER NOT NULL, function TEXT NOT NULL,
  instructions INTEGER NOT NULL, cycles INTEGER NOT NULL, est_ns INTEGER NOT NULL, energy_pj INTEGER NOT NULL,
  PRIMARY KEY (run_id, function)
);
CREATE TABLE native_run_block (
  run_id INTEGER NOT NULL, address INTEGER NOT NULL, function TEXT,
  executions INTEGER NOT NULL, instructions INTEGER NOT NULL, cycles INTEGER NOT NULL,
  disassembly TEXT NOT NULL,       -- one instruction per line: mnemonic operands ; category
  PRIMARY KEY (run_id, address)
);
