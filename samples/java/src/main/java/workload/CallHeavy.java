package workload;

/**
 * A call-heavy workload for checking overhead deduction: recursion, many small methods and loops
 * under one root, {@link #work()}. {@code main} runs it {@code reps} times and prints the mean
 * wall time of one {@code work()} call as measured by the program itself:
 * {@code work_mean_ns=<n>}. Run it with and without probes and compare that figure with the
 * profile's deducted and raw inclusive time of {@code work()}.
 *
 * <p>Arguments: {@code [kind] [reps] [size]}; kind is {@code mixed} (default), {@code recursion},
 * {@code small}, {@code loops} or {@code kernels} (DPA's six verification kernels: matrix, loop,
 * sieve, bubble sort, random, string concatenation, with recursive fib and hanoi).
 */
public final class CallHeavy {
    static long sink;
    static String kind = "mixed";
    static int size = 200;

    public static void main(String[] args) {
        if (args.length > 0) kind = args[0];
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        if (args.length > 2) size = Integer.parseInt(args[2]);
        long total = 0;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            work();
            total += System.nanoTime() - t0;
        }
        System.out.println("work_mean_ns=" + total / reps + " sink=" + sink);
    }

    /** The root: what the deduction is checked on. */
    static void work() {
        switch (kind) {
            case "recursion": for (int i = 0; i < size; i++) sink += fib(14); break;
            case "small": for (int i = 0; i < size * 200; i++) sink += a(i); break;
            case "loops": sink += matrix(size / 2 + 20); break;
            case "kernels": kernels(); break;
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
