package workload;

import java.util.Arrays;

/**
 * Calls {@code fill} {@value #CALLS} times with sizes spread log-uniformly over three decades (a
 * few µs to a few ms per call, in a scrambled order), for per-call percentiles. {@code fill} calls
 * no instrumented method and has no loop of its own ({@code Arrays.fill}, JDK code, is not
 * probed), so its deducted time is its raw time less the same probe cost for every call.
 */
public final class Spread {
    public static final int CALLS = 1500;
    static final int MAX_INTS = 4 << 20;
    static volatile int sink;

    public static void main(String[] args) {
        int[] a = new int[MAX_INTS];
        for (int i = 0; i < CALLS; i++) {
            int k = (int) ((i * 7919L) % CALLS);
            int n = (int) (MAX_INTS * Math.pow(1000, -(double) k / CALLS)); // 4,194 … 4,194,304 ints
            fill(a, n);
        }
        System.out.println("spread done " + CALLS);
    }

    static void fill(int[] a, int n) {
        Arrays.fill(a, 0, n, n);
        sink = a[n - 1];
    }
}
