package org.hyprof.runtime;

/**
 * The static entry points that instrumented code calls. Every method takes the probe's int id
 * (one shared {@code (I)V} signature keeps DEX method references to a handful).
 *
 * <p>A method has one id for its entry and all of its exits; a loop has its own id. A probe that
 * is off costs one volatile read, a bounds check and a return: no clock read, no allocation.
 * None of these methods ever throws into the app: any internal failure disables recording and is
 * reported out of band (see {@link Hyprof#failure()}).
 */
public final class Probe {
    private Probe() {}

    static {
        // Offline-instrumented code has no agent to start recording: the first probe does it.
        Bootstrap.startFromResources(Probe.class.getClassLoader());
    }

    /** At method entry (in constructors: after the {@code super()}/{@code this()} call). */
    public static void enter(int id) {
        try {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || !c.on[id]) return;
            Recorder.state().enter(c, id);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /** Before every normal return of a method. */
    public static void exit(int id) {
        try {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || !c.on[id]) return;
            Recorder.state().exit(c, id, false);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /** In the catch-all handler of a method, before the exception is rethrown. */
    public static void exitThrow(int id) {
        try {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || !c.on[id]) return;
            Recorder.state().exit(c, id, true);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /** When control enters a loop (on each edge into its header from outside the loop). */
    public static void loopEnter(int id) {
        try {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || !c.on[id]) return;
            Recorder.state().loopEnter(c, id);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /**
     * On each back edge of a loop. The loop's iteration count is the number of back edges taken:
     * for a {@code for} or {@code while} loop, the number of times its body ran. Reads no clock.
     */
    public static void loopIter(int id) {
        try {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || !c.on[id]) return;
            Recorder.state().loopIter(id);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /** On each edge that leaves a loop. A method exit also closes loops still open inside it. */
    public static void loopExit(int id) {
        try {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || !c.on[id]) return;
            Recorder.state().loopExit(c, id);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }
}
