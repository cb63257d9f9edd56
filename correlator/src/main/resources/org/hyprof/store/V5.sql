-- version 5: how far each probe's times can be trusted (the runtime's Stats.COUNT_ONLY_CALLS,
-- CLAMPED, TINY_CALLS, COUNT_ONLY_MEDIAN_NS). count_only_calls are calls counted without timing
-- (not in calls); clamped, activations whose deducted time was clamped at 0; tiny_calls, timed
-- calls below the tiny-call threshold; count_only_median_ns, the median that made the probe
-- count-only. Rows stored before version 5 read 0.
ALTER TABLE probe_stats ADD COLUMN count_only_calls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN clamped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN tiny_calls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE probe_stats ADD COLUMN count_only_median_ns INTEGER NOT NULL DEFAULT 0;
