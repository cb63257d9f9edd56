package org.hyprof.runtime;

/**
 * Fields of one probe's aggregate record, in the order a snapshot writes them ({@link #CALLS} …
 * {@link #CPU_CLOCK}, then {@link #HIST_BUCKETS} histogram counts: {@link #STRIDE} in
 * all). These indices are part of the session format.
 *
 * <p>In memory a thread keeps its records more compactly, in pages of {@link #PAGE_PROBES}
 * probes allocated the first time it records one of them, so memory is O(live threads × probes
 * touched), never O(run length): {@link #REC} longs per probe, the fields without the eight
 * native ones (kept in pages of their own, only in hybrid runs), and the histogram as 16-bit counts,
 * four to a long (a count that passes 2^16 carries into a per-thread carry page). 8 probes per
 * page rather than 64: a thread that touches a few probes of a class does not pay for 64.
 * All times are nanoseconds; "deducted" means the probes' own calibrated cost is taken out.
 */
public final class Stats {
    private Stats() {}

    public static final int PAGE_SHIFT = 3;
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
    /**
     * Timed activations too short to time: deducted inclusive time below the tiny-call threshold,
     * raw time below twice it (see {@code ThreadState.tinyCall}).
     */
    public static final int TINY_CALLS = 26;
    /** Set by the thread that switched the probe to count-only: the median deducted ns it saw then. */
    public static final int COUNT_ONLY_MEDIAN_NS = 27;
    /**
     * Σ deducted thread CPU time of outermost activations, ns (see {@link #CPU_CLOCK} for how it
     * was measured; the probe cost is deducted as from {@link #INCL}, and it never exceeds the
     * activation's deducted inclusive wall time). Added in session format 3: older files have no
     * CPU time (their snapshots have fewer fields).
     */
    public static final int CPU_INCL = 28;
    /** Σ deducted thread CPU time of every activation less what its direct callees recorded as theirs. */
    public static final int CPU_EXCL = 29;
    /**
     * How the CPU figures were measured: 0 not at all (read them as absent, not 0), 1 sampled
     * (a sampler thread reads each thread's CPU clock periodically, probes extrapolate), 2 dual
     * (the thread's CPU clock read at every probe event). Not stored per probe: the run's mode.
     */
    public static final int CPU_CLOCK = 30;
    /**
     * The fine histogram's resolution, plus one: {@link Buckets#SUB_BITS} + 1 when the probe's
     * per-call histogram in the {@link Buckets} scheme follows its log₂ one in the snapshot (fewer
     * when it was coarsened at its size bound), 0 when there is none (its percentiles are log₂
     * ones). Added in session format 4: a snapshot of fewer fields has no fine histograms. Not
     * kept in the record: the snapshot writer fills it from the thread's fine histograms.
     */
    public static final int FINE_HIST = 31;
    /** First of {@link #HIST_BUCKETS} log₂ buckets of per-activation deducted inclusive time. */
    public static final int HIST = 32;
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

    // ------------------------------------------------------------------ in-memory layout

    /** Fields 0 … 15 sit at their own index; the six after the native ones follow them ({@link #CPU_CLOCK} is the run's). */
    static final int R_COUNT_ONLY_CALLS = 16, R_CLAMPED = 17, R_TINY_CALLS = 18, R_COUNT_ONLY_MEDIAN_NS = 19,
            R_CPU_INCL = 20, R_CPU_EXCL = 21;
    /**
     * First of the {@link #HIST_BUCKETS}/4 longs holding four 16-bit bucket counts each (bucket 4k
     * in the low bits). Most probes are called a few times, so 16 bits keep the record at 34 longs
     * (it was 76): a bucket passing 65,535 carries into the thread's carry page of that page of
     * probes, as a 32-bit count of 2^16 each (exact up to 2^48 calls of one duration class).
     */
    static final int R_HIST = 22;
    static final int HIST_LANE_BITS = 16;
    /** Longs per probe in a stats page. */
    static final int REC = R_HIST + HIST_BUCKETS / 4;
    /** Longs per probe in a native page (hybrid runs): fields {@link #NATIVE_INSTR} … {@link #NATIVE_ENERGY_PJ_INCL}. */
    static final int NAT_REC = 8;
    /** Bytes of one stats page, as counted against the stats budget (array header included). */
    static final long PAGE_BYTES = 16 + 8L * PAGE_PROBES * REC;
    /** Bytes of one native or carry page. */
    static final long NAT_PAGE_BYTES = 16 + 8L * PAGE_PROBES * NAT_REC;
    static final long CARRY_PAGE_BYTES = 16 + 4L * PAGE_PROBES * HIST_BUCKETS;

    /** Where field {@code f} (not a native or histogram one) of a record lives, relative to it. */
    static int slot(int f) {
        return f < NATIVE_INSTR ? f : f - NAT_REC;
    }

    static long[] newPage() {
        long[] p = new long[PAGE_PROBES * REC];
        for (int i = 0; i < PAGE_PROBES; i++) p[i * REC + MIN] = Long.MAX_VALUE;
        return p;
    }

    /**
     * Field {@code f} of probe {@code id} from a thread's pages (any may be a copy), in snapshot
     * terms: {@link #MIN} is {@code Long.MAX_VALUE} until something is recorded, a histogram field
     * {@code HIST + k} is bucket k's count with its carries. 0 when the probe has no record.
     */
    static long field(long[][] pages, long[][] nat, int[][] carry, int id, int f) {
        int pi = id >>> PAGE_SHIFT, k = id & (PAGE_PROBES - 1);
        long[] p = pi < pages.length ? pages[pi] : null;
        if (p == null) return f == MIN ? Long.MAX_VALUE : 0;
        int b = k * REC;
        if (f < NATIVE_INSTR) return p[b + f];
        if (f < COUNT_ONLY_CALLS) {
            long[] n = nat != null && pi < nat.length ? nat[pi] : null;
            return n == null ? 0 : n[k * NAT_REC + f - NATIVE_INSTR];
        }
        if (f == CPU_CLOCK) return Recorder.cpuMode;
        if (f == FINE_HIST) return 0;
        if (f < HIST) return p[b + f - NAT_REC];
        int h = f - HIST;
        long v = (p[b + R_HIST + (h >>> 2)] >>> ((h & 3) << 4)) & 0xffff;
        int[] c = carry != null && pi < carry.length ? carry[pi] : null;
        return c == null ? v : v + ((c[k * HIST_BUCKETS + h] & 0xffffffffL) << HIST_LANE_BITS);
    }

    /** Copies probe {@code id}'s record into {@code into[0 … STRIDE)} in snapshot order. */
    static void copy(long[][] pages, long[][] nat, int[][] carry, int id, long[] into) {
        int pi = id >>> PAGE_SHIFT, k = id & (PAGE_PROBES - 1);
        long[] p = pi < pages.length ? pages[pi] : null;
        if (p == null) {
            java.util.Arrays.fill(into, 0, STRIDE, 0);
            into[MIN] = Long.MAX_VALUE;
            return;
        }
        int b = k * REC;
        System.arraycopy(p, b, into, 0, NATIVE_INSTR);
        long[] n = nat != null && pi < nat.length ? nat[pi] : null;
        if (n != null) System.arraycopy(n, k * NAT_REC, into, NATIVE_INSTR, NAT_REC);
        else java.util.Arrays.fill(into, NATIVE_INSTR, COUNT_ONLY_CALLS, 0);
        System.arraycopy(p, b + R_COUNT_ONLY_CALLS, into, COUNT_ONLY_CALLS, CPU_CLOCK - COUNT_ONLY_CALLS);
        into[CPU_CLOCK] = Recorder.cpuMode;
        into[FINE_HIST] = 0;
        for (int h = 0; h < HIST_BUCKETS; h += 4) {
            long v = p[b + R_HIST + (h >>> 2)];
            into[HIST + h] = v & 0xffff;
            into[HIST + h + 1] = (v >>> 16) & 0xffff;
            into[HIST + h + 2] = (v >>> 32) & 0xffff;
            into[HIST + h + 3] = v >>> 48;
        }
        int[] c = carry != null && pi < carry.length ? carry[pi] : null;
        if (c != null)
            for (int h = 0; h < HIST_BUCKETS; h++) into[HIST + h] += (c[k * HIST_BUCKETS + h] & 0xffffffffL) << HIST_LANE_BITS;
    }
}
