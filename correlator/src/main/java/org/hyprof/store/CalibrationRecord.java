package org.hyprof.store;

/** One calibration of probe costs, in picoseconds (see the runtime's Calibration). */
public record CalibrationRecord(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos,
                                long clockPicos) {
    /** Part of a callee's probe pair charged to its caller. */
    public long outerPicos() {
        return Math.max(0, 2 * perEventPicos - innerPicos);
    }
}
