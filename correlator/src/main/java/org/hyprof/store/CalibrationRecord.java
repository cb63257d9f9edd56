package org.hyprof.store;

/**
 * One calibration of probe costs, in picoseconds (see the runtime's Calibration).
 *
 * @param perEventSpreadPicos the noise of {@code perEventPicos} in its measurement (the spread of
 *                            its rounds, extremes dropped); 0 when unknown (sessions before schema 10)
 * @param countPicos          one call of a count-only probe, deducted like a probe event; 0 when unknown
 * @param loopFlushPicos      one hand-over of count-only loop activations the code added up; 0 when unknown
 */
public record CalibrationRecord(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos,
                                long clockPicos, long perEventSpreadPicos, long countPicos, long loopFlushPicos) {
    /** How many probe events' cost the tiny-call threshold is (the runtime's {@code Calibration.TINY_EVENTS}). */
    public static final int TINY_EVENTS = org.hyprof.runtime.Calibration.TINY_EVENTS;
    /** The same for a loop's activations (the runtime's {@code Calibration.TINY_LOOP_EVENTS}). */
    public static final int TINY_LOOP_EVENTS = org.hyprof.runtime.Calibration.TINY_LOOP_EVENTS;

    /** A calibration as sessions before schema 10 stored it: spread, count-only and hand-over costs unknown. */
    public CalibrationRecord(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos, long clockPicos) {
        this(measuredAtNanos, innerPicos, perEventPicos, perIterPicos, clockPicos, 0, 0, 0);
    }

    /**
     * The calibration a run's times were deducted with at its end: the last record (by time). The
     * runtime writes every measurement, and after one that did not go into effect (it deducts with
     * the median of its last measurements, {@code Calibration.choose}) the figures in effect
     * again, stamped with that time; null for none.
     */
    public static CalibrationRecord inEffect(java.util.List<CalibrationRecord> cals) {
        return cals.isEmpty() ? null : cals.get(cals.size() - 1);
    }

    /**
     * The measurements of {@code cals}, each once, in the order they were made: without the
     * restatements {@link #inEffect} explains (the same figures at a later time).
     */
    public static java.util.List<CalibrationRecord> measurements(java.util.List<CalibrationRecord> cals) {
        java.util.Map<CalibrationRecord, CalibrationRecord> first = new java.util.LinkedHashMap<>();
        for (CalibrationRecord c : cals) first.putIfAbsent(c.figures(), c);
        return new java.util.ArrayList<>(first.values());
    }

    /** Whether {@code other} has the same figures, whenever it was stamped. */
    public boolean sameFigures(CalibrationRecord other) {
        return other != null && figures().equals(other.figures());
    }

    private CalibrationRecord figures() {
        return new CalibrationRecord(0, innerPicos, perEventPicos, perIterPicos, clockPicos, perEventSpreadPicos, countPicos, loopFlushPicos);
    }

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

    /**
     * The tiny threshold of a loop's activations, ns, as the runtime computes it (higher than a
     * method's: a count-only loop costs next to nothing and its time stays in its method's).
     */
    public long tinyLoopNanos() {
        return TINY_LOOP_EVENTS * perEventPicos / 1000;
    }
}
