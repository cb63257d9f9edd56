package org.hyprof.store;

/**
 * Thread CPU time of a probe on a thread (the runtime's {@code Stats.CPU_INCL}, {@code CPU_EXCL},
 * {@code CPU_CLOCK}), deducted like the wall times. A {@link ProbeStats} of a session that
 * recorded none (session format 2, schema 5 and older, or a run with {@code cpuClock=off}) has
 * {@code null} instead: shown empty, never as 0.
 *
 * @param inclNanos CPU time of the outermost activations (≤ their deducted inclusive wall time)
 * @param exclNanos CPU time of every activation less what its direct callees recorded as theirs
 * @param clock     how it was measured: {@link #SAMPLED} or {@link #DUAL}
 */
public record CpuTime(long inclNanos, long exclNanos, int clock) {
    /** A sampler thread read each thread's CPU clock every few ms; probes extrapolated. */
    public static final int SAMPLED = 1;
    /** The thread's CPU clock was read at every probe event. */
    public static final int DUAL = 2;

    /** The mode's name as options, headers and reports spell it. */
    public static String clockName(int clock) {
        return clock == SAMPLED ? "sampled" : clock == DUAL ? "dual" : "none";
    }

    /** Merged over threads or processes; a mix of modes keeps the coarser (sampled). */
    public static CpuTime plus(CpuTime a, CpuTime b) {
        if (a == null) return b;
        if (b == null) return a;
        return new CpuTime(a.inclNanos + b.inclNanos, a.exclNanos + b.exclNanos, Math.min(a.clock, b.clock));
    }
}
