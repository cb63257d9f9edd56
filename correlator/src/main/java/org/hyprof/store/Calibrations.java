package org.hyprof.store;

import java.util.List;

/**
 * The runtime's measurements of its own probe costs ({@code calibration}, picoseconds), one row
 * per calibration of a process (at start and on each recalibration), read back in the order they
 * were measured; reports show them beside the times they were deducted from.
 */
final class Calibrations {
    private final Sql sql;

    Calibrations(Sql sql) {
        this.sql = sql;
    }

    void add(long processId, CalibrationRecord c) {
        sql.update("INSERT INTO calibration(process_id, measured_at_ns, inner_ps, per_event_ps, per_iter_ps, clock_ps,"
                        + " per_event_spread_ps, count_ps, loop_flush_ps) VALUES (?,?,?,?,?,?,?,?,?)",
                processId, c.measuredAtNanos(), c.innerPicos(), c.perEventPicos(), c.perIterPicos(), c.clockPicos(),
                c.perEventSpreadPicos(), c.countPicos(), c.loopFlushPicos());
    }

    List<CalibrationRecord> list(long processId) {
        return sql.query("SELECT measured_at_ns, inner_ps, per_event_ps, per_iter_ps, clock_ps, per_event_spread_ps,"
                + " count_ps, loop_flush_ps FROM calibration WHERE process_id = ? ORDER BY measured_at_ns",
                rs -> new CalibrationRecord(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8)), processId);
    }
}
