package org.hyprof.bench;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code workload.CallHeavy}'s kernels (the methods under OverheadIT's {@code coarse} root, and
 * {@code matrix}, the {@code loops} workload's) from several jars in one JVM, each jar in a class
 * loader of its own, the jars taking turns call by call (the one going first rotating), so machine
 * noise hits every jar alike. Each kernel is called directly, not under {@code root()}: the figure
 * is the kernel's own time, the whole call, by the harness's clock. Prints per kernel each jar's
 * median nanoseconds over the measured calls (after as many warm-up calls) and its ratio to the
 * first jar's. An instrumented jar's runtime reads {@code -Dhyprof.options} (e.g.
 * {@code resolutions=process:thread:method:loop}).
 *
 * <p>Why beside {@code deduction-ab.sh}: that one gives the error of a whole root; this one says
 * which kernel the probes slow down, which is where to look (bench/README, 2026-12-02).
 *
 * <p>Arguments: {@code calls kernels jar...}; kernels a comma-separated list of names (or
 * {@code all}) from {@link #KERNELS}, calls the measured calls of each kernel per jar.
 */
public final class CallHeavyKernelAB {
    private CallHeavyKernelAB() {}

    /** name → argument: the sizes CallHeavy's {@code coarse} calls them with ({@code matrix}: {@code loops}'s). */
    static final String[][] KERNELS = {
        {"matrixMultiply", "40"}, {"loop", "20000"}, {"sieve", "30000"}, {"bubbleSort", "300"},
        {"random", "20000"}, {"stringCat", "200"}, {"mergeSort", "2048"}, {"matrix", "120"},
    };

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: CallHeavyKernelAB CALLS all|KERNEL[,KERNEL...] JAR...");
            System.exit(2);
        }
        int calls = Integer.parseInt(args[0]);
        if (calls < 1) throw new IllegalArgumentException("calls must be at least 1: " + calls);
        List<String[]> chosen = new ArrayList<>();
        for (String[] k : KERNELS) if (args[1].equals("all") || Arrays.asList(args[1].split(",")).contains(k[0])) chosen.add(k);
        if (chosen.isEmpty()) throw new IllegalArgumentException("no such kernel: " + args[1]);
        int jars = args.length - 2;
        Class<?>[] c = new Class<?>[jars];
        for (int i = 0; i < jars; i++)
            c[i] = Class.forName("workload.CallHeavy", true, new URLClassLoader(new URL[] {Path.of(args[i + 2]).toUri().toURL()}, null));
        for (String[] k : chosen) {
            Method[] m = new Method[jars];
            for (int i = 0; i < jars; i++) {
                // the method itself, not its outlined body (same name, synthetic, one more parameter)
                for (Method x : c[i].getDeclaredMethods()) if (x.getName().equals(k[0]) && !x.isSynthetic()) m[i] = x;
                if (m[i] == null) throw new IllegalArgumentException("no method " + k[0] + " in " + args[i + 2]);
                m[i].setAccessible(true);
            }
            int n = Integer.parseInt(k[1]);
            long[][] nanos = new long[jars][calls];
            for (int r = -calls; r < calls; r++) { // warm-up calls first, as many as measured
                for (int j = 0; j < jars; j++) {
                    int i = Math.floorMod(r + j, jars);
                    long t0 = System.nanoTime();
                    call(m[i], k[0], n);
                    long d = System.nanoTime() - t0;
                    if (r >= 0) nanos[i][r] = d;
                }
            }
            long base = 0;
            for (int i = 0; i < jars; i++) {
                long[] sorted = nanos[i].clone();
                Arrays.sort(sorted);
                long median = sorted[calls / 2];
                if (i == 0) base = median;
                System.out.printf(Locale.ROOT, "%-15s %-12s median %9d ns  ratio %.3f%n", k[0], Path.of(args[i + 2]).getFileName(),
                        median, median / (double) base);
            }
        }
    }

    private static void call(Method m, String name, int n) throws Exception {
        if (name.equals("mergeSort")) {
            int[] a = new int[n];
            for (int j = 0; j < n; j++) a[j] = (j * 7919) % n; // as CallHeavy.coarse fills it
            m.invoke(null, a, new int[n], 0, n);
        } else {
            m.invoke(null, n);
        }
    }
}
