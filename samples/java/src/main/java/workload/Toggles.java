package workload;

import java.lang.management.ManagementFactory;

/**
 * A workload for toggling probes while it runs (issue 15), in SciMark 2.0's shape: the main thread
 * and two workers ({@code W1}, {@code W2}) each run rounds of kernels until the standard input is
 * closed (or a line is read), so a test decides when it ends however slowly the machine runs it.
 * At the end it prints {@code toggles done wall_ms=N rounds=R}: N is the JVM's uptime in ms (from
 * before the agent started, so every thread's recorded time lies within it), R the rounds all
 * threads finished. Each thread prints {@code round NAME K} after its K-th round, which a test
 * reads to see the program go on without depending on any probe.
 *
 * <p>Argument: the kind of round.
 * <ul>
 * <li>{@code scimark} (default): nested array loops (SOR, matrix multiply), a recursive quicksort
 * with its partition loop inside, a Monte Carlo estimate calling a small random number generator
 * ({@link Rng}, like {@code jnt.scimark2.Random}) from a loop, string building with a helper per
 * character, small helpers called from loops;</li>
 * <li>{@code recursion}: {@link #descend} to depth 200 with a loop before and after each recursive
 * call, so a thread spends its time deep in recursion;</li>
 * <li>{@code loops}: {@link #sweep}, one long loop (with a nested one and a helper call per
 * iteration) per round, inside each thread's own loop that runs until the end.</li>
 * </ul>
 */
public final class Toggles {
    static volatile boolean stop;
    static volatile long sink;
    static String kind = "scimark";

    public static void main(String[] args) throws Exception {
        if (args.length > 0) kind = args[0];
        Thread stdin = new Thread(new StdinWatcher(), "stdin");
        stdin.setDaemon(true);
        stdin.start();
        Thread w1 = new Thread(new Worker(), "W1");
        Thread w2 = new Thread(new Worker(), "W2");
        w1.start();
        w2.start();
        long rounds = new Worker().loop();
        w1.join();
        w2.join();
        long wallMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.println("toggles done wall_ms=" + wallMillis + " rounds=" + rounds + " sink=" + (sink != 0));
    }

    /** Sets {@link #stop} when the standard input ends or a line is read. */
    static final class StdinWatcher implements Runnable {
        @Override
        public void run() {
            try {
                int c;
                do c = System.in.read(); while (c >= 0 && c != '\n');
            } catch (java.io.IOException e) {
                // ends the run as a closed input does
            }
            stop = true;
        }
    }

    /** One thread's rounds until {@link #stop}. */
    static final class Worker implements Runnable {
        @Override
        public void run() {
            loop();
        }

        long loop() {
            String name = Thread.currentThread().getName();
            long n = 0;
            while (!stop) {
                round();
                n++;
                System.out.println("round " + name + " " + n);
            }
            return n;
        }
    }

    static void round() {
        switch (kind) {
            case "recursion": sink += descend(200); break;
            case "loops": sink += sweep(20_000); break;
            default: scimark();
        }
    }

    // ---------------------------------------------------------------- scimark

    static void scimark() {
        double[][] g = grid(32);
        sink += (long) sor(g, 4);
        sink += (long) matmul(grid(20), grid(20));
        int[] a = randomInts(1000);
        quicksort(a, 0, a.length - 1);
        sink += a[a.length / 2];
        sink += (long) (monteCarlo(4000) * 1000);
        sink += text(200).length();
    }

    static double[][] grid(int n) {
        double[][] g = new double[n][n];
        Rng r = new Rng(n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) g[i][j] = r.next();
        return g;
    }

    /** Successive over-relaxation, as SciMark's SOR kernel: three nested loops. */
    static double sor(double[][] g, int iterations) {
        int n = g.length;
        double omega = 1.25;
        for (int p = 0; p < iterations; p++)
            for (int i = 1; i < n - 1; i++) {
                double[] above = g[i - 1], row = g[i], below = g[i + 1];
                for (int j = 1; j < n - 1; j++)
                    row[j] = omega * 0.25 * (above[j] + below[j] + row[j - 1] + row[j + 1]) + (1 - omega) * row[j];
            }
        return g[n / 2][n / 2];
    }

    static double matmul(double[][] a, double[][] b) {
        int n = a.length;
        double sum = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];
                sum += clamp(s);
            }
        return sum;
    }

    static int[] randomInts(int n) {
        int[] a = new int[n];
        Rng r = new Rng(n);
        for (int i = 0; i < n; i++) a[i] = mix((int) (r.next() * 1_000_000));
        return a;
    }

    /** A recursive method with a loop inside it (the partition). */
    static void quicksort(int[] a, int lo, int hi) {
        if (lo >= hi) return;
        int pivot = a[(lo + hi) >>> 1], i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) swap(a, i++, j--);
        }
        quicksort(a, lo, j);
        quicksort(a, i, hi);
    }

    static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    static double monteCarlo(int samples) {
        Rng r = new Rng(113);
        int under = 0;
        for (int k = 0; k < samples; k++) {
            double x = r.next(), y = r.next();
            if (x * x + y * y <= 1.0) under++;
        }
        return (double) under / samples * 4.0;
    }

    static String text(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(hexDigit(mix(i))).append(i % 16 == 15 ? "\n" : "");
        return b.toString();
    }

    static char hexDigit(int v) {
        return Character.forDigit(v & 15, 16);
    }

    static int mix(int v) {
        v ^= v >>> 16;
        v *= 0x45d9f3b;
        return v ^ (v >>> 16);
    }

    static double clamp(double v) {
        return v > 1e9 ? 1e9 : v < -1e9 ? -1e9 : v;
    }

    /** A small linear congruential generator, called from loops (SciMark's Random). */
    static final class Rng {
        private long seed;

        Rng(long seed) {
            this.seed = seed;
        }

        double next() {
            seed = (seed * 0x5DEECE66DL + 0xBL) & ((1L << 48) - 1);
            return (seed >>> 22) / (double) (1L << 26);
        }
    }

    // ---------------------------------------------------------------- recursion

    /** Recursion to {@code depth} with a loop before and after the recursive call. */
    static long descend(int depth) {
        long s = 0;
        for (int i = 0; i < 50; i++) s += mix(i + depth);
        if (depth > 0) s += descend(depth - 1);
        for (int i = 0; i < 50; i++) s ^= mix((int) s + i);
        return s;
    }

    // ---------------------------------------------------------------- loops

    /** One long loop with a nested loop and a helper call per iteration. */
    static long sweep(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            int v = mix(i);
            for (int k = 0; k < 4; k++) v = v * 31 + k;
            s += v;
        }
        return s;
    }
}
