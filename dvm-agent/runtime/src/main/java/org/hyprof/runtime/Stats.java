package org.hyprof.runtime;

/**
 * Layout of one probe's aggregate record inside a thread's stats page. A page holds
 * {@link #PAGE_PROBES} probes × {@link #STRIDE} longs and is allocated the first time a thread
 * records one of them, so memory is O(threads × probes touched), never O(run length).
 * All times are nanoseconds; "deducted" means the probes' own calibrated cost is taken out.
 */
public final class Stats {
    private Stats() {}

    public static final int PAGE_SHIFT = 6;
    public static final int PAGE_PROBES = 1 << PAGE_SHIFT;

    /** Recorded activations (every activation, recursive ones included). For loops: entries. */
    public static final int CALLS = 0;
    /** Σ raw inclusive time of outermost activations (recursion counted once). */
    public static final int INCL_RAW = 1;
    /** Σ raw exclusive time of every activation. */
    public static final int EXCL_RAW = 2;
    /** Σ deducted inclusive time of outermost activations (may be slightly negative: unclamped). */
    public static final int INCL = 3;
    /** Σ deducted exclusive time of every activation (unclamped, like {@link #INCL}). */
    public static final int EXCL = 4;
    /** Minimum deducted inclusive time of one activation. */
    public static final int MIN = 5;
    /** Maximum deducted inclusive time of one activation. */
    public static final int MAX = 6;
    /** Number of outermost activations (those whose inclusive time is summed). */
    public static final int OUTER_CALLS = 7;
    /** Σ timed probe events inside outermost activations (for redoing the deduction on the host). */
    public static final int EVENTS_INSIDE = 8;
    /** Σ loop-iteration events inside outermost activations. */
    public static final int ITERS_INSIDE = 9;
    /** Σ direct callees (method activations whose nearest enclosing method is this one). */
    public static final int CHILD_CALLS = 10;
    /** Σ timed loop events (loop enter/exit) directly in this activation (not in callees). */
    public static final int DIRECT_LOOP_EVENTS = 11;
    /** Loops: Σ iterations (back edges taken). */
    public static final int ITERATIONS = 12;
    /** Activations that ended by an exception. */
    public static final int THROWS = 13;
    /** Calls seen, recorded or not (the min-calls rule counts these). */
    public static final int SEEN = 14;
    /** Σ loop-iteration events directly in this activation (not in callees). */
    public static final int DIRECT_ITERS = 15;
    /** Hybrid runs: instructions executed by native code called directly from this method. */
    public static final int NATIVE_INSTR = 16;
    /** Hybrid runs: estimated device cycles of that native code. */
    public static final int NATIVE_CYCLES = 17;
    /** Hybrid runs: estimated device time of that native code (replaces the emulator's wall time). */
    public static final int NATIVE_EST_NS = 18;
    /** Hybrid runs: estimated energy of that native code, picojoules. */
    public static final int NATIVE_ENERGY_PJ = 19;
    /** The same four, inclusive of callees, over outermost activations. */
    public static final int NATIVE_INSTR_INCL = 20;
    public static final int NATIVE_CYCLES_INCL = 21;
    public static final int NATIVE_EST_NS_INCL = 22;
    public static final int NATIVE_ENERGY_PJ_INCL = 23;
    /**
     * Calls counted without timing: the probe went count-only (its calls were too short to time
     * honestly, see {@code Hyprof.countOnly}). Not in {@link #CALLS}: the time figures are of
     * timed calls only; these calls' time is in their caller's exclusive time.
     */
    public static final int COUNT_ONLY_CALLS = 24;
    /**
     * Activations whose deducted time came out below 0 (inclusive) or above their inclusive
     * (exclusive) and was clamped: the probe cost dominated them.
     */
    public static final int CLAMPED = 25;
    /** Timed activations whose deducted inclusive time was below the tiny-call threshold. */
    public static final int TINY_CALLS = 26;
    /** Set by the thread that switched the probe to count-only: the median deducted ns it saw then. */
    public static final int COUNT_ONLY_MEDIAN_NS = 27;
    /** First of {@link #HIST_BUCKETS} log₂ buckets of per-activation deducted inclusive time. */
    public static final int HIST = 28;
    /**
     * Bucket b counts durations d with {@code 64 - numberOfLeadingZeros(d) == b}, that is
     * 2^(b-1) ≤ d < 2^b ns (bucket 0 holds d = 0); the last bucket also holds longer ones.
     */
    public static final int HIST_BUCKETS = 48;
    public static final int STRIDE = HIST + HIST_BUCKETS;

    /** Histogram bucket of a duration in nanoseconds. */
    public static int bucket(long nanos) {
        int b = 64 - Long.numberOfLeadingZeros(nanos);
        return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
    }

    static long[] newPage() {
        long[] p = new long[PAGE_PROBES * STRIDE];
        for (int i = 0; i < PAGE_PROBES; i++) p[i * STRIDE + MIN] = Long.MAX_VALUE;
        return p;
    }
}
