package org.hyprof.runtime;

/**
 * The static entry points that instrumented code calls. Every method takes the probe's int id
 * (one shared {@code (I)V} signature keeps DEX method references to a handful).
 *
 * <p>A method has one id for its entry and all of its exits; a loop has its own id. A probe that
 * is off costs a load, a bounds check and a branch, and its bytecode is small enough that the JIT
 * inlines it and, when it is never on, drops the call path entirely: no clock read, no
 * allocation, no barrier. When it is on, {@link Recorder} does the work. None of these methods
 * ever throws into the app: any internal failure disables recording and is reported out of band
 * (see {@link Hyprof#failure()}).
 *
 * <p>The flags are read without a memory barrier ({@link Recorder#fastOn}): a volatile read per
 * probe kept the JIT from optimizing hot loops (SciMark 2.0 with every probe compiled in and off
 * scored 73 % of its uninstrumented composite with volatile reads, 94 % with this fast path;
 * see bench/README.md). The flags array is immutable and
 * published through final fields and a volatile write, so a probe always sees a complete state;
 * a toggle is seen at the probe's next execution after any call the JIT did not inline, which in
 * practice is immediately (see {@code ToggleLatencyIT}).
 */
public final class Probe {
    private Probe() {}

    static {
        // Offline-instrumented code has no agent to start recording: the first probe does it.
        Bootstrap.startFromResources(Probe.class.getClassLoader());
    }

    /** At method entry (in constructors: after the {@code super()}/{@code this()} call). */
    public static void enter(int id) {
        boolean[] on = Recorder.fastOn;
        if (id >= 0 && id < on.length && on[id]) Recorder.enter(id);
    }

    /** Before every normal return of a method. */
    public static void exit(int id) {
        boolean[] on = Recorder.fastOn;
        if (id >= 0 && id < on.length && on[id]) Recorder.exit(id, false);
    }

    /** In the catch-all handler of a method, before the exception is rethrown. */
    public static void exitThrow(int id) {
        boolean[] on = Recorder.fastOn;
        if (id >= 0 && id < on.length && on[id]) Recorder.exit(id, true);
    }

    /** When control enters a loop (on each edge into its header from outside the loop). */
    public static void loopEnter(int id) {
        boolean[] on = Recorder.fastOn;
        if (id >= 0 && id < on.length && on[id]) Recorder.loopEnter(id);
    }

    /**
     * On each back edge of a loop. The loop's iteration count is the number of back edges taken:
     * for a {@code for} or {@code while} loop, the number of times its body ran. Reads no clock.
     */
    public static void loopIter(int id) {
        boolean[] on = Recorder.fastOn;
        if (id >= 0 && id < on.length && on[id]) Recorder.loopIter(id);
    }

    /** On each edge that leaves a loop. A method exit also closes loops still open inside it. */
    public static void loopExit(int id) {
        boolean[] on = Recorder.fastOn;
        if (id >= 0 && id < on.length && on[id]) Recorder.loopExit(id);
    }
}
