package org.hyprof.store;

import org.hyprof.runtime.DurationHistogram;

/**
 * Aggregates of one probe on one thread, cumulative. Fields mirror the runtime's {@code Stats}
 * layout; times in nanoseconds, deducted unless named raw. {@code hist} holds log2 buckets of
 * per-call deducted inclusive time (bucket b: 2^(b-1) ≤ d &lt; 2^b ns). {@code calls} counts timed
 * calls only, the ones the times are of; {@link #allCalls} adds those counted while the probe was
 * count-only ({@link TimingCounts}). {@code cpu} is the thread CPU time beside the wall times, or
 * null when the session recorded none ({@link CpuTime}). {@code fine} is the same per-call
 * distribution in {@link org.hyprof.runtime.Buckets} (≤ 1 % error), or null when the session has
 * none for this row (written before format 4, or the runtime's budget refused it): its percentiles
 * are then log₂ ones.
 */
public record ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                         long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                         long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                         long throwsCount, long seen, long[] hist, NativeCost nativeCost, TimingCounts timing, CpuTime cpu,
                         DurationHistogram fine) {
    /** Without a fine histogram (log₂ percentiles only). */
    public ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                      long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                      long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                      long throwsCount, long seen, long[] hist, NativeCost nativeCost, TimingCounts timing, CpuTime cpu) {
        this(tid, probeId, calls, inclRawNanos, exclRawNanos, inclNanos, exclNanos, minNanos, maxNanos, outerCalls,
                eventsInside, itersInside, childCalls, directLoopEvents, directIters, iterations, throwsCount, seen, hist,
                nativeCost, timing, cpu, null);
    }

    /** Without CPU time (a session that recorded none). */
    public ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                      long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                      long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                      long throwsCount, long seen, long[] hist, NativeCost nativeCost, TimingCounts timing) {
        this(tid, probeId, calls, inclRawNanos, exclRawNanos, inclNanos, exclNanos, minNanos, maxNanos, outerCalls,
                eventsInside, itersInside, childCalls, directLoopEvents, directIters, iterations, throwsCount, seen, hist,
                nativeCost, timing, (CpuTime) null);
    }

    public ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                      long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                      long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                      long throwsCount, long seen, long[] hist, NativeCost nativeCost) {
        this(tid, probeId, calls, inclRawNanos, exclRawNanos, inclNanos, exclNanos, minNanos, maxNanos, outerCalls,
                eventsInside, itersInside, childCalls, directLoopEvents, directIters, iterations, throwsCount, seen, hist,
                nativeCost, TimingCounts.NONE);
    }

    public ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                      long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                      long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                      long throwsCount, long seen, long[] hist) {
        this(tid, probeId, calls, inclRawNanos, exclRawNanos, inclNanos, exclNanos, minNanos, maxNanos, outerCalls,
                eventsInside, itersInside, childCalls, directLoopEvents, directIters, iterations, throwsCount, seen, hist,
                NativeCost.NONE, TimingCounts.NONE);
    }

    /** Every call: timed ones and those counted without timing (count-only). */
    public long allCalls() {
        return calls + timing.countOnlyCalls();
    }
}
