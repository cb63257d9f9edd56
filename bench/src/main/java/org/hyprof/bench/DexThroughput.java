package org.hyprof.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.dex.DexInstrumenter;

/**
 * DEX instrumentation throughput (methods per second) and DEX growth on a real library's DEX
 * (bench/dex.sh makes it: D8 output of Guava from Maven Central). The same input is instrumented
 * {@code runs} times in this JVM: the first run includes class loading and JIT warm-up (what
 * one {@code hyprof instrument} invocation pays), the median of the others is the steady state.
 * Prints figures only; never asserts.
 * Usage: {@code DexThroughput CLASSES.DEX [runs]}.
 */
public final class DexThroughput {
    private DexThroughput() {}

    public static void main(String[] args) throws Exception {
        Path dex = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 11;
        Path work = Files.createTempDirectory("hyprof-dex-bench");
        Path in = work.resolve("in"), out = work.resolve("out");
        Files.createDirectories(in);
        Files.copy(dex, in.resolve("classes.dex"));
        List<Double> rates = new ArrayList<>();
        DexInstrumenter.Summary s = null;
        double firstSeconds = 0;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (i == 0) firstSeconds = seconds;
            else rates.add(s.methods() / seconds);
        }
        Collections.sort(rates);
        double median = rates.isEmpty() ? 0 : rates.get(rates.size() / 2);
        System.out.printf(Locale.ROOT, "input: %s, %,d bytes, %,d classes%n", dex, s.dexInBytes(), s.classes());
        System.out.printf(Locale.ROOT, "methods with probes %,d, loops %,d, probes %,d, skipped %,d%n", s.methods(), s.loops(),
                s.methods() + s.loops(), s.manifest().skipped().size());
        System.out.printf(Locale.ROOT, "first run (cold JVM): %.2f s = %,.0f methods/s%n", firstSeconds, s.methods() / firstSeconds);
        if (!rates.isEmpty())
            System.out.printf(Locale.ROOT, "steady state, %d runs: median %,.0f methods/s (min %,.0f, max %,.0f)%n",
                    rates.size(), median, rates.get(0), rates.get(rates.size() - 1));
        System.out.printf(Locale.ROOT, "DEX growth: %,d -> %,d bytes (%+.1f%%), runtime DEX %,d bytes on top%n",
                s.dexInBytes(), s.dexOutBytes(), 100.0 * (s.dexOutBytes() - s.dexInBytes()) / s.dexInBytes(), s.runtimeBytes());
    }
}
