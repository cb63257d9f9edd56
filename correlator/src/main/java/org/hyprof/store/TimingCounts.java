package org.hyprof.store;

/**
 * How far a probe's times can be trusted (the runtime's {@code Stats.COUNT_ONLY_CALLS},
 * {@code CLAMPED}, {@code TINY_CALLS}, {@code COUNT_ONLY_MEDIAN_NS}); all 0 in sessions of
 * schema 4 and older, which did not have them.
 *
 * @param countOnlyCalls      calls counted without timing, once the probe went count-only (its
 *                            calls were too short to time honestly); not in {@link ProbeStats#calls},
 *                            their time is in the caller's exclusive time
 * @param clamped             timed activations whose deducted time came out below 0 (or exclusive
 *                            above inclusive) and was clamped: the probe cost dominated them
 * @param tinyCalls           timed activations whose deducted inclusive time was below the tiny-call
 *                            threshold ({@code Calibration.TINY_EVENTS} × the probe event cost)
 * @param countOnlyMedianNanos the median deducted inclusive time (ns, from the histogram) the thread
 *                            that switched the probe to count-only saw then; 0 on other threads
 */
public record TimingCounts(long countOnlyCalls, long clamped, long tinyCalls, long countOnlyMedianNanos) {
    public static final TimingCounts NONE = new TimingCounts(0, 0, 0, 0);

    /** Merged over threads and processes: counts add up; the median is the one recorded (the largest, if several). */
    public TimingCounts plus(TimingCounts o) {
        return new TimingCounts(countOnlyCalls + o.countOnlyCalls, clamped + o.clamped, tinyCalls + o.tinyCalls,
                Math.max(countOnlyMedianNanos, o.countOnlyMedianNanos));
    }
}
