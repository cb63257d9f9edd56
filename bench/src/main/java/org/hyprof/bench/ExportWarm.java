package org.hyprof.bench;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A timeline export ({@code trace}, {@code chrome}, {@code speedscope}, {@code perfetto} or
 * {@code folded}) of two builds in one JVM, alternated round after round, as {@link ParquetWarm}
 * does for Parquet: each build's {@code hyprof.jar} in a class loader of its own, the exporter
 * called through reflection on the same session into a file, and per call the exporting thread's
 * CPU time, the other threads' (the process's less it: a replay read ahead, GC, the JIT), the wall
 * time and the load average. The first round is what a command pays; the later ones are warm.
 * Never asserts.
 *
 * <p>Usage: {@code ExportWarm SESSION.db ROUNDS FORMAT BEFORE_JAR AFTER_JAR} (a synthetic session
 * from {@link ExportSession}; see {@code bench/README.md}).
 */
public final class ExportWarm {
    private ExportWarm() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: ExportWarm SESSION.db ROUNDS trace|chrome|speedscope|perfetto|folded BEFORE_JAR AFTER_JAR");
            System.exit(2);
        }
        Path db = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        String format = args[2];
        List<String> names = List.of("before", "after");
        List<ClassLoader> loaders = ParquetWarm.loaders(args[3], args[4]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Path out = Files.createTempFile("hyprof-export-warm", "." + format);
        System.out.println("round build   thread-cpu-s other-cpu-s wall-s output-MB load");
        try {
            for (int r = 0; r < rounds; r++) {
                for (int b = 0; b < 2; b++) {
                    ClassLoader l = loaders.get(b);
                    Class<?> store = l.loadClass("org.hyprof.store.Store");
                    Class<?> stream = l.loadClass("org.hyprof.analysis.CallStream");
                    Method open = store.getMethod("openReadOnly", Path.class);
                    Method processes = store.getMethod("processes");
                    Method of = stream.getMethod("of", store, l.loadClass("org.hyprof.store.ProcessInfo"), String.class);
                    String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
                    long thread0 = threads.getCurrentThreadCpuTime(), process0 = os.getProcessCpuTime(), wall0 = System.nanoTime();
                    try (AutoCloseable s = (AutoCloseable) open.invoke(null, db);
                         OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
                        Object t = of.invoke(null, s, ((List<?>) processes.invoke(s)).get(0), null);
                        export(l, format, stream, t, o);
                    }
                    long threadNanos = threads.getCurrentThreadCpuTime() - thread0, processNanos = os.getProcessCpuTime() - process0,
                            wallNanos = System.nanoTime() - wall0;
                    System.out.printf("%5d %-7s %12.2f %11.2f %6.2f %9.1f %s%n", r, names.get(b), threadNanos / 1e9,
                            (processNanos - threadNanos) / 1e9, wallNanos / 1e9, Files.size(out) / 1e6, load);
                }
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static void export(ClassLoader l, String format, Class<?> stream, Object t, OutputStream o) throws Exception {
        switch (format) {
            case "trace" -> l.loadClass("org.hyprof.export.AndroidTrace").getMethod("write", stream, OutputStream.class).invoke(null, t, o);
            case "chrome" -> l.loadClass("org.hyprof.export.ChromeTrace").getMethod("write", List.class, OutputStream.class, boolean.class)
                    .invoke(null, List.of(t), o, false);
            case "perfetto" -> l.loadClass("org.hyprof.export.PerfettoTrace").getMethod("write", List.class, OutputStream.class)
                    .invoke(null, List.of(t), o);
            case "speedscope" -> l.loadClass("org.hyprof.export.Speedscope").getMethod("write", List.class, String.class, OutputStream.class)
                    .invoke(null, List.of(t), "warm", o);
            case "folded" -> {
                var w = new java.io.PrintWriter(new java.io.OutputStreamWriter(o, java.nio.charset.StandardCharsets.UTF_8));
                l.loadClass("org.hyprof.export.Folded").getMethod("write", List.class, java.io.PrintWriter.class).invoke(null, List.of(t), w);
                w.flush();
            }
            default -> throw new IllegalArgumentException("format: trace, chrome, speedscope, perfetto or folded, not " + format);
        }
    }
}
