package org.hyprof.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * The calibrator's trees of count-only calls on the JVM ({@link Calibrator#countedTrees}), each call
 * made as an app's count-only method makes it: through a {@code MutableCallSite} linked to the
 * guard {@code ProbeSites} links a count-only site to ({@link Recorder#countFast}, else the full
 * path), so that its token is the constant 0 and the exits fold away, as in the app. Before, the
 * trees called the fast path and, when it failed, the static entry, and tested the token at each
 * exit; those trees measured a count-only call at 1.7-1.8 ns (these: 1.45) where OverheadIT's
 * recursion (fib) pays 1.1 ns a call, and its callers were over-deducted (bench/README, "2026-12-04").
 *
 * <p>Loaded by name when recording starts ({@link Hyprof#start}; its initialization installs it),
 * before the first calibration. The DEX runtime leaves it out: Android's probes are static calls,
 * which the calibrator's own trees measure.
 */
@JvmOnly
final class CountSiteTrees implements Calibrator.CountedTrees {
    private static final MutableCallSite SITE = new MutableCallSite(MethodType.methodType(int.class));
    /** A constant to C2, as an {@code invokedynamic} site's target is: the guard inlines into the tree. */
    private static final MethodHandle BEGIN = SITE.dynamicInvoker();
    private static final MethodHandle FAST, SLOW, ZERO = MethodHandles.constant(int.class, 0);
    /** The count-only config the site is linked for (read only by an exit with a token, never in practice). */
    private static Config linkedFor;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            FAST = l.findStatic(Recorder.class, "countFast", MethodType.methodType(boolean.class, Config.class, int.class));
            SLOW = l.findStatic(CountSiteTrees.class, "slow", MethodType.methodType(int.class, Config.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        SITE.setTarget(ZERO);
        Calibrator.countedTrees = new CountSiteTrees();
    }

    /** The full count-only path, as {@code ProbeSites.countSlow} takes it: the static entry (count-only: token 0). */
    private static int slow(Config c) {
        return Recorder.begin(c, 0);
    }

    @Override
    public long run(Config counting, Config timed, int trees, int depth, boolean probed) {
        if (linkedFor != counting) link(counting);
        long s = 0;
        long t0 = System.nanoTime();
        try {
            if (probed) {
                int caller = Recorder.begin(timed, 0);
                for (int i = 0; i < trees; i++) s += tree(depth, i);
                if (caller != 0) Recorder.end(timed, 0, caller, false);
            } else {
                for (int i = 0; i < trees; i++) s += Calibrator.plainTree(depth, i);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("count-only calibration: " + t, t);
        }
        long d = System.nanoTime() - t0;
        Calibrator.sink += s;
        return d;
    }

    /**
     * Links the site for a calibration's count-only config: a fresh guard (its own branch profile,
     * as {@code ProbeSites} gives each site), so C2 compiles the slow branch as a trap while the
     * measurement never takes it. Re-linking deoptimizes the trees once; the warm-up rounds follow.
     */
    private static void link(Config counting) {
        SITE.setTarget(MethodHandles.guardWithTest(MethodHandles.insertArguments(FAST, 0, counting, 0), ZERO,
                MethodHandles.insertArguments(SLOW, 0, counting)));
        MutableCallSite.syncAll(new MutableCallSite[] {SITE});
        linkedFor = counting;
    }

    /**
     * Calibrator.plainTree with a count-only probe's entry and exits as the instrumenter writes
     * them (an {@code invokedynamic} entry, a token for each exit, a catch-all handler).
     */
    private static long tree(int depth, int x) throws Throwable {
        int tok = (int) BEGIN.invokeExact();
        try {
            if (depth == 0) {
                long r = x * 31 + 7;
                if (tok != 0) Recorder.end(linkedFor, 0, tok, false);
                return r;
            }
            long r = tree(depth - 1, x + 1) + tree(depth - 1, x ^ depth);
            if (tok != 0) Recorder.end(linkedFor, 0, tok, false);
            return r;
        } catch (Throwable e) {
            if (tok != 0) Recorder.end(linkedFor, 0, tok, true);
            throw e;
        }
    }
}
