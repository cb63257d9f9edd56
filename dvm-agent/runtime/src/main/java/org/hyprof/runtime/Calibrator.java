package org.hyprof.runtime;

import java.util.Arrays;

/**
 * Measures probe costs on the running VM through the same code path instrumented code takes.
 *
 * <p>A probe costs more inside real code than in a tight loop: it keeps the JIT from inlining the
 * method it sits in and from optimizing across it. So the per-event cost is measured
 * <em>differentially</em>: a small call tree (2047 calls of a tiny method, the shape that suffers
 * most) runs with and without probes, and the difference per event is the cost charged. The
 * inner part (what falls inside an activation's own interval) is the raw time of an empty
 * activation. Loop iterations are measured the same way on a loop with and without its probe.
 *
 * <p>Runs on a thread of its own with a private config (probe id 0 on, no rules, no events) whose
 * state is dropped afterwards, so it never shows in the session's statistics. Instrumenters
 * never hand out id 0.
 */
final class Calibrator {
    private Calibrator() {}

    private static final int ROUNDS = 7;
    /**
     * Count-only calls per measured round (a quarter of it in quick runs), made as trees of
     * {@link #TREE_CALLS} calls each. Why so many: a count-only call costs about a
     * nanosecond, and rounds of 40,000 calls (0.14 ms) spread ±13 % over six JVMs of one quiet
     * machine, ±3 % with 10⁶ calls a round. Millions of such calls are deducted in a run that
     * makes them, so that spread was most of the spread of the deducted times of their callers
     * between runs (bench/README, "Reproducibility"). About 60 ms at start.
     */
    static final int COUNT_ROUND_CALLS = 1_000_000;
    private static final int TREE_DEPTH = 10;
    private static final int TREE_CALLS = (1 << (TREE_DEPTH + 1)) - 1; // calls per tree
    static volatile long sink;

    /**
     * How the count-only trees are run: on the JVM through an {@code invokedynamic}-like site
     * ({@link CountSiteTrees}, installed when recording starts), else with the static entry
     * ({@link #staticTrees}), as Android's probes are called.
     */
    interface CountedTrees {
        /** Time of {@code trees} trees of {@code depth}, count-only calls under a timed activation, or plain ones. */
        long run(Config counting, Config timed, int trees, int depth, boolean probed);
    }

    static CountedTrees countedTrees = new CountedTrees() {
        @Override
        public long run(Config counting, Config timed, int trees, int depth, boolean probed) {
            return staticTrees(counting, timed, trees, probed);
        }
    };

    /** Measures and returns a calibration; {@code quick} uses fewer iterations (periodic runs). */
    static Calibration measure(final boolean quick) {
        final Calibration[] result = new Calibration[1];
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                result[0] = measureHere(quick);
            }
        }, "hyprof-calibration");
        runAndWait(t);
        return result[0] != null ? result[0] : Calibration.NONE;
    }

    /** Runs t as a daemon and waits for it to end (an interrupt ends the wait and stays set). */
    private static void runAndWait(Thread t) {
        t.setDaemon(true);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Calibration measureHere(boolean quick) {
        ThreadState st = Recorder.state();
        try {
            Config c = new Config(new boolean[] {true}, new boolean[1], new byte[1], 0, 0, 0, false);
            int n = quick ? 10_000 : 40_000;
            int trees = quick ? 10 : 40;
            int warm = quick ? 3 : 15;
            for (int w = 0; w < warm; w++) {
                if (w == 0 && !quick && !Hyprof.isAndroid()) firstCalls(c, n); // HotSpot's traps
                else pairs(c, n);
                trees(c, trees, true);
                trees(c, trees, false);
                iters(c, n, true);
                iters(c, n, false);
                clock(n);
            }
            long[] tree = new long[ROUNDS];
            long[] inner = new long[ROUNDS];
            long[] iter = new long[ROUNDS];
            long[] clk = new long[ROUNDS];
            long[] count = new long[ROUNDS];
            long[] flush = new long[ROUNDS];
            // probe 0 as a count-only probe: what a call of a method switched to count-only costs,
            // called from a timed activation (probe 0 under c), as in the app: with a tree, count-only
            // calls are added up per path under their caller's frame (ThreadState.countCall). Only
            // id 0: a snapshot taken meanwhile shows this thread, and no real probe has id 0.
            // The same roots as c: each config's roots are another array, and a count-only call
            // after a timed entry under other roots takes the full path (the roots are recounted),
            // a call the JIT then keeps in the measured loop where the app's sites keep none.
            Config counting = new Config(new boolean[] {true}, c.root, new byte[1], 0, 0, 0, false, new boolean[] {true});
            Recorder.LoopHandOver loops = Recorder.loopHandOver;
            for (int w = 0; w < warm; w++) {
                countedTrees.run(counting, c, trees, TREE_DEPTH, true);
                countedTrees.run(counting, c, trees, TREE_DEPTH, false);
                flushes(loops, counting, c, n / 4, true);
                flushes(loops, counting, c, n / 4, false);
            }
            int calls = trees * TREE_CALLS;
            int countTrees = (quick ? COUNT_ROUND_CALLS / 4 : COUNT_ROUND_CALLS) / TREE_CALLS;
            long countCalls = (long) countTrees * TREE_CALLS;
            // hand-overs of loops counted in code: one per timed loop or method activation around
            // them at most, so a coarser figure does; short rounds keep the start-up cost small
            int ln = n / 2;
            for (int r = 0; r < ROUNDS; r++) {
                long rawBefore = st.stat(0, Stats.INCL_RAW);
                long callsBefore = st.stat(0, Stats.OUTER_CALLS);
                pairs(c, n);
                long done = st.stat(0, Stats.OUTER_CALLS) - callsBefore;
                inner[r] = done > 0 ? (st.stat(0, Stats.INCL_RAW) - rawBefore) * 1000 / done : 0;
                long probed = trees(c, trees, true);
                long plain = trees(c, trees, false);
                tree[r] = Math.max(0, probed - plain) * 1000 / calls; // one enter+exit pair
                long ip = iters(c, n, true);
                long i0 = iters(c, n, false);
                iter[r] = Math.max(0, ip - i0) * 1000 / n;
                clk[r] = clock(n) * 1000 / n;
                long cp = countedTrees.run(counting, c, countTrees, TREE_DEPTH, true);
                long c0 = countedTrees.run(counting, c, countTrees, TREE_DEPTH, false);
                count[r] = Math.max(0, cp - c0) * 1000 / countCalls;
                long fp = flushes(loops, counting, c, ln, true), f0 = flushes(loops, counting, c, ln, false);
                flush[r] = Math.max(0, fp - f0) * 1000 / ln;
            }
            long pairPicos = median(tree);
            long innerPicos = Math.min(median(inner), pairPicos);
            return new Calibration(innerPicos, pairPicos / 2, median(iter), median(clk), System.nanoTime(),
                    spread(tree) / 2, median(count), median(flush));
        } finally {
            Recorder.unregister(st);
        }
    }

    /** Pairs before the first of the first-call exercises in {@link #firstCalls}. */
    private static final int FIRST_CALLS_AFTER = 256;

    /**
     * {@code n} flat pairs, with the first calls of a new thread ({@link #freshThread}) after
     * {@link #FIRST_CALLS_AFTER} of them, and again each time as many more have run (C2 compiles
     * the probe path after some thousands, when the JIT decides): so that the branches only a
     * thread's first probe events take (its {@code ThreadLocal} miss, its first stats pages, its
     * roots counted against a new config, its first CPU clock readings, clamped and tiny calls) are
     * in the probe path's branch profile when C2 compiles it. A branch the profile says was never
     * taken is compiled as an uncommon trap: a program's first timed calls took 5–14 of them
     * ({@code bench/traps.sh}), each deoptimizing the probe path (and the program's method it was
     * inlined into), which C2 then compiled again while the program ran. Only at start-up
     * ({@code !quick}): a program's own threads have taken these branches by the time of a
     * periodic calibration.
     */
    private static void firstCalls(Config c, int n) {
        int done = 0;
        for (int next = FIRST_CALLS_AFTER; next <= n; next *= 2) {
            pairs(c, next - done);
            done = next;
            freshThread(c);
        }
        pairs(c, n - done);
    }

    /**
     * A few nested probe events on a new thread (as a program's first timed calls are), under a
     * config of their own (its roots other arrays, as the program's config is), of probes on three
     * stats pages taken out of order (a page array grown past a page not yet made), and loops in
     * loops left with their iterations counted in the code; then clamped calls
     * ({@link ThreadState#takeClamps}), the CPU clock's clamps ({@link ThreadState#takeCpuClamps}),
     * the tiny-call test's every outcome and {@link Config#countOnly}'s. Each probe gets far fewer
     * calls than {@link ThreadState#COUNT_ONLY_AFTER}, so none is switched to count-only. The
     * thread's state is never registered ({@link FirstCallsThread}) and is dropped at the end.
     */
    static void freshThread(final Config c) {
        final int[] ids = {0, 2 * Stats.PAGE_PROBES, Stats.PAGE_PROBES};
        final int outerLoop = 1, innerLoop = 2;
        boolean[] on = new boolean[2 * Stats.PAGE_PROBES + 1];
        for (int id : ids) on[id] = true;
        on[outerLoop] = on[innerLoop] = true;
        final Config own = new Config(on, new boolean[1], new byte[on.length], 0, 0, 0, false);
        Thread t = new FirstCallsThread(new Runnable() {
            @Override
            public void run() {
                // a thread of the program has a ThreadLocal map, without this state in it: a miss
                // in ThreadLocal.get where a thread without a map takes another branch
                FIRST_CALLS_LOCAL.get();
                ThreadState st = Recorder.state();
                try {
                    exercise(st);
                } catch (Throwable e) {
                    // best effort: only the JIT's branch profile depends on it
                } finally {
                    Recorder.dropScratch(st);
                }
            }

            private void exercise(ThreadState st) {
                for (int i = 0; i < 4; i++) {
                    for (int id : ids) {
                        int outer = begin(own, id);
                        end(own, id, begin(own, id));
                        end(own, id, outer);
                    }
                }
                // a loop in a loop in a method, a call inside, the iterations counted in the code
                for (int i = 0; i < 4; i++) {
                    int method = begin(own, ids[0]);
                    int outer = Recorder.loopBegin(own, outerLoop);
                    int inner = Recorder.loopBegin(own, innerLoop);
                    end(own, ids[1], begin(own, ids[1])); // a call from inside the loops
                    Recorder.loopEnd(own, innerLoop, inner, 8);
                    Recorder.loopHandOver.counted(own, innerLoop, 4, 32); // count-only activations inside a loop
                    Recorder.loopEnd(own, outerLoop, outer, 2);
                    end(own, ids[0], method);
                }
                st.takeClamps(own, ids[0]);
                st.takeCpuClamps();
            }
        });
        // Costs to deduct meanwhile, so that the thread's short calls are tiny (close's count of
        // tiny calls) as a program's are: none is in effect before the first calibration, when no
        // program thread records yet (one that did would be deducted these costs, not none).
        Calibration inEffect = Recorder.calibration;
        boolean provisional = inEffect == Calibration.NONE;
        if (provisional) Recorder.calibration = FIRST_CALLS_COSTS;
        try {
            runAndWait(t);
        } finally {
            if (provisional) Recorder.calibration = inEffect;
        }
        for (int loop = 0; loop < 2; loop++) {
            for (int nested = 0; nested < 2; nested++) {
                for (long raw : new long[] {10, 400, 4000}) { // tiny; short but not tiny on its raw time; long
                    if (ThreadState.tinyCall(FIRST_CALLS_COSTS, loop == 1, nested == 1, raw / 2, raw, 4)) sink++;
                }
            }
        }
        Config counting = new Config(c.on, new boolean[] {true}, new byte[1], 0, 0, 0, false, new boolean[] {true});
        if (c.countOnly(0) || counting.countOnly(0) || counting.withRoots(new boolean[1]).countOnly(0)) sink++;
    }

    /**
     * The thread of {@link #freshThread}: its state, made by {@link Recorder#state} as a program
     * thread's is, is never registered ({@code Recorder.register}), so no snapshot, sink or thread
     * table ever sees it — a live collector asks for snapshots before the reporter starts, and
     * this thread's probe ids are a program's.
     */
    static final class FirstCallsThread extends Thread {
        FirstCallsThread(Runnable r) {
            super(r, "hyprof-calibration-first-calls");
        }
    }

    /** Another ThreadLocal, so that a fresh thread has a map when it first looks its state up. */
    private static final ThreadLocal<Object> FIRST_CALLS_LOCAL = new ThreadLocal<Object>();

    /** Costs for {@link #freshThread}'s calls and its tiny-call tests: a 40 ns probe event. */
    private static final Calibration FIRST_CALLS_COSTS = new Calibration(20_000, 40_000, 0, 20_000, 0);

    /** Flat begin/end pairs: their raw inclusive time is the inner cost. */
    private static long pairs(Config c, int n) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) end(c, 0, begin(c, 0));
        return System.nanoTime() - t0;
    }

    private static long trees(Config c, int trees, boolean probed) {
        long t0 = System.nanoTime();
        long s = 0;
        for (int i = 0; i < trees; i++) s += probed ? probedTree(c, TREE_DEPTH, i) : plainTree(TREE_DEPTH, i);
        long d = System.nanoTime() - t0;
        sink += s;
        return d;
    }

    static long plainTree(int depth, int x) {
        if (depth == 0) return x * 31 + 7;
        return plainTree(depth - 1, x + 1) + plainTree(depth - 1, x ^ depth);
    }

    /** plainTree as the instrumenter rewrites it: a token from the entry, handed to each exit. */
    private static long probedTree(Config c, int depth, int x) {
        int tok = begin(c, 0);
        try {
            if (depth == 0) {
                long r = x * 31 + 7;
                end(c, 0, tok);
                return r;
            }
            long r = probedTree(c, depth - 1, x + 1) + probedTree(c, depth - 1, x ^ depth);
            end(c, 0, tok);
            return r;
        } catch (RuntimeException e) {
            if (tok != 0) Recorder.end(c, 0, tok, true);
            throw e;
        }
    }

    /**
     * A loop with the id-only API's {@code loopIter} call on each back edge, or without: what
     * {@link Calibration#perIterPicos} charges code instrumented before the token API. (A token
     * loop's back edge is an increment in the code, charged nothing.)
     */
    private static long iters(Config c, int n, boolean probed) {
        ThreadState st = Recorder.state();
        st.loopEnter(c, 0);
        long s = 0;
        long t0 = System.nanoTime();
        if (probed) {
            for (int i = 0; i < n; i++) { s += i * 31L ^ s; Recorder.loopIter(c, 0); }
        } else {
            for (int i = 0; i < n; i++) { s += i * 31L ^ s; }
        }
        long d = System.nanoTime() - t0;
        st.loopExit(c, 0);
        sink += s;
        return d;
    }

    /**
     * The count-only call of {@link #staticTrees}: on Android the probe's static entry; on a JVM
     * where {@link CountSiteTrees} could not be loaded, {@link Recorder#countFast} else the full
     * path (the site's guard by hand). (A JVM app rewritten with {@code --probe-sites static}
     * takes the full path, which costs more than the fast one calibrated on the JVM.)
     */
    private static int countOnlyBegin(Config c) {
        if (FAST_COUNT && Recorder.countFast(c, 0)) return 0;
        return begin(c, 0);
    }

    private static final boolean FAST_COUNT = !Hyprof.isAndroid();

    /**
     * Trees of count-only calls under one timed activation (as an app's count-only methods are
     * called from a timed one), or the same trees without probes. Why trees and not a loop of
     * calls: in a loop doing nothing else, each call's add to its slot waits for the last one's
     * (a store and a load of the same word, ~5 cycles), which an app's code between two calls
     * hides. Such a loop measured 1.3–1.5 ns a call where the calls of OverheadIT's recursion cost
     * about 1.0 ns and its small methods' 0.8–1.1 ns (their callers over-deducted by 56–98 %);
     * these trees measure 0.9–1.0 ns (bench/README, "2026-12-02 (evening)").
     */
    private static long staticTrees(Config c, Config timed, int trees, boolean probed) {
        long s = 0;
        long t0 = System.nanoTime();
        if (probed) {
            int caller = begin(timed, 0);
            for (int i = 0; i < trees; i++) s += countedTree(c, TREE_DEPTH, i);
            end(timed, 0, caller);
        } else {
            for (int i = 0; i < trees; i++) s += plainTree(TREE_DEPTH, i);
        }
        long d = System.nanoTime() - t0;
        sink += s;
        return d;
    }

    /**
     * plainTree with a count-only probe's entry and exits, as the instrumenter rewrites it (no
     * handler: nothing to close). A method of its own, not probedTree with a flag: the flag's test
     * and both paths would be compiled into the recursion being measured.
     */
    private static long countedTree(Config c, int depth, int x) {
        int tok = countOnlyBegin(c);
        if (depth == 0) {
            long r = x * 31 + 7;
            end(c, 0, tok);
            return r;
        }
        long r = countedTree(c, depth - 1, x + 1) + countedTree(c, depth - 1, x ^ depth);
        end(c, 0, tok);
        return r;
    }

    /**
     * Hand-overs of count-only loop activations added up in the code (one per outer iteration here,
     * each of 4 activations of 4 iterations), through {@code paths}, from a timed activation — or
     * the same outer loop without them.
     */
    private static long flushes(Recorder.LoopHandOver paths, Config c, Config timed, int n, boolean probed) {
        long s = 0;
        long t0 = System.nanoTime();
        if (probed) {
            int caller = begin(timed, 0);
            for (int i = 0; i < n; i++) {
                s += i * 31L ^ s;
                paths.counted(c, 0, 4, 16);
            }
            end(timed, 0, caller);
        } else {
            for (int i = 0; i < n; i++) s += i * 31L ^ s;
        }
        long d = System.nanoTime() - t0;
        sink += s;
        return d;
    }

    private static long clock(int n) {
        long t0 = System.nanoTime();
        long x = 0;
        for (int i = 0; i < n; i++) x += System.nanoTime();
        long d = System.nanoTime() - t0;
        sink += x;
        return d;
    }

    // Probe's entry points (Probe.begin/end), with the private config in place of the global one.
    private static int begin(Config c, int id) {
        boolean[] on = c.on;
        return id >= 0 && id < on.length && on[id] ? Recorder.begin(c, id) : 0;
    }

    private static void end(Config c, int id, int token) {
        if (token != 0) Recorder.end(c, id, token, false);
    }

    /** The spread of the middle of the rounds (extremes dropped): the measurement's noise. */
    private static long spread(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length > 2 ? s[s.length - 2] - s[1] : s[s.length - 1] - s[0];
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
