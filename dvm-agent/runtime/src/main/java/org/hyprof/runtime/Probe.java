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

    // ---------------------------------------------------------------- token API (what instrumenters emit)
    //
    // An activation's entry returns a token that the code keeps in a local and hands to its exit:
    // 0 when nothing was recorded (probe off, filtered), else the position of the frame the entry
    // opened. So an exit closes exactly the frame its own entry opened, whatever was switched in
    // between: an activation entered while its probe was off and left while on is left out in full,
    // one entered while on and left while off is counted in full (see ThreadState). When the probe
    // is off the token is the constant 0, and the JIT drops the exit's test with it.

    /**
     * At method entry (in constructors: after the {@code super()}/{@code this()} call). Returns the
     * token for {@link #end}/{@link #endThrow}: 0 when nothing was recorded.
     */
    public static int begin(int id) {
        boolean[] on = Recorder.fastOn;
        return id >= 0 && id < on.length && on[id] ? Recorder.begin(id) : 0;
    }

    /** Before every normal return of a method; {@code token} is what {@link #begin} returned. */
    public static void end(int id, int token) {
        if (token != 0) Recorder.end(id, token, false);
    }

    /** In the method's catch-all handler, before the exception is rethrown. */
    public static void endThrow(int id, int token) {
        if (token != 0) Recorder.end(id, token, true);
    }

    /**
     * On each edge into a loop's header from outside the loop. Returns the token for
     * {@link #loopEnd}. The code counts the loop's back edges in a local of its own, set to 0 here.
     * (Class files with invokedynamic entries use {@code OutOfLineLoops} instead.)
     */
    public static int loopBegin(int id) {
        boolean[] on = Recorder.fastOn;
        return id >= 0 && id < on.length && on[id] ? Recorder.loopBegin(Recorder.config, id) : 0;
    }

    /**
     * On each edge that leaves a loop, and at a method exit (normal or exceptional) for each loop
     * that may still be open there, innermost first. {@code iterations} is the number of back
     * edges taken since {@link #loopBegin}; a token of a loop already closed is ignored.
     */
    public static void loopEnd(int id, int token, int iterations) {
        if (token != 0) Recorder.loopEnd(Recorder.config, id, token, iterations);
    }

    // ---------------------------------------------------------------- id-only API (earlier outputs, tests)

    static {
        // Offline-instrumented code has no agent to start recording: the first probe does it.
        Bootstrap.startFromResources(Probe.class.getClassLoader());
    }

    /**
     * At method entry, without a token: the exit closes the innermost open frame of the same id.
     * Kept for code instrumented by earlier versions; a toggle while such an activation runs can
     * pair an exit with the wrong frame (recursion), which the token API rules out.
     */
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
