-- version 7: thread CPU time (issue 18; the runtime's Stats.CPU_INCL, CPU_EXCL, CPU_CLOCK). cpu_incl_ns
-- is the deducted CPU time of outermost activations, cpu_excl_ns of every activation less its direct
-- callees'; cpu_clock how it was measured (1 sampled, 2 dual). NULL when none was recorded: rows
-- stored before version 7, sessions of format 2, runs with cpuClock=off. Reports show NULL as empty.
ALTER TABLE probe_stats ADD COLUMN cpu_incl_ns INTEGER;
ALTER TABLE probe_stats ADD COLUMN cpu_excl_ns INTEGER;
ALTER TABLE probe_stats ADD COLUMN cpu_clock INTEGER;
-- thread.top_cpu_ns: CPU time of the thread's top-level activations (the thread's CPU total, against
-- which Σ cpu_excl_ns is checked); NULL as above.
ALTER TABLE thread ADD COLUMN top_cpu_ns INTEGER;
