package org.hyprof.store;

/**
 * One node of a thread's calling-context tree as recorded: a distinct call path (its parent's path
 * plus this frame). Node 0 is the thread itself and is never stored; {@code parent == 0} is a
 * top-level frame. Times in nanoseconds over every activation at this node, deducted unless named
 * raw; {@code nativeCost} holds the node's own (exclusive) native work only, its inclusive fields 0.
 *
 * @param kind  {@link #METHOD}, {@link #LOOP} or {@link #OTHER_PATHS}
 * @param calls timed activations; {@code countOnlyCalls} were counted without timing
 * @param cpu   thread CPU time beside the wall times, or null when the run recorded none
 * @param fine  per-call deducted inclusive times (log-linear buckets), null when the node kept none
 *              (fewer than two timed calls, or past the runtime's histogram budget)
 */
public record TreeRow(long tid, int node, int parent, int probeId, int kind, long calls, long countOnlyCalls,
                      long inclRawNanos, long exclRawNanos, long inclNanos, long exclNanos, long minNanos, long maxNanos,
                      long iterations, long throwsCount, NativeCost nativeCost, CpuTime cpu,
                      org.hyprof.runtime.DurationHistogram fine) {
    public static final int METHOD = 0;
    public static final int LOOP = 1;
    /** The pseudo-frame of the calls made on paths past the node budget ({@code probeId} is -1). */
    public static final int OTHER_PATHS = 2;

    /** Every call: timed and count-only. */
    public long allCalls() {
        return calls + countOnlyCalls;
    }
}
