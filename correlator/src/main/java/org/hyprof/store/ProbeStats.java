package org.hyprof.store;

/**
 * Aggregates of one probe on one thread, cumulative. Fields mirror the runtime's {@code Stats}
 * layout; times in nanoseconds, deducted unless named raw. {@code hist} holds log2 buckets of
 * per-call deducted inclusive time (bucket b: 2^(b-1) ≤ d &lt; 2^b ns). {@code calls} counts timed
 * calls only, the ones the times are of; {@link #allCalls} adds those counted while the probe was
 * count-only ({@link TimingCounts}). {@code cpu} is the thread CPU time beside the wall times, or
 * null when the session recorded none ({@link CpuTime}).
 */
public record ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                         long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                         long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                         long throwsCount, long seen, long[] hist, NativeCost nativeCost, TimingCounts timing, CpuTime cpu) {
    /** Without CPU time (a session that recorded none). */
    public ProbeStats(long tid, int probeId, long calls, long inclRawNanos, long exclRawNanos, long inclNanos,
                      long exclNanos, long minNanos, long maxNanos, long outerCalls, long eventsInside,
                      long itersInside, long childCalls, long directLoopEvents, long directIters, long iterations,
                      long throwsCount, long seen, long[] hist, NativeCost nativeCost, TimingCounts timing) {
        this(tid, probeId, calls, inclRawNanos, exclRawNanos, inclNanos, exclNanos, minNanos, maxNanos, outerCalls,
                eventsInside, itersInside, childCalls, directLoopEvents, directIters, iterations, throwsCount, seen, hist,
                nativeCost, timing, null);
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
