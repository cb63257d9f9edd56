-- version 10: what else each calibration measured (issue 15 item 7): the noise of the probe event
-- cost in its measurement (per_event_spread_ps), one count-only call (count_ps) and one hand-over
-- of count-only loop activations the code added up (loop_flush_ps), picoseconds. 0 when unknown:
-- sessions recorded before this version, and runtimes that did not send them.
ALTER TABLE calibration ADD COLUMN per_event_spread_ps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calibration ADD COLUMN count_ps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calibration ADD COLUMN loop_flush_ps INTEGER NOT NULL DEFAULT 0;
