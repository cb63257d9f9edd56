package org.hyprof.correlate;

import org.hyprof.store.CpuTime;
import org.hyprof.store.NativeCost;

/**
 * One report row: a method or a loop, merged over threads and processes. Times in nanoseconds,
 * deducted (the probes' calibrated cost taken out) unless named raw. Inclusive time of a
 * recursive method counts outermost activations only; exclusive counts every activation.
 * Deducted times are never negative: a sum below 0 (sessions recorded before the runtime clamped
 * each call) is shown as 0 and the row is flagged ({@link #probeWarning}).
 *
 * @param method      its name ({@link org.hyprof.config.MethodNames}): {@code pkg.Class.name(int, long[])},
 *                    {@code …#loop@LINE} or {@code …#loopK}; JVM descriptors when asked
 * @param kind        {@code method} or {@code loop}
 * @param resolution  process, thread, method or loop
 * @param calls       activations (loops: entries), timed and count-only: every call made
 * @param iterations  loops: back edges taken
 * @param throwsCount activations ended by an exception
 * @param nativeCost  native code it ran in a hybrid run: exclusive (called directly) and inclusive
 *                    (also under its callees); estimated device time, which is part of its times
 * @param energyMicrojoules     exclusive energy: Java part (exclusive thread CPU time, or wall
 *                              time in sessions without CPU time, without native time × the
 *                              power profile's CPU power) + native part (CPU profile)
 * @param energyInclMicrojoules the same, inclusive of callees
 * @param countOnlyCalls  of {@code calls}, those counted without timing once the probe went
 *                        count-only (too short to time honestly); the times and percentiles are of
 *                        the others, and these calls' time is in their callers' exclusive time
 * @param countOnlyReason why the probe went count-only, e.g. {@code count-only: median 4 ns < 37 ns
 *                        = 3 × probe cost 12.3 ns}; empty when it never did
 * @param clamped         timed activations whose deducted time came out below 0 (or exclusive above
 *                        inclusive) and was clamped by the runtime
 * @param probeShare      share of the raw inclusive time that was probe cost: (raw − deducted) / raw,
 *                        in [0, 1]; 0 when there is no raw time
 * @param probeWarning    why the row's times are dominated by probe cost (see {@link #PROBE_SHARE_LIMIT},
 *                        {@link #CLAMPED_LIMIT}); empty when they are not
 * @param cpu             thread CPU time, inclusive and exclusive, deducted like the wall times;
 *                        null when the session recorded none (shown empty)
 * @param percentileErrorBound how far {@code p50Nanos}/{@code p99Nanos} may be from the exact
 *                        order statistics of the timed calls, relative: 0.0078 (fine histograms),
 *                        1.0 (log₂ histograms of sessions before format 4: within a factor of 2)
 */
public record MethodRow(String method, String kind, String resolution, long calls, long inclNanos, long exclNanos,
                        long inclRawNanos, long exclRawNanos, long minNanos, long maxNanos, long p50Nanos,
                        long p99Nanos, long iterations, long throwsCount, long[] hist, NativeCost nativeCost,
                        double energyMicrojoules, double energyInclMicrojoules, long countOnlyCalls,
                        String countOnlyReason, long clamped, double probeShare, String probeWarning, CpuTime cpu,
                        double percentileErrorBound) {
    /** With log₂ percentiles ({@link Histogram#LOG2_ERROR_BOUND}). */
    public MethodRow(String method, String kind, String resolution, long calls, long inclNanos, long exclNanos,
                     long inclRawNanos, long exclRawNanos, long minNanos, long maxNanos, long p50Nanos,
                     long p99Nanos, long iterations, long throwsCount, long[] hist, NativeCost nativeCost,
                     double energyMicrojoules, double energyInclMicrojoules, long countOnlyCalls,
                     String countOnlyReason, long clamped, double probeShare, String probeWarning, CpuTime cpu) {
        this(method, kind, resolution, calls, inclNanos, exclNanos, inclRawNanos, exclRawNanos, minNanos, maxNanos,
                p50Nanos, p99Nanos, iterations, throwsCount, hist, nativeCost, energyMicrojoules, energyInclMicrojoules,
                countOnlyCalls, countOnlyReason, clamped, probeShare, probeWarning, cpu, Histogram.LOG2_ERROR_BOUND);
    }

    /** Whether p50/p99 come from log₂ histograms (exact only within a factor of 2). */
    public boolean log2Percentiles() {
        return percentileErrorBound >= Histogram.LOG2_ERROR_BOUND;
    }

    /** Without CPU time (a session that recorded none). */
    public MethodRow(String method, String kind, String resolution, long calls, long inclNanos, long exclNanos,
                     long inclRawNanos, long exclRawNanos, long minNanos, long maxNanos, long p50Nanos,
                     long p99Nanos, long iterations, long throwsCount, long[] hist, NativeCost nativeCost,
                     double energyMicrojoules, double energyInclMicrojoules, long countOnlyCalls,
                     String countOnlyReason, long clamped, double probeShare, String probeWarning) {
        this(method, kind, resolution, calls, inclNanos, exclNanos, inclRawNanos, exclRawNanos, minNanos, maxNanos,
                p50Nanos, p99Nanos, iterations, throwsCount, hist, nativeCost, energyMicrojoules, energyInclMicrojoules,
                countOnlyCalls, countOnlyReason, clamped, probeShare, probeWarning, (CpuTime) null);
    }

    /** Inclusive wall time not spent on a CPU (waiting, sleeping, blocked, descheduled); null without CPU time. */
    public Long waitInclNanos() {
        return cpu == null ? null : Math.max(0, inclNanos - cpu.inclNanos());
    }

    /** Exclusive wall time not spent on a CPU; null without CPU time. */
    public Long waitExclNanos() {
        return cpu == null ? null : Math.max(0, exclNanos - cpu.exclNanos());
    }

    /** A row whose probe share is above this is flagged: most of its raw time was the probes' own. */
    public static final double PROBE_SHARE_LIMIT = 0.5;
    /** A row whose clamped activations are above this share of its timed calls is flagged. */
    public static final double CLAMPED_LIMIT = 0.10;

    /** Whether some of its calls were counted without timing. */
    public boolean countOnly() {
        return countOnlyCalls > 0;
    }

    /** Whether its times are dominated by probe cost. */
    public boolean probeDominated() {
        return !probeWarning.isEmpty();
    }

    /** The short mark of the text table: {@code c} count-only, {@code !} dominated by probe cost. */
    public String mark() {
        return (countOnly() ? "c" : "") + (probeDominated() ? "!" : "");
    }
}
