package org.hyprof.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The loop probes' recording paths on the JVM, kept out of the app's compiled methods.
 *
 * <p>Why: C2 inlines what a probe calls into the method holding the probe, and every exit of a
 * method closes each loop that may still be open there, so a method with a few loops holds a
 * dozen loop ends. Inlined, each brought the thread lookup and the counting paths (about 350 bytes
 * of bytecode) into the app's method: {@code CallHeavy.mergeSort} (five loops) took 0.4 s of C2's
 * time to compile, the methods queued behind it stayed in C1's profiling tier for the rest of the
 * run, and the {@code coarse} workload with loop probes ran 2.5× slower than plain where 1.4× is
 * what the probes cost once compiled (bench/README, "Loop probes out of line").
 *
 * <p>How: the paths are called through method handles held in fields that are not final. C2
 * inlines through a method handle only when it is a constant, and a non-final static is not, so a
 * loop's entry or end is one call from the app's method — against the two clock reads of a timed
 * loop, or the counting of a count-only one, a small part. (HotSpot has no supported "do not
 * inline" for application classes; a size above {@code FreqInlineSize}, the other way, would mean
 * padding.) Method probes stay inlined: their count-only path is what a tiny method pays on every
 * call, and it is small.
 *
 * <p>The class-file rewriter's loop entry sites link to {@link #loopBegin} ({@link ProbeSites}), its
 * loop ends call {@link #loopEnd} and its hand-overs of count-only loops {@link #loopsCounted}.
 * {@link Probe}'s loop entry points (static sites: class files older than Java 7, DEX) stay
 * inlined, as they were: their count-only loops are counted one activation at a time, and are
 * charged the calibrated cost of a count-only call, which the out-of-line path's own cost exceeded
 * (in SciMark's {@code FFT.bitreverse}, a thousand count-only loops per call, that clamped the
 * calls to 0). {@link Recorder#loopHandOver} is set to the hand-over when this class initializes —
 * before recording starts ({@link Hyprof#start} loads it) — so the calibrator measures the
 * hand-over as the app's code calls it.
 */
@JvmOnly
public final class OutOfLineLoops {
    private OutOfLineLoops() {}

    // Not final, on purpose (see above): a static final method handle is a constant to C2.
    private static MethodHandle beginPath;
    private static MethodHandle endPath;
    private static MethodHandle countedPath;

    /**
     * The token a count-only loop's entry site hands out (the site's constant): the code adds the
     * loop's activations and iterations up in locals of its own and hands them over with
     * {@link #loopsCounted} before the frame they ran in ends.
     */
    public static final int COUNT_IN_CODE = ThreadState.COUNT_IN_CODE;

    /**
     * The code adds a count-only loop's activations and their iterations up in one long: the
     * activations in its low {@code ACTIVATION_BITS} bits, the iterations above. It hands them over
     * at the latest when the activations reach {@link #ACTIVATIONS} (4,095): a loop inside one that
     * never ends (a server's main loop) is seen while it runs, the activations never carry into the
     * iterations, and the iterations (an activation's count read as unsigned, so at most
     * 4,095 × 2³² before a hand-over) never overflow their 52 bits. The hand-over's cost spread
     * over the activations is nothing.
     */
    public static final int ACTIVATION_BITS = 12;
    /** The most activations the code adds up before handing them over (see {@link #ACTIVATION_BITS}). */
    public static final int ACTIVATIONS = (1 << ACTIVATION_BITS) - 1;

    static final Recorder.LoopHandOver HAND_OVER = new Recorder.LoopHandOver() {
        @Override
        public void counted(Config c, int id, int activations, long iterations) {
            try {
                countedPath.invokeExact(c, id, activations, iterations);
            } catch (Throwable t) { // the path catches its own; this is the handle's failing
                Recorder.internalFailure(t);
            }
        }
    };

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            beginPath = l.findStatic(Recorder.class, "loopBegin", MethodType.methodType(int.class, Config.class, int.class));
            endPath = l.findStatic(Recorder.class, "loopEnd",
                    MethodType.methodType(void.class, Config.class, int.class, int.class, int.class));
            countedPath = l.findStatic(Recorder.class, "loopsCounted",
                    MethodType.methodType(void.class, Config.class, int.class, int.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        Recorder.loopHandOver = HAND_OVER;
    }

    /** Installs the hand-over as {@link Recorder#loopHandOver} (class initialization does it; idempotent). */
    public static void install() {
        Recorder.loopHandOver = HAND_OVER;
    }

    /**
     * The target of a loop's entry sites (bound to the loop's id) while the loop records: its
     * token, 0 if nothing was recorded. Never {@link #COUNT_IN_CODE}, and the {@code Math.max} says
     * so to C2, which inlines this method into the app's: the path returns 0, a frame or
     * {@link ThreadState#COUNT_ONLY_LOOP}, all ≥ −1, so the max changes no value, but C2 then knows
     * the token is not −2 and drops the code that adds count-only activations up (its counts, its
     * hand-overs) for this loop. Without it those values stayed live across the loop as unknowns:
     * a sieve's inner loop with its probe on ran 1.7–1.8× slower than plain, 1.26× with it
     * (bench/README, "Loops on: the adding-up code folded away").
     */
    static int loopBegin(int id) {
        try {
            return Math.max((int) beginPath.invokeExact(Recorder.config, id), ThreadState.COUNT_ONLY_LOOP);
        } catch (Throwable t) { // the path catches its own; this is the handle's failing
            Recorder.internalFailure(t);
            return 0;
        }
    }

    /**
     * On each edge that leaves a loop, and at a method exit for each loop that may still be open
     * there (as {@link Probe#loopEnd}, which code instrumented before this class calls).
     */
    public static void loopEnd(int id, int token, int iterations) {
        if (token == 0) return;
        try {
            endPath.invokeExact(Recorder.config, id, token, iterations);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /**
     * Hands over {@code activations} activations of count-only loop {@code id} ({@link #COUNT_IN_CODE})
     * with {@code iterations} back edges in all, added up by the code: at the end of the enclosing
     * timed loop and at the method's exits.
     */
    public static void loopsCounted(int id, int activations, long iterations) {
        HAND_OVER.counted(Recorder.config, id, activations, iterations);
    }
}
