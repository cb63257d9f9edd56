package workload;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One method, {@link #work}, reached along several call paths of different per-call cost: 12 calls
 * of 6 M steps from {@link #heavy}, 120 of 500 k from {@link #light}, 20 of 2 M through a recursion
 * three deep ({@link #rec}), and 40 of 2 M from a thread started with a lambda: every path's calls
 * add up to tens of milliseconds or more, so that one pause of a loaded machine cannot dominate one. Each caller times its own calls with
 * System.nanoTime and the totals are written to the file named by the first argument, one line
 * per path: {@code path calls nanos} (path as frames joined by {@code ;}, innermost last), for the
 * calling-context tree's acceptance test to hold its figures against. A warm-up first runs the
 * probes' own code until it is compiled (run the workload with every probe timed, {@code --time-all},
 * so the warm-up calls stay timed): interpreted, a probe pair costs microseconds, which the callers'
 * clocks see and the callee's own time does not.
 */
public final class Paths {
    static volatile long sink;
    static final Map<String, long[]> TRUTH = new LinkedHashMap<>();

    static long work(int steps) {
        long x = 1;
        for (int i = 0; i < steps; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        sink += x;
        return x;
    }

    static synchronized void note(String path, long nanos) {
        long[] v = TRUTH.computeIfAbsent(path, k -> new long[2]);
        v[0]++;
        v[1] += nanos;
    }

    /**
     * A thread's first calls of {@link #work} make its probe pages, histograms and tree node: done
     * here, on a path of its own and unmeasured, so that no measured call pays for them (an
     * allocation in the probes' window can meet a GC pause the callers' clocks would see).
     */
    static void prime() {
        work(1);
    }

    static void heavy() {
        for (int i = 0; i < 12; i++) {
            long t0 = System.nanoTime();
            work(6_000_000);
            note("heavy;work", System.nanoTime() - t0);
        }
    }

    static void light() {
        for (int i = 0; i < 120; i++) {
            long t0 = System.nanoTime();
            work(500_000);
            note("light;work", System.nanoTime() - t0);
        }
    }

    static void rec(int depth, String path) {
        String here = path.isEmpty() ? "rec" : path + ";rec";
        if (depth > 1) {
            rec(depth - 1, here);
            return;
        }
        for (int i = 0; i < 20; i++) {
            long t0 = System.nanoTime();
            work(2_000_000);
            note(here + ";work", System.nanoTime() - t0);
        }
    }

    /** Calls that warm the probes' own code up (compiled, as in any program that runs a while) before the measured ones. */
    static long warm(int steps) {
        long x = steps;
        for (int i = 0; i < steps; i++) x = x * 31 + i;
        return x;
    }

    public static void main(String[] args) throws Exception {
        // Warm up until a batch of near-empty calls is fast: the probes' code is then compiled (on a
        // loaded machine the JIT's threads wait for a core, so a fixed count is not enough). At most 20 s.
        long deadline = System.nanoTime() + 20_000_000_000L;
        for (;;) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 1_000; i++) sink += warm(1);
            long perCall = (System.nanoTime() - t0) / 1_000;
            if (perCall < 1_000 || System.nanoTime() > deadline) break;
        }
        for (int i = 0; i < 5_000; i++) sink += warm(1);
        prime();
        prime();
        heavy();
        light();
        rec(3, "");
        Thread t = new Thread(() -> {
            prime();
            prime();
            for (int i = 0; i < 40; i++) {
                long t0 = System.nanoTime();
                work(2_000_000);
                note("lambda;work", System.nanoTime() - t0);
            }
        }, "lambda-worker");
        t.start();
        t.join();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(java.nio.file.Paths.get(args[0]), StandardCharsets.UTF_8))) {
            for (Map.Entry<String, long[]> e : TRUTH.entrySet())
                w.println(e.getKey() + " " + e.getValue()[0] + " " + e.getValue()[1]);
        }
    }

    private Paths() {}
}
