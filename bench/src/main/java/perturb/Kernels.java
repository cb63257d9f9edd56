package perturb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The perturbation benchmark's program (issue 15; run by {@code bench/perturbation.sh}): single-call
 * kernels with tight loops, each a static method called <b>once</b> per process (no warm-up: the
 * call a profiler user sees the first time a program runs, interpreter and OSR compilation
 * included), timed by the program's own clock ({@link System#nanoTime()} around the call).
 *
 * <p>One line per kernel on stdout, machine-readable:
 * {@code perturb kernel=NAME method=CLASS.METHOD(DESC) calls=K ns=N check=C}; {@code method} is the
 * name hyprof's report gives the kernel's method, {@code calls} how many calls of it the kernel
 * makes (1, or the recursion's count), {@code ns} the call's wall-clock nanoseconds,
 * {@code check} a result the JIT cannot drop (and a sanity check: the same in every run). Inputs
 * are made before the clock starts and are the same in every run (fixed seeds). The kernels run in
 * the order given on the command line (default: all, in {@link #NAMES} order).
 *
 * <p>Each kernel is one method doing its own loops, calling no method of this class except
 * {@code treewalk}, which is the recursion: a complete binary tree of depth 22 walked by
 * 8,388,607 calls of itself (the recursive tree walk quoted in issue 15), reported apart from the
 * others because there the probes' cost per call is larger than the work.
 *
 * <p>Sizes are for 10–50 ms per kernel on the project's CI machine kind (2 cores, JDK 17).
 */
public final class Kernels {
    /** Kernel names, in the default order. */
    static final String[] NAMES = {"matmul", "sieve", "sort", "strings", "counted", "treewalk"};

    static final int MATMUL_N = 200;
    static final int SIEVE_N = 8_000_000;
    static final int SORT_N = 12_000;
    static final int STRINGS_N = 200_000;
    static final int COUNTED_N = 25_000_000;
    static final int TREE_DEPTH = 22;

    private Kernels() {}

    public static void main(String[] args) {
        List<String> which = new ArrayList<>();
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println("usage: Kernels [KERNEL...]   kernels: " + String.join(" ", NAMES));
                return;
            }
            if (!List.of(NAMES).contains(a)) {
                System.err.println("Kernels: unknown kernel '" + a + "' (known: " + String.join(" ", NAMES) + ")");
                System.exit(2);
            }
            which.add(a);
        }
        if (which.isEmpty()) which.addAll(List.of(NAMES));
        for (String k : which) run(k);
    }

    private static void run(String kernel) {
        long t0, t1, check, calls = 1;
        String method;
        switch (kernel) {
            case "matmul": {
                double[][] a = matrix(MATMUL_N, 1), b = matrix(MATMUL_N, 2), c = new double[MATMUL_N][MATMUL_N];
                t0 = System.nanoTime();
                matmul(a, b, c);
                t1 = System.nanoTime();
                check = (long) (c[MATMUL_N / 2][MATMUL_N / 3] * 1000);
                method = "matmul([[D[[D[[D)V";
                break;
            }
            case "sieve": {
                boolean[] composite = new boolean[SIEVE_N + 1];
                t0 = System.nanoTime();
                check = sieve(composite);
                t1 = System.nanoTime();
                method = "sieve([Z)I";
                break;
            }
            case "sort": {
                int[] a = ints(SORT_N, 3);
                t0 = System.nanoTime();
                insertionSort(a);
                t1 = System.nanoTime();
                check = a[0] ^ a[SORT_N / 2] ^ a[SORT_N - 1];
                method = "insertionSort([I)V";
                break;
            }
            case "strings": {
                int[] a = ints(STRINGS_N, 4);
                t0 = System.nanoTime();
                check = strings(a);
                t1 = System.nanoTime();
                method = "strings([I)I";
                break;
            }
            case "counted": {
                t0 = System.nanoTime();
                check = counted(COUNTED_N);
                t1 = System.nanoTime();
                method = "counted(I)J";
                break;
            }
            case "treewalk": {
                t0 = System.nanoTime();
                check = treewalk(TREE_DEPTH, 1);
                t1 = System.nanoTime();
                calls = (1L << (TREE_DEPTH + 1)) - 1;
                method = "treewalk(IJ)J";
                break;
            }
            default:
                throw new IllegalArgumentException(kernel);
        }
        System.out.println(String.format(Locale.ROOT, "perturb kernel=%s method=%s.%s calls=%d ns=%d check=%d", kernel,
                Kernels.class.getName(), method, calls, t1 - t0, check));
    }

    /** Nested array loops: c = a × b, n³ multiply-adds (i-k-j order, the inner loop over rows). */
    static void matmul(double[][] a, double[][] b, double[][] c) {
        int n = a.length;
        for (int i = 0; i < n; i++) {
            double[] ci = c[i], ai = a[i];
            for (int k = 0; k < n; k++) {
                double aik = ai[k];
                double[] bk = b[k];
                for (int j = 0; j < n; j++) ci[j] += aik * bk[j];
            }
        }
    }

    /** Sieve of Eratosthenes over {@code composite} (all false on entry); the number of primes. */
    static int sieve(boolean[] composite) {
        int n = composite.length - 1, primes = 0;
        for (int i = 2; (long) i * i <= n; i++) {
            if (composite[i]) continue;
            for (int j = i * i; j <= n; j += i) composite[j] = true;
        }
        for (int i = 2; i <= n; i++) if (!composite[i]) primes++;
        return primes;
    }

    /** Insertion sort, in place: ~n²/4 moves for random input. */
    static void insertionSort(int[] a) {
        for (int i = 1; i < a.length; i++) {
            int v = a[i], j = i - 1;
            while (j >= 0 && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    /** String building: every value appended to a StringBuilder with a separator; a hash of the text. */
    static int strings(int[] values) {
        StringBuilder sb = new StringBuilder();
        for (int v : values) sb.append(v).append(',');
        int h = 0;
        for (int i = 0; i < sb.length(); i++) h = 31 * h + sb.charAt(i);
        return h ^ sb.length();
    }

    /** A counted loop: n steps of a xorshift generator, summed. */
    static long counted(int n) {
        long x = 88172645463325252L, sum = 0;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            sum += x & 0xffff;
        }
        return sum;
    }

    /** Recursion: walks a complete binary tree of the given depth, 2^(depth+1) − 1 calls of itself. */
    static long treewalk(int depth, long node) {
        if (depth == 0) return node & 7;
        return treewalk(depth - 1, 2 * node) + treewalk(depth - 1, 2 * node + 1) + 1;
    }

    private static double[][] matrix(int n, long seed) {
        double[][] m = new double[n][n];
        long x = seed * 0x9E3779B97F4A7C15L;
        for (double[] row : m)
            for (int j = 0; j < n; j++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                row[j] = (x >>> 40) / (double) (1 << 24);
            }
        return m;
    }

    private static int[] ints(int n, long seed) {
        int[] a = new int[n];
        long x = seed * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) (x >>> 33);
        }
        return a;
    }
}
