package org.hyprof.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Parquet export of two builds in one JVM, alternated round after round: each build's
 * {@code hyprof.jar} in a class loader of its own, {@code ParquetExport.write} called through
 * reflection on the same session, and per call the exporting thread's CPU time, the process's,
 * the wall time, the files' size and the load average. The first round is what a command pays
 * (class loading, interpreted code, JIT); the later ones are warm. Alternating in one process
 * keeps the two builds' figures comparable on a loaded machine. Never asserts.
 *
 * <p>Usage: {@code ParquetWarm SESSION.db ROUNDS BEFORE_JAR AFTER_JAR} (a synthetic session from
 * {@link ExportSession}; see {@code bench/README.md}, exports of a 10⁷-event session).
 */
public final class ParquetWarm {
    private ParquetWarm() {}

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> names = List.of("before", "after");
        List<ClassLoader> loaders = loaders(args[2], args[3]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Path tmp = Files.createTempDirectory("hyprof-parquet-warm");
        System.out.println("round build   thread-cpu-s process-cpu-s wall-s output-MB load");
        try {
            for (int r = 0; r < rounds; r++) {
                for (int b = 0; b < 2; b++) {
                    ClassLoader l = loaders.get(b);
                    Class<?> store = l.loadClass("org.hyprof.store.Store");
                    Method open = store.getMethod("openReadOnly", Path.class);
                    Method write = l.loadClass("org.hyprof.export.ParquetExport").getMethod("write", store, Path.class, Map.class, Path.class);
                    Path out = Files.createTempDirectory(tmp, "out");
                    String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
                    long thread0 = threads.getCurrentThreadCpuTime(), process0 = os.getProcessCpuTime(), wall0 = System.nanoTime();
                    try (AutoCloseable s = (AutoCloseable) open.invoke(null, db)) {
                        write.invoke(null, s, db, Map.of(), out);
                    }
                    long threadNanos = threads.getCurrentThreadCpuTime() - thread0, processNanos = os.getProcessCpuTime() - process0,
                            wallNanos = System.nanoTime() - wall0;
                    long bytes;
                    try (Stream<Path> files = Files.walk(out)) {
                        bytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
                    }
                    System.out.printf("%5d %-7s %12.2f %13.2f %6.2f %9.1f %s%n", r, names.get(b), threadNanos / 1e9, processNanos / 1e9,
                            wallNanos / 1e9, bytes / 1e6, load);
                    delete(out);
                }
            }
        } finally {
            delete(tmp);
        }
    }

    /** A class loader per build's {@code hyprof.jar}, each with its own SQLite driver loaded. */
    static List<ClassLoader> loaders(String... jars) throws Exception {
        List<ClassLoader> loaders = new ArrayList<>();
        for (String jar : jars) {
            // the platform loader as parent: java.sql and the JDK's other modules, nothing of this jar's class path
            ClassLoader l = new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class.forName("org.sqlite.JDBC", true, l); // each build's store finds its own driver
            loaders.add(l);
        }
        return loaders;
    }

    private static void delete(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
