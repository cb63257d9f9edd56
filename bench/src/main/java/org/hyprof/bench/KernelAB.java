package org.hyprof.bench;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * One SciMark 2.0 kernel from several jars in one JVM, each jar in a class loader of its own, the
 * jars taking turns measurement by measurement: machine noise (other tenants, frequency) then hits
 * every variant alike, which separate JVMs a few seconds apart do not give (±15 % between them on
 * the CI machine kind). Prints each jar's median Mflops over the measurements after a warm-up third,
 * and its ratio to the first jar's. An instrumented jar's runtime reads {@code -Dhyprof.options}
 * (e.g. {@code resolutions=} for every probe off).
 *
 * <p>Arguments: {@code kernel rounds seconds jar...}; kernel is FFT, SOR, MonteCarlo, SparseMatmult
 * or LU (SciMark's small problem sizes), seconds the minimum time of one measurement.
 */
public final class KernelAB {
    private KernelAB() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: KernelAB FFT|SOR|MonteCarlo|SparseMatmult|LU ROUNDS SECONDS JAR...");
            System.exit(2);
        }
        String kernel = args[0];
        int rounds = Integer.parseInt(args[1]);
        double seconds = Double.parseDouble(args[2]);
        int jars = args.length - 3;
        Method[] measure = new Method[jars];
        Class<?>[] random = new Class<?>[jars];
        for (int i = 0; i < jars; i++) {
            ClassLoader l = new URLClassLoader(new URL[] {Path.of(args[i + 3]).toUri().toURL()}, null);
            random[i] = Class.forName("jnt.scimark2.Random", true, l);
            for (Method m : Class.forName("jnt.scimark2.kernel", true, l).getMethods())
                if (m.getName().equalsIgnoreCase("measure" + kernel)) measure[i] = m;
            if (measure[i] == null) throw new IllegalArgumentException("no kernel '" + kernel + "' in " + args[i + 3]);
        }
        double[][] mflops = new double[jars][rounds];
        for (int r = 0; r < rounds; r++)
            for (int i = 0; i < jars; i++) {
                Object rnd = random[i].getConstructor(int.class).newInstance(101010); // SciMark's seed
                Object v = switch (kernel.toLowerCase(Locale.ROOT)) {
                    case "fft" -> measure[i].invoke(null, 1024, seconds, rnd);
                    case "sor" -> measure[i].invoke(null, 100, seconds, rnd);
                    case "montecarlo" -> measure[i].invoke(null, seconds, rnd);
                    case "sparsematmult" -> measure[i].invoke(null, 1000, 5000, seconds, rnd);
                    default -> measure[i].invoke(null, 100, seconds, rnd);
                };
                mflops[i][r] = (Double) v;
            }
        int warm = rounds / 3;
        double base = 0;
        for (int i = 0; i < jars; i++) {
            double[] kept = Arrays.copyOfRange(mflops[i], warm, rounds);
            double[] sorted = kept.clone();
            Arrays.sort(sorted);
            double median = sorted[sorted.length / 2];
            if (i == 0) base = median;
            StringBuilder runs = new StringBuilder();
            for (double x : kept) runs.append(String.format(Locale.ROOT, " %.0f", x));
            System.out.printf(Locale.ROOT, "%s %-40s median %8.1f  ratio %.3f  runs%s%n", kernel, args[i + 3], median, median / base, runs);
        }
    }
}
