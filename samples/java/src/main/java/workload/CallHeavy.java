package workload;

/**
 * A call-heavy workload for checking overhead deduction: recursion, many small methods and loops
 * under one root. {@code main} runs {@code work()} {@code reps} times to warm up, then the root
 * {@link #root()} (which calls {@code work()} once) {@code reps} times, and prints the mean wall
 * time of one {@code root()} call as measured by the program itself: {@code root_mean_ns=<n>}.
 * Run it with and without probes and compare that figure with the profile's deducted and raw
 * inclusive time of {@code root()}.
 *
 * <p>Arguments: {@code [kind] [reps] [size] [warmupMillis]}; the warm-up runs {@code work()}
 * {@code reps} times and, with {@code warmupMillis}, on until that much time has passed (so that
 * the JIT has settled — recompiled what a profiler's probes changed — before the measured calls);
 * kind is {@code mixed} (default), {@code recursion},
 * {@code small}, {@code loops} or {@code kernels} (DPA's six verification kernels: matrix, loop,
 * sieve, bubble sort, random, string concatenation, with recursive fib and hanoi) or
 * {@code coarse} (the same kernels at sizes where one call takes microseconds, and a recursive
 * merge sort whose calls do real work: the granularity at which method probes are meant to stay on).
 */
public final class CallHeavy {
    static long sink;
    static String kind = "mixed";
    static int size = 200;

    public static void main(String[] args) {
        if (args.length > 0) kind = args[0];
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        if (args.length > 2) size = Integer.parseInt(args[2]);
        long warmupNanos = args.length > 3 ? Long.parseLong(args[3]) * 1_000_000L : 0;
        long warmStart = System.nanoTime();
        for (int r = 0; r < reps || System.nanoTime() - warmStart < warmupNanos; r++) work(); // warm-up: let the JIT settle
        long total = 0;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            root();
            total += System.nanoTime() - t0;
        }
        System.out.println("root_mean_ns=" + total / reps + " sink=" + sink);
    }

    /** The root: what the deduction is checked on (after warm-up). */
    static void root() {
        work();
    }

    static void work() {
        switch (kind) {
            case "recursion": for (int i = 0; i < size; i++) sink += fib(14); break;
            case "small": for (int i = 0; i < size * 200; i++) sink += a(i); break;
            case "loops": sink += matrix(size / 2 + 20); break;
            case "kernels": kernels(); break;
            case "coarse": coarse(); break;
            default:
                for (int i = 0; i < size / 4; i++) sink += fib(12);
                for (int i = 0; i < size * 50; i++) sink += a(i);
                sink += matrix(size / 4 + 20);
        }
    }

    static void kernels() {
        for (int r = 0; r < size / 20; r++) {
            sink += matrixMultiply(16);
            sink += loop(2000);
            sink += sieve(3000);
            sink += bubbleSort(120);
            sink += random(2000);
            sink += stringCat(60);
            sink += fib(16);
            sink += hanoi(9, 0, 1, 2);
        }
    }

    static void coarse() {
        for (int r = 0; r < size / 50; r++) {
            sink += matrixMultiply(40);
            sink += loop(20000);
            sink += sieve(30000);
            sink += bubbleSort(300);
            sink += random(20000);
            sink += stringCat(200);
            int[] a = new int[2048];
            for (int i = 0; i < a.length; i++) a[i] = (i * 7919) % 2048;
            mergeSort(a, new int[a.length], 0, a.length);
            sink += a[1000];
        }
    }

    static void mergeSort(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo <= 64) { // insertion sort: leaves do about a microsecond of work
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i], j = i - 1;
                while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        int i = lo, j = mid, k = lo;
        while (i < mid && j < hi) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
        while (i < mid) tmp[k++] = a[i++];
        while (j < hi) tmp[k++] = a[j++];
        System.arraycopy(tmp, lo, a, lo, hi - lo);
    }

    static long matrixMultiply(int n) {
        double[][] a = new double[n][n], b = new double[n][n], c = new double[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { a[i][j] = i + j; b[i][j] = i - j; }
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) {
            double v = 0;
            for (int k = 0; k < n; k++) v += a[i][k] * b[k][j];
            c[i][j] = v;
        }
        return (long) c[n - 1][n - 1];
    }

    static long loop(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += i * (long) i % 7;
        return s;
    }

    static int sieve(int n) {
        boolean[] composite = new boolean[n + 1];
        int count = 0;
        for (int i = 2; i <= n; i++) {
            if (composite[i]) continue;
            count++;
            for (int j = i * 2; j <= n; j += i) composite[j] = true;
        }
        return count;
    }

    static int bubbleSort(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = (i * 7919) % n;
        for (int i = 0; i < n; i++)
            for (int j = 0; j + 1 < n - i; j++)
                if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; }
        return a[n / 2];
    }

    static long random(int n) {
        long x = 42, s = 0;
        for (int i = 0; i < n; i++) { x = x * 6364136223846793005L + 1442695040888963407L; s += x >>> 60; }
        return s;
    }

    static int stringCat(int n) {
        String s = "";
        for (int i = 0; i < n; i++) s += i;
        return s.length();
    }

    static int hanoi(int n, int from, int to, int via) {
        if (n == 0) return 0;
        return hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from);
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static int a(int x) {
        return b(x) + c(x);
    }

    static int b(int x) {
        return (x * 17) ^ d(x);
    }

    static int c(int x) {
        return x % 13 == 0 ? d(x) : x >> 1;
    }

    static int d(int x) {
        return x * x + 3;
    }

    static long matrix(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                long v = 0;
                for (int k = 0; k < 8; k++) v += (long) (i + k) * (j - k);
                s += v;
            }
        }
        return s;
    }
}
