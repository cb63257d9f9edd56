package org.hyprof.runtime;

import java.util.Arrays;

/**
 * Measures probe costs on the running VM through the same code path instrumented code takes.
 * Runs on a thread of its own with a private config (probe id 0 on, no rules, no events) whose
 * state is dropped afterwards, so it never shows in the session's statistics. Instrumenters
 * never hand out id 0.
 */
final class Calibrator {
    private Calibrator() {}

    private static final int ROUNDS = 7;
    private static volatile long sink;

    /** Measures and returns a calibration; {@code quick} uses fewer iterations (periodic runs). */
    static Calibration measure(final boolean quick) {
        final Calibration[] result = new Calibration[1];
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                result[0] = measureHere(quick);
            }
        }, "hyprof-calibration");
        t.setDaemon(true);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return result[0] != null ? result[0] : Calibration.NONE;
    }

    private static Calibration measureHere(boolean quick) {
        ThreadState st = Recorder.state();
        try {
            Config c = new Config(new boolean[] {true}, new boolean[1], new byte[1], 0, 0, 0, false);
            int n = quick ? 20_000 : 50_000;
            int warm = quick ? 2 : 20;
            for (int w = 0; w < warm; w++) { pairs(c, n); iters(c, n); clock(n); }
            long[] pair = new long[ROUNDS];
            long[] inner = new long[ROUNDS];
            long[] iter = new long[ROUNDS];
            long[] clk = new long[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                long[] page = st.pages[0];
                long rawBefore = page[Stats.INCL_RAW];
                long callsBefore = page[Stats.OUTER_CALLS];
                pair[r] = pairs(c, n) * 1000 / n;
                page = st.pages[0];
                long calls = page[Stats.OUTER_CALLS] - callsBefore;
                inner[r] = calls > 0 ? (page[Stats.INCL_RAW] - rawBefore) * 1000 / calls : 0;
                iter[r] = iters(c, n) * 1000 / n;
                clk[r] = clock(n) * 1000 / n;
            }
            long pairPicos = median(pair);
            long innerPicos = Math.min(median(inner), pairPicos);
            return new Calibration(innerPicos, pairPicos / 2, median(iter), median(clk), System.nanoTime());
        } finally {
            Recorder.unregister(st);
        }
    }

    private static long pairs(Config c, int n) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            enter(c, 0);
            exit(c, 0);
        }
        return System.nanoTime() - t0;
    }

    private static long iters(Config c, int n) {
        Recorder.state().loopEnter(c, 0);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) iter(c, 0);
        long d = System.nanoTime() - t0;
        Recorder.state().loopExit(c, 0);
        return d;
    }

    private static long clock(int n) {
        long t0 = System.nanoTime();
        long x = 0;
        for (int i = 0; i < n; i++) x += System.nanoTime();
        long d = System.nanoTime() - t0;
        sink = x;
        return d;
    }

    // The same shape as Probe's entry points, with the private config in place of the global one.
    private static void enter(Config c, int id) {
        if (id < 0 || id >= c.on.length || !c.on[id]) return;
        Recorder.state().enter(c, id);
    }

    private static void exit(Config c, int id) {
        if (id < 0 || id >= c.on.length || !c.on[id]) return;
        Recorder.state().exit(c, id, false);
    }

    private static void iter(Config c, int id) {
        if (id < 0 || id >= c.on.length || !c.on[id]) return;
        Recorder.state().loopIter(id);
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
