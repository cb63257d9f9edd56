package org.hyprof.store;

/** One calibration of probe costs, in picoseconds (see the runtime's Calibration). */
public record CalibrationRecord(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos,
                                long clockPicos) {
    /** How many probe events' cost the tiny-call threshold is (the runtime's {@code Calibration.TINY_EVENTS}). */
    public static final int TINY_EVENTS = org.hyprof.runtime.Calibration.TINY_EVENTS;

    /** Part of a callee's probe pair charged to its caller. */
    public long outerPicos() {
        return Math.max(0, 2 * perEventPicos - innerPicos);
    }

    /**
     * The tiny-call threshold, ns, as the runtime computes it: calls whose deducted time is below
     * it are too short to time honestly, and a probe whose median call is below it goes count-only.
     */
    public long tinyNanos() {
        return TINY_EVENTS * perEventPicos / 1000;
    }
}
