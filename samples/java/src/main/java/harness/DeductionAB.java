package harness;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code workload.CallHeavy} (OverheadIT's workloads) plain and offline-instrumented in one JVM,
 * taking turns call by call, so that the deducted time hyprof reports for the instrumented
 * {@code root()} is compared with plain calls made at the same moments.
 *
 * <p>Why: between JVMs started a few seconds apart the plain {@code root()} alone differs by
 * 20–40 % on the CI machine kind (other tenants of the host; {@code coarse}: 0.94–1.60 ms a call
 * in six runs in a row), more than the error the deduction is judged by, so a profiled run against
 * other runs' median says more of the machine than of the probes. Here the plain copy (a class
 * loader of its own over the plain jar) and the instrumented copy (one over the offline jar, which
 * embeds the runtime: it starts at the first probe and writes its session at exit, reading
 * {@code -Dhyprof.options}) warm up together, then alternate {@code root()} calls, the one going
 * first alternating too. Neither loader has a parent but the JDK's: the copies share nothing.
 *
 * <p>Prints one line, {@code plain_mean_ns=P profiled_mean_ns=Q plain_median_ns=… profiled_median_ns=…
 * rounds=R}: the program's own clock around each call (profiled: the instrumented copy's perturbed
 * time, probes included). hyprof's deducted inclusive time of the same calls is in the session
 * ({@code workload.CallHeavy.root()}: its calls are exactly the R measured ones; the warm-up calls
 * {@code work()}).
 *
 * <p>Arguments: {@code kind size warmupMillis rounds plainJar offlineJar}; kind and size as
 * {@code CallHeavy}'s.
 */
public final class DeductionAB {
    private DeductionAB() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: harness.DeductionAB KIND SIZE WARMUP_MILLIS ROUNDS PLAIN_JAR OFFLINE_JAR");
            System.exit(2);
        }
        String kind = args[0];
        int size = Integer.parseInt(args[1]);
        long warmupNanos = Long.parseLong(args[2]) * 1000000L;
        int rounds = Integer.parseInt(args[3]);
        if (rounds < 1) throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        Method[] root = new Method[2], work = new Method[2];
        for (int i = 0; i < 2; i++) {
            ClassLoader l = new URLClassLoader(new URL[] {url(args[4 + i])}, null);
            Class<?> c = Class.forName("workload.CallHeavy", true, l);
            set(c, "kind", kind);
            set(c, "size", size);
            root[i] = c.getDeclaredMethod("root");
            work[i] = c.getDeclaredMethod("work");
            root[i].setAccessible(true);
            work[i].setAccessible(true);
        }
        // warm-up, both copies in turn, as CallHeavy's main warms up: at least 40 calls of work()
        // each and on until each has had about warmupMillis
        long start = System.nanoTime();
        for (int r = 0; r < 40 || System.nanoTime() - start < 2 * warmupNanos; r++) {
            work[0].invoke(null);
            work[1].invoke(null);
        }
        long[][] nanos = new long[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int i = (r + k) & 1; // plain first in even rounds, the instrumented copy in odd ones
                long t0 = System.nanoTime();
                root[i].invoke(null);
                nanos[i][r] = System.nanoTime() - t0;
            }
        }
        System.out.printf(Locale.ROOT, "plain_mean_ns=%d profiled_mean_ns=%d plain_median_ns=%d profiled_median_ns=%d rounds=%d%n",
                mean(nanos[0]), mean(nanos[1]), median(nanos[0]), median(nanos[1]), rounds);
    }

    private static URL url(String path) throws Exception {
        File f = new File(path);
        if (!f.isFile()) throw new IllegalArgumentException("no such jar: " + path);
        return f.toURI().toURL();
    }

    private static void set(Class<?> c, String name, Object value) throws Exception {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        f.set(null, value);
    }

    private static long mean(long[] xs) {
        long s = 0;
        for (long x : xs) s += x;
        return s / xs.length;
    }

    private static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
